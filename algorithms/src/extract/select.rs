//! Choosing the text's containers: Readability's container score over the segments' subtrees,
//! the text-mass choice, and the widening of one by the other.

use std::collections::HashMap;

use html5ever::{LocalName, local_name};

use super::class_names;
use super::options::Params;
use super::segment::Segment;
use crate::html::dom::{DOCUMENT, NONE, NodeId, Page};

/// What is inside each element: its span in document order (so that "is inside" is two
/// comparisons) and the sums of its segments' measures, found in one walk of the tree, as a
/// page of a million segments needs.
pub(super) struct Subtrees {
    pub(super) enter: Vec<u32>,
    pub(super) exit: Vec<u32>,
    pub(super) sums: Vec<Sums>,
}

/// A subtree's characters: all, in links, in good segments (25 or more characters, link density
/// under 0.3) and in link-heavy ones (link density over 0.5).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Sums {
    pub(super) chars: f64,
    pub(super) link_chars: f64,
    pub(super) good: f64,
    pub(super) link_heavy: f64,
}

impl Sums {
    pub(super) fn add(&mut self, other: Sums) {
        self.chars += other.chars;
        self.link_chars += other.link_chars;
        self.good += other.good;
        self.link_heavy += other.link_heavy;
    }

    pub(super) fn link_density(&self) -> f64 {
        self.link_chars / self.chars.max(1.0)
    }

    /// Good characters less `alpha` times link-heavy ones.
    pub(super) fn mass(&self, alpha: f64) -> f64 {
        self.good - alpha * self.link_heavy
    }
}

impl Subtrees {
    pub(super) fn of(page: &Page, segments: &[Segment], listing: bool) -> Subtrees {
        let n = page.nodes.len();
        let mut tree = Subtrees {
            enter: vec![u32::MAX; n],
            exit: vec![0; n],
            sums: vec![Sums::default(); n],
        };
        for segment in segments {
            let ld = segment.link_density(listing);
            let chars = segment.chars as f64;
            let sums = &mut tree.sums[segment.container as usize];
            sums.chars += chars;
            sums.link_chars += segment.link_chars(listing) as f64;
            if ld > 0.5 {
                sums.link_heavy += chars;
            } else if segment.chars >= 25 && ld < 0.3 && !segment.in_card {
                sums.good += chars;
            }
        }
        // From the document node: a candidate's grandparent may be it.
        let mut clock = 0u32;
        let mut stack = vec![(DOCUMENT, false)];
        while let Some((id, leaving)) = stack.pop() {
            if leaving {
                tree.exit[id as usize] = clock;
                if let Some(p) = parent(page, id) {
                    let child = tree.sums[id as usize];
                    tree.sums[p as usize].add(child);
                }
                continue;
            }
            tree.enter[id as usize] = clock;
            clock += 1;
            stack.push((id, true));
            stack.extend(page.children(id).map(|c| (c, false)));
        }
        tree
    }

    pub(super) fn is_within(&self, id: NodeId, ancestor: NodeId) -> bool {
        let (i, a) = (id as usize, ancestor as usize);
        self.enter[a] != u32::MAX && self.enter[a] <= self.enter[i] && self.exit[i] <= self.exit[a]
    }

    pub(super) fn sums(&self, id: NodeId) -> Sums {
        self.sums[id as usize]
    }
}

pub(super) fn parent(page: &Page, id: NodeId) -> Option<NodeId> {
    let p = page.node(id).parent;
    (p != NONE).then_some(p)
}

/// A candidate's score before its segments: by its tag and by its class and id names.
pub(super) fn initial_score(page: &Page, id: NodeId, params: &Params) -> f64 {
    let Some(element) = page.element(id) else {
        return 0.0;
    };
    let names = page
        .class_and_id(element)
        .map_or(0.0, |n| class_names::hint(n).weight());
    tag_bonus(&element.name) + params.class_weight * names
}

pub(super) fn tag_bonus(name: &LocalName) -> f64 {
    match *name {
        local_name!("div") | local_name!("article") | local_name!("main") => 5.0,
        local_name!("pre") | local_name!("td") | local_name!("blockquote") => 3.0,
        local_name!("address")
        | local_name!("ol")
        | local_name!("ul")
        | local_name!("dl")
        | local_name!("dd")
        | local_name!("dt")
        | local_name!("li") => -3.0,
        local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6")
        | local_name!("th") => -5.0,
        _ => 0.0,
    }
}

/// The element with the most good characters less `alpha` times its link-heavy ones, or
/// Readability's choice when that holds `keep_dense_share` of its good characters.
pub(super) fn select_by_mass(
    page: &Page,
    tree: &Subtrees,
    segments: &[Segment],
    params: &Params,
    alpha: f64,
) -> Vec<NodeId> {
    let mass = |id: NodeId| tree.sums(id).mass(alpha);
    // The elements that hold some text (an empty one would win over a page of link lists).
    let elements = (0..page.nodes.len() as NodeId).filter(|&id| {
        page.element(id).is_some()
            && tree.enter[id as usize] != u32::MAX
            && tree.sums(id).chars > 0.0
    });
    let Some(best) = elements.max_by(|&a, &b| mass(a).total_cmp(&mass(b)).then(a.cmp(&b))) else {
        return Vec::new();
    };
    let good = tree.sums(best).good;
    if let Some(share) = params.keep_dense_share {
        let dense = select_by_score(page, tree, segments, params);
        let dense_good: f64 = dense.iter().map(|&id| tree.sums(id).good).sum();
        if good > 0.0
            && dense_good >= share * good
            && !params
                .widen_link_heavy_share
                .is_some_and(|heavy| adds_clean_text(tree, segments, &dense, best, heavy))
        {
            return dense;
        }
    }
    vec![best]
}

/// Whether `wider`, around all of `selected`, adds good text with at most `heavy_share`
/// link-heavy characters per good one, of which at most a tenth repeats text of `selected`.
/// Sections of one page (a builder's blocks, a manual's chapters) are beside each other with
/// no menu between them; a sidebar or a list of other posts comes with its links, and a page
/// that holds its text twice (a print copy) repeats it.
pub(super) fn adds_clean_text(
    tree: &Subtrees,
    segments: &[Segment],
    selected: &[NodeId],
    wider: NodeId,
    heavy_share: f64,
) -> bool {
    if !selected.iter().all(|&id| tree.is_within(id, wider)) {
        return false;
    }
    let sum = |f: fn(&Sums) -> f64| -> f64 { selected.iter().map(|&id| f(&tree.sums(id))).sum() };
    let added_good = tree.sums(wider).good - sum(|s| s.good);
    let added_heavy = tree.sums(wider).link_heavy - sum(|s| s.link_heavy);
    if added_good <= 0.0 || added_heavy > heavy_share * added_good {
        return false;
    }
    let in_selected = |s: &Segment| selected.iter().any(|&id| tree.is_within(s.container, id));
    let texts: std::collections::HashSet<&str> = segments
        .iter()
        .filter(|s| in_selected(s))
        .map(|s| s.text.as_str())
        .collect();
    let repeated: usize = segments
        .iter()
        .filter(|s| !in_selected(s) && tree.is_within(s.container, wider))
        .filter(|s| texts.contains(s.text.as_str()))
        .map(|s| s.chars)
        .sum();
    repeated as f64 <= 0.1 * added_good
}

/// The containers whose segments make the text.
pub(super) fn select(
    page: &Page,
    tree: &Subtrees,
    segments: &[Segment],
    params: &Params,
) -> Vec<NodeId> {
    match params.mass_alpha {
        Some(alpha) => select_by_mass(page, tree, segments, params, alpha),
        None => select_by_score(page, tree, segments, params),
    }
}

/// Readability's choice: the best-scoring candidate, widened, and its good siblings.
pub(super) fn select_by_score(
    page: &Page,
    tree: &Subtrees,
    segments: &[Segment],
    params: &Params,
) -> Vec<NodeId> {
    let mut scores: HashMap<NodeId, f64> = HashMap::new();
    for segment in segments
        .iter()
        .filter(|s| s.chars >= params.min_scoring_chars && !s.in_card)
    {
        let commas = segment.text.matches([',', '，', '、']).count() as f64;
        let score = 1.0 + commas + (segment.chars as f64 / 100.0).min(3.0);
        let Some(p) = parent(page, segment.container) else {
            continue;
        };
        *scores
            .entry(p)
            .or_insert_with(|| initial_score(page, p, params)) += score;
        if let Some(g) = parent(page, p) {
            *scores
                .entry(g)
                .or_insert_with(|| initial_score(page, g, params)) += score / 2.0;
        }
    }
    let adjusted: HashMap<NodeId, f64> = scores
        .into_iter()
        .map(|(id, s)| (id, s * (1.0 - tree.sums(id).link_density())))
        .collect();
    let Some((&first, _)) = adjusted
        .iter()
        .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(a.0)))
    else {
        return page.html().into_iter().collect();
    };
    let score_of = |id: NodeId| adjusted.get(&id).copied();
    let best = widen(page, tree, first, &adjusted, &score_of);
    let best_score = score_of(best).unwrap_or(0.0);
    let threshold = (best_score * params.sibling_share).max(params.sibling_min_score);
    let mut selected = vec![best];
    if let Some(p) = parent(page, best) {
        for sibling in page.children(p).filter(|&s| s != best) {
            if score_of(sibling).is_some_and(|s| s >= threshold) {
                selected.push(sibling);
            }
        }
    }
    selected
}

/// Readability.js's refinements of the best candidate: a common ancestor of three of the
/// candidates scoring within 75% of it; then parents while their score grows (stopping where it
/// falls under a third); then parents of which it is the only element child.
pub(super) fn widen(
    page: &Page,
    tree: &Subtrees,
    first: NodeId,
    adjusted: &HashMap<NodeId, f64>,
    score_of: &impl Fn(NodeId) -> Option<f64>,
) -> NodeId {
    let first_score = score_of(first).unwrap_or(0.0);
    let mut alternatives: Vec<(NodeId, f64)> = adjusted
        .iter()
        .filter(|(id, s)| **id != first && **s >= 0.75 * first_score)
        .map(|(id, s)| (*id, *s))
        .collect();
    alternatives.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    alternatives.truncate(5);
    let body = body_of(page);
    let mut best = first;
    if alternatives.len() >= 3 {
        let mut ancestor = parent(page, first);
        while let Some(a) = ancestor.filter(|&a| Some(a) != body) {
            let within = alternatives
                .iter()
                .filter(|(id, _)| tree.is_within(*id, a))
                .count();
            if within >= 3 {
                best = a;
                break;
            }
            ancestor = parent(page, a);
        }
    }
    let mut last = score_of(best).unwrap_or(0.0);
    let floor = last / 3.0;
    let mut ancestor = parent(page, best);
    while let Some(a) = ancestor.filter(|&a| Some(a) != body) {
        if let Some(score) = score_of(a) {
            if score < floor {
                break;
            }
            if score > last {
                best = a;
                break;
            }
            last = score;
        }
        ancestor = parent(page, a);
    }
    while let Some(p) = parent(page, best).filter(|&p| Some(p) != body) {
        let elements = page
            .children(p)
            .filter(|&c| page.element(c).is_some())
            .count();
        if elements != 1 {
            break;
        }
        best = p;
    }
    best
}

pub(super) fn body_of(page: &Page) -> Option<NodeId> {
    let html = page.html()?;
    page.child_element(html, &local_name!("body"))
}
