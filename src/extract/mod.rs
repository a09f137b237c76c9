//! Work in progress (issue 20): a main-content extractor of our own, not yet a SQL function.
//!
//! Version 0 scores containers as Arc90's Readability does, over the html5ever tree the crate
//! already builds: the page is cut into text segments at block elements; each segment of 25
//! characters or more gives its container's parent a score (1, plus its commas, plus a point per
//! 100 characters up to 3) and half of it to the grandparent; a candidate's score is discounted
//! by its link density; the best candidate and its siblings that score at least a fifth of it
//! hold the text, of which the segments that are mostly links are dropped.
//! `examples/extract_quality.rs` and `tools/extract_quality.sh` measure it on the shared sets.

use std::collections::HashMap;

use html5ever::{LocalName, local_name};

use crate::html::dom::{NONE, NodeId, NodeKind, Page};

/// The extractor's parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Characters a segment needs to score its containers.
    pub min_scoring_chars: usize,
    /// Segments with more of their characters in links are dropped from the text.
    pub max_link_density: f64,
    /// Siblings of the best candidate scoring at least this share of its score are kept too...
    pub sibling_share: f64,
    /// ... and at least this score.
    pub sibling_min_score: f64,
    /// Choose the container by text mass (see [`select_by_mass`]): the weight of link-heavy
    /// characters against good ones; `None` for Readability's choice alone.
    pub mass_alpha: Option<f64>,
    /// With `mass_alpha`: keep Readability's choice when it holds at least this share of the
    /// text-mass choice's good characters.
    pub keep_dense_share: Option<f64>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            min_scoring_chars: 25,
            max_link_density: 0.5,
            sibling_share: 0.2,
            sibling_min_score: 10.0,
            mass_alpha: Some(2.0),
            keep_dense_share: Some(0.4),
        }
    }
}

/// A run of text between block boundaries.
#[derive(Debug, Clone)]
struct Segment {
    /// The nearest block element around the text.
    container: NodeId,
    text: String,
    chars: usize,
    link_chars: usize,
}

impl Segment {
    fn link_density(&self) -> f64 {
        self.link_chars as f64 / self.chars.max(1) as f64
    }
}

/// The page's main text, segments joined by `'\n'`.
pub fn extract_text(page: &Page, params: &Params) -> String {
    let segments = segments(page);
    let selected = select(page, &segments, params);
    let kept: Vec<&str> = segments
        .iter()
        .filter(|s| s.link_density() <= params.max_link_density)
        .filter(|s| selected.iter().any(|&c| is_within(page, s.container, c)))
        .map(|s| s.text.as_str())
        .collect();
    kept.join("\n")
}

fn is_skipped(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("noscript")
            | local_name!("template")
            | local_name!("head")
            | local_name!("nav")
            | local_name!("footer")
            | local_name!("aside")
            | local_name!("select")
            | local_name!("button")
            | local_name!("iframe")
            | local_name!("svg")
            | local_name!("textarea")
            | local_name!("object")
            | local_name!("embed")
    )
}

fn is_block(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("p")
            | local_name!("div")
            | local_name!("section")
            | local_name!("article")
            | local_name!("main")
            | local_name!("header")
            | local_name!("li")
            | local_name!("ul")
            | local_name!("ol")
            | local_name!("dl")
            | local_name!("dt")
            | local_name!("dd")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
            | local_name!("td")
            | local_name!("th")
            | local_name!("tr")
            | local_name!("table")
            | local_name!("pre")
            | local_name!("blockquote")
            | local_name!("figure")
            | local_name!("figcaption")
            | local_name!("address")
            | local_name!("body")
            | local_name!("center")
            | local_name!("br")
            | local_name!("hr")
    )
}

/// Text being gathered into a segment.
struct Gathering {
    segments: Vec<Segment>,
    text: String,
    chars: usize,
    link_chars: usize,
    pending_space: bool,
}

impl Gathering {
    fn push_text(&mut self, text: &str, in_link: bool) {
        for c in text.chars() {
            if c.is_whitespace() {
                self.pending_space = !self.text.is_empty();
                continue;
            }
            if self.pending_space {
                self.text.push(' ');
                self.chars += 1;
                self.pending_space = false;
            }
            self.text.push(c);
            self.chars += 1;
            if in_link {
                self.link_chars += 1;
            }
        }
    }

    fn flush(&mut self, container: NodeId) {
        if !self.text.is_empty() {
            self.segments.push(Segment {
                container,
                text: std::mem::take(&mut self.text),
                chars: self.chars,
                link_chars: self.link_chars,
            });
        }
        self.chars = 0;
        self.link_chars = 0;
        self.pending_space = false;
    }
}

/// The page's text segments in document order (an explicit stack: trees may be deep).
fn segments(page: &Page) -> Vec<Segment> {
    let Some(root) = page.html() else {
        return Vec::new();
    };
    let mut gathering = Gathering {
        segments: Vec::new(),
        text: String::new(),
        chars: 0,
        link_chars: 0,
        pending_space: false,
    };
    let mut blocks: Vec<NodeId> = vec![root];
    let mut links = 0usize;
    // (node, leaving): children are pushed in reverse so they come out in order.
    let mut stack: Vec<(NodeId, bool)> = vec![(root, false)];
    while let Some((id, leaving)) = stack.pop() {
        let node = page.node(id);
        match &node.kind {
            NodeKind::Text(text) => gathering.push_text(text, links > 0),
            NodeKind::Element(element) => {
                let name = &element.name;
                let block = is_block(name);
                if leaving {
                    if block {
                        gathering.flush(*blocks.last().unwrap_or(&root));
                        blocks.pop();
                    }
                    if *name == local_name!("a") {
                        links = links.saturating_sub(1);
                    }
                    continue;
                }
                if is_skipped(name) {
                    continue;
                }
                if block {
                    gathering.flush(*blocks.last().unwrap_or(&root));
                    blocks.push(id);
                }
                if *name == local_name!("a") {
                    links += 1;
                }
                stack.push((id, true));
                let children: Vec<NodeId> = page.children(id).collect();
                stack.extend(children.into_iter().rev().map(|c| (c, false)));
            }
            _ => {}
        }
    }
    gathering.flush(root);
    gathering.segments
}

fn parent(page: &Page, id: NodeId) -> Option<NodeId> {
    let p = page.node(id).parent;
    (p != NONE).then_some(p)
}

fn is_within(page: &Page, mut id: NodeId, ancestor: NodeId) -> bool {
    loop {
        if id == ancestor {
            return true;
        }
        match parent(page, id) {
            Some(p) => id = p,
            None => return false,
        }
    }
}

fn tag_bonus(page: &Page, id: NodeId) -> f64 {
    let Some(element) = page.element(id) else {
        return 0.0;
    };
    match element.name {
        local_name!("div") | local_name!("article") | local_name!("main") => 5.0,
        local_name!("pre") | local_name!("td") | local_name!("blockquote") => 3.0,
        local_name!("address") | local_name!("ol") | local_name!("ul") | local_name!("dl")
        | local_name!("dd") | local_name!("dt") | local_name!("li") => -3.0,
        local_name!("h1") | local_name!("h2") | local_name!("h3") | local_name!("h4")
        | local_name!("h5") | local_name!("h6") | local_name!("th") => -5.0,
        _ => 0.0,
    }
}

/// Good characters (segments of 25 or more with link density under 0.3) and link-heavy ones
/// (link density over 0.5) inside each element.
fn masses(page: &Page, segments: &[Segment]) -> HashMap<NodeId, (f64, f64)> {
    let mut mass: HashMap<NodeId, (f64, f64)> = HashMap::new();
    for segment in segments {
        let ld = segment.link_density();
        let chars = segment.chars as f64;
        let (good, bad) = if ld > 0.5 {
            (0.0, chars)
        } else if segment.chars >= 25 && ld < 0.3 {
            (chars, 0.0)
        } else {
            (0.0, 0.0)
        };
        let mut id = Some(segment.container);
        while let Some(node) = id {
            let entry = mass.entry(node).or_default();
            entry.0 += good;
            entry.1 += bad;
            id = parent(page, node);
        }
    }
    mass
}

/// The element with the most good characters less `alpha` times its link-heavy ones, or
/// Readability's choice when that holds `keep_dense_share` of its good characters.
fn select_by_mass(
    page: &Page,
    segments: &[Segment],
    params: &Params,
    alpha: f64,
) -> Vec<NodeId> {
    let mass = masses(page, segments);
    let Some((best, (good, _))) = mass
        .iter()
        .max_by(|a, b| {
            let (x, y) = (a.1.0 - alpha * a.1.1, b.1.0 - alpha * b.1.1);
            x.total_cmp(&y).then(a.0.cmp(b.0))
        })
        .map(|(id, m)| (*id, *m))
    else {
        return Vec::new();
    };
    if let Some(share) = params.keep_dense_share {
        let dense = select_by_score(page, segments, params);
        let dense_good: f64 = dense.iter().map(|id| mass.get(id).map_or(0.0, |m| m.0)).sum();
        if good > 0.0 && dense_good >= share * good {
            return dense;
        }
    }
    vec![best]
}

/// The containers whose segments make the text.
fn select(page: &Page, segments: &[Segment], params: &Params) -> Vec<NodeId> {
    match params.mass_alpha {
        Some(alpha) => select_by_mass(page, segments, params, alpha),
        None => select_by_score(page, segments, params),
    }
}

/// Readability's choice: the best-scoring candidate, widened, and its good siblings.
fn select_by_score(page: &Page, segments: &[Segment], params: &Params) -> Vec<NodeId> {
    let mut scores: HashMap<NodeId, f64> = HashMap::new();
    for segment in segments.iter().filter(|s| s.chars >= params.min_scoring_chars) {
        let commas = segment.text.matches([',', '，', '、']).count() as f64;
        let score = 1.0 + commas + (segment.chars as f64 / 100.0).min(3.0);
        let Some(p) = parent(page, segment.container) else {
            continue;
        };
        *scores.entry(p).or_insert_with(|| tag_bonus(page, p)) += score;
        if let Some(g) = parent(page, p) {
            *scores.entry(g).or_insert_with(|| tag_bonus(page, g)) += score / 2.0;
        }
    }
    let density = link_densities(page, segments);
    let adjusted: Vec<(NodeId, f64)> = scores
        .into_iter()
        .map(|(id, s)| (id, s * (1.0 - density.get(&id).copied().unwrap_or(0.0))))
        .collect();
    let Some(&(first, _)) = adjusted
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
    else {
        return page.html().into_iter().collect();
    };
    let score_of = |id: NodeId| adjusted.iter().find(|(c, _)| *c == id).map(|a| a.1);
    let best = widen(page, first, &adjusted, &score_of);
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
fn widen(
    page: &Page,
    first: NodeId,
    adjusted: &[(NodeId, f64)],
    score_of: &impl Fn(NodeId) -> Option<f64>,
) -> NodeId {
    let first_score = score_of(first).unwrap_or(0.0);
    let mut alternatives: Vec<&(NodeId, f64)> = adjusted
        .iter()
        .filter(|(id, s)| *id != first && *s >= 0.75 * first_score)
        .collect();
    alternatives.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    alternatives.truncate(5);
    let body = body_of(page);
    let mut best = first;
    if alternatives.len() >= 3 {
        let mut ancestor = parent(page, first);
        while let Some(a) = ancestor.filter(|&a| Some(a) != body) {
            let within = alternatives.iter().filter(|(id, _)| is_within(page, *id, a)).count();
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
        let elements = page.children(p).filter(|&c| page.element(c).is_some()).count();
        if elements != 1 {
            break;
        }
        best = p;
    }
    best
}

fn body_of(page: &Page) -> Option<NodeId> {
    let html = page.html()?;
    page.child_element(html, &local_name!("body"))
}

/// Each element's share of link characters over the segments inside it.
fn link_densities(page: &Page, segments: &[Segment]) -> HashMap<NodeId, f64> {
    let mut totals: HashMap<NodeId, (usize, usize)> = HashMap::new();
    for segment in segments {
        let mut id = Some(segment.container);
        while let Some(node) = id {
            let entry = totals.entry(node).or_default();
            entry.0 += segment.chars;
            entry.1 += segment.link_chars;
            id = parent(page, node);
        }
    }
    totals
        .into_iter()
        .map(|(id, (chars, links))| (id, links as f64 / chars.max(1) as f64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_is_kept_and_the_navigation_goes() {
        let html = "<html><body><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\
            <div><h1>Title</h1><p>The council voted on Tuesday to build a new bridge, ending a debate, \
            which had lasted for years.</p><p>Work starts in spring, takes three years, and costs a lot \
            of money, the office said.</p></div><div><a href=/c>12 comments</a></div></body></html>";
        let text = extract_text(&Page::parse(html), &Params::default());
        assert_eq!(
            text,
            "Title\nThe council voted on Tuesday to build a new bridge, ending a debate, which had lasted \
             for years.\nWork starts in spring, takes three years, and costs a lot of money, the office said."
        );
    }
}
