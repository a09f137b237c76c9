//! A main-content extractor of our own, the SQL function
//! `extract_content`.
//!
//! It scores containers as Arc90's Readability does, over the html5ever tree the crate
//! already builds: the page is cut into text segments at block elements (what an inline style
//! does not display is skipped; a paragraph inside a link is prose); each segment of 25
//! characters or more gives its container's parent a score (1, plus its commas, plus a point per
//! 100 characters up to 3) and half of it to the grandparent; a candidate's score is discounted
//! by its link density; the best candidate and its siblings that score at least a fifth of it
//! hold the text, of which the segments that are mostly links are dropped.
//! That choice is kept when it holds at least 40% of the good text of the element with the
//! most text mass (good characters less twice the link-heavy ones); otherwise that element is
//! the text. Class and id names weigh in ([`class_names`]): elements named comments, footers,
//! promotions, related links and the like are left out unless they hold the page's `<h1>` or
//! `<main>`, and a candidate named as text (or as boilerplate) gains (or loses) 25 points.
//! A page whose text comes out short is read again as a listing ([`as_listing`]): its linked
//! titles count as text.
//! With `format=markdown` the same segments are written with their structure ([`markdown`]).
//! `examples/extract_quality.rs` and `tools/extract_quality.sh` measure it on the shared sets.

mod class_names;
mod markdown;

pub use class_names::DroppedNames;

use std::collections::HashMap;

use html5ever::{LocalName, local_name};

use crate::html::dom::{NONE, Node, NodeId, NodeKind, Page};

/// The weight of link-heavy characters against good ones in the text-mass choice.
const DEFAULT_MASS_ALPHA: f64 = 2.0;

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
    /// With `keep_dense_share`: Readability's choice still gives way to the text-mass choice
    /// around it when the text that adds holds at most this many link-heavy characters per good
    /// one and does not repeat Readability's; `None`: never.
    pub widen_link_heavy_share: Option<f64>,
    /// Added to a candidate's score when its class or id names text, taken away when they name
    /// boilerplate (see [`class_names`]).
    pub class_weight: f64,
    /// Leave out elements whose class or id names boilerplate and not text.
    pub drop_boilerplate_names: bool,
    /// The names that leave an element out, instead of the measured list (`None`).
    pub dropped_names: Option<DroppedNames>,
    /// Plain text or Markdown.
    pub format: Format,
    /// When the text is shorter than this many characters, the page is read again as a listing
    /// (see [`as_listing`]). `None`: never.
    pub listing_below_chars: Option<usize>,
    /// The segments with a title a listing needs.
    pub listing_min_titles: usize,
    /// The characters a link needs to be a title in a listing.
    pub title_link_chars: usize,
}

/// How the text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Segments joined by `'\n'`.
    #[default]
    Text,
    /// Headings, lists, tables, code, quotations, links, bold and italics as Markdown (GitHub's
    /// tables).
    Markdown,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            min_scoring_chars: 25,
            max_link_density: 0.5,
            sibling_share: 0.2,
            sibling_min_score: 10.0,
            mass_alpha: Some(DEFAULT_MASS_ALPHA),
            keep_dense_share: Some(0.4),
            widen_link_heavy_share: Some(0.05),
            class_weight: 25.0,
            drop_boilerplate_names: true,
            dropped_names: None,
            format: Format::Text,
            listing_below_chars: Some(250),
            listing_min_titles: 3,
            title_link_chars: 20,
        }
    }
}

/// The keys of [`Params::set`], for options strings and their error messages.
pub const OPTION_KEYS: &[&str] = &[
    "mass_alpha",
    "keep_dense_share",
    "widen_link_heavy_share",
    "max_link_density",
    "min_scoring_chars",
    "sibling_share",
    "sibling_min_score",
    "class_weight",
    "drop_boilerplate_names",
    "dropped_names",
    "format",
    "listing_below_chars",
    "listing_min_titles",
    "title_link_chars",
];

impl Params {
    /// Sets the parameter `key` from its text: `None` for a key that is not one of
    /// [`OPTION_KEYS`], else whether `value` was usable (the expected kind of value if not).
    /// `mass_alpha=none`, `keep_dense_share=none` and `widen_link_heavy_share=none` turn those
    /// steps off.
    pub fn set(&mut self, key: &str, value: &str) -> Option<Result<(), &'static str>> {
        let number = || {
            value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0)
        };
        let whole = || value.trim().parse::<usize>().ok();
        let optional = || {
            if value.trim().eq_ignore_ascii_case("none") {
                Some(None)
            } else {
                number().map(Some)
            }
        };
        let result = match key {
            "mass_alpha" => optional().map(|v| self.mass_alpha = v),
            "keep_dense_share" => optional().map(|v| self.keep_dense_share = v),
            "widen_link_heavy_share" => optional().map(|v| self.widen_link_heavy_share = v),
            "max_link_density" => number().map(|v| self.max_link_density = v),
            "min_scoring_chars" => whole().map(|v| self.min_scoring_chars = v),
            "listing_below_chars" => if value.trim().eq_ignore_ascii_case("none") {
                Some(None)
            } else {
                whole().map(Some)
            }
            .map(|v| self.listing_below_chars = v),
            "listing_min_titles" => whole().map(|v| self.listing_min_titles = v),
            "title_link_chars" => whole().map(|v| self.title_link_chars = v),
            "sibling_share" => number().map(|v| self.sibling_share = v),
            "sibling_min_score" => number().map(|v| self.sibling_min_score = v),
            "class_weight" => number().map(|v| self.class_weight = v),
            "drop_boilerplate_names" => {
                crate::options::parse_bool(value).map(|v| self.drop_boilerplate_names = v)
            }
            "dropped_names" => if value.trim().eq_ignore_ascii_case("default") {
                Some(None)
            } else {
                DroppedNames::parse(value).map(Some)
            }
            .map(|v| self.dropped_names = v),
            "format" => match value.trim().to_ascii_lowercase().as_str() {
                "text" => Some(Format::Text),
                "markdown" => Some(Format::Markdown),
                _ => None,
            }
            .map(|v| self.format = v),
            _ => return None,
        };
        Some(result.ok_or(match key {
            "mass_alpha" | "keep_dense_share" | "widen_link_heavy_share" => {
                "a finite number >= 0 or none"
            }
            "min_scoring_chars" | "listing_min_titles" | "title_link_chars" => {
                "a whole number >= 0"
            }
            "listing_below_chars" => "a whole number >= 0 or none",
            "drop_boilerplate_names" => "true or false",
            "dropped_names" => {
                "default, or names of ASCII letters and digits separated by spaces (=name: whole word)"
            }
            "format" => "text or markdown",
            _ => "a finite number >= 0",
        }))
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
    /// Of `link_chars`, those in links long enough to be titles in a listing.
    title_link_chars: usize,
    /// A paragraph inside a link (a card whose whole box links to its item): kept as prose
    /// where it is, but no evidence of where the text is (teasers of other pages look alike).
    in_card: bool,
    /// With `format=markdown`: where the segment is in the page's structure, and its text as
    /// inline Markdown.
    block: markdown::Block,
    markdown: String,
}

impl Segment {
    /// Characters in links; in a listing, those of titles are text.
    fn link_chars(&self, listing: bool) -> usize {
        if listing {
            self.link_chars.saturating_sub(self.title_link_chars)
        } else {
            self.link_chars
        }
    }

    fn link_density(&self, listing: bool) -> f64 {
        self.link_chars(listing) as f64 / self.chars.max(1) as f64
    }
}

/// What the extractor keeps of a page, with the measures a cleaning job stores beside it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extraction {
    /// The kept segments joined by `'\n'`, or as Markdown.
    pub text: String,
    /// Characters of the kept segments (whitespace runs as one space, line feeds between
    /// segments not counted; the same in either format).
    pub kept_chars: usize,
    /// Characters of the page's visible text counted the same way: every segment, and the text of
    /// what is left out as boilerplate (`nav`, `footer`, `aside`, buttons, elements named so);
    /// not scripts, styles, forms' values, embedded objects or what an inline style hides.
    pub total_chars: usize,
    /// The page's segments (text between block boundaries), and of them those kept.
    pub segments: usize,
    pub kept_segments: usize,
}

impl Extraction {
    /// `kept_chars / total_chars`; `None` for a page without visible text.
    pub fn kept_share(&self) -> Option<f64> {
        (self.total_chars > 0).then(|| self.kept_chars as f64 / self.total_chars as f64)
    }
}

/// The page's main text: its segments joined by `'\n'`, or as Markdown.
pub fn extract_text(page: &Page, params: &Params) -> String {
    extracted(page, params, false).text
}

/// The page's main text and its measures.
pub fn extract(page: &Page, params: &Params) -> Extraction {
    extracted(page, params, true)
}

/// The text and its measures; `total_chars` counts what is left out only when `count_left_out`
/// (walking the menus and footers that are otherwise skipped costs about 2% of the speed).
fn extracted(page: &Page, params: &Params, count_left_out: bool) -> Extraction {
    let PageText {
        segments,
        left_out_chars,
    } = segments(page, params, count_left_out);
    let tree = Subtrees::of(page, &segments, false);
    let selected = select(page, &tree, &segments, params);
    let mut kept = kept_in(&tree, &segments, &selected, params, false);
    if params
        .listing_below_chars
        .is_some_and(|below| kept.iter().map(|s| s.chars).sum::<usize>() < below)
        && let Some(listing) = as_listing(page, &segments, &selected, params)
    {
        kept = listing;
    }
    let text = match params.format {
        Format::Text => kept
            .iter()
            .map(|s| s.text.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        Format::Markdown => {
            let pieces: Vec<markdown::Piece> = kept
                .iter()
                .map(|s| markdown::Piece {
                    block: s.block,
                    markdown: &s.markdown,
                })
                .collect();
            markdown::render(&pieces)
        }
    };
    Extraction {
        text,
        kept_chars: kept.iter().map(|s| s.chars).sum(),
        total_chars: segments.iter().map(|s| s.chars).sum::<usize>() + left_out_chars,
        segments: segments.len(),
        kept_segments: kept.len(),
    }
}

/// The segments of the selected containers that are not mostly links.
fn kept_in<'a>(
    tree: &Subtrees,
    segments: &'a [Segment],
    selected: &[NodeId],
    params: &Params,
    listing: bool,
) -> Vec<&'a Segment> {
    segments
        .iter()
        .filter(|s| s.link_density(listing) <= params.max_link_density)
        .filter(|s| selected.iter().any(|&c| tree.is_within(s.container, c)))
        .collect()
}

/// A page whose text came out short may be a listing (a forum's topics, search results, a
/// shop's category): its items are titles in links, which the choice of the container and the
/// link density drop. Read as one, titles count as text; the container is the selection (the
/// parent of selected siblings) or the ancestor of it with the most text mass, and it is the
/// text if it holds at least `listing_min_titles` segments with a title. When it does not,
/// the list may sit beside the selection (a notice above a forum's topics, whose metadata links
/// weigh the list's mass down): then the selection's parent or grandparent that holds the
/// titles, the one with the most text mass.
fn as_listing<'a>(
    page: &Page,
    segments: &'a [Segment],
    selected: &[NodeId],
    params: &Params,
) -> Option<Vec<&'a Segment>> {
    let tree = Subtrees::of(page, segments, true);
    let start = match selected {
        [] => return None,
        [only] => *only,
        [first, ..] => parent(page, *first).unwrap_or(*first),
    };
    let alpha = params.mass_alpha.unwrap_or(DEFAULT_MASS_ALPHA);
    let mass = |id: NodeId| tree.sums(id).mass(alpha);
    let ancestors = std::iter::successors(parent(page, start), |&a| parent(page, a))
        .take_while(|&a| page.element(a).is_some());
    let listing = |container: NodeId| {
        let kept = kept_in(&tree, segments, &[container], params, true);
        let titles = kept.iter().filter(|s| s.title_link_chars > 0).count();
        (titles >= params.listing_min_titles).then_some(kept)
    };
    // The first of those with the most text mass, going up.
    let most_mass = |a: &NodeId, b: &NodeId| mass(*b).total_cmp(&mass(*a));
    let container = std::iter::once(start)
        .chain(ancestors.clone())
        .min_by(most_mass)
        .unwrap_or(start);
    listing(container).or_else(|| {
        let (_, kept) = ancestors
            .take(2)
            .filter_map(|a| Some((a, listing(a)?)))
            .min_by(|x, y| most_mass(&x.0, &y.0))?;
        Some(kept)
    })
}

/// What is inside each element: its span in document order (so that "is inside" is two
/// comparisons) and the sums of its segments' measures, found in one walk of the tree, as a
/// page of a million segments needs.
struct Subtrees {
    enter: Vec<u32>,
    exit: Vec<u32>,
    sums: Vec<Sums>,
}

/// A subtree's characters: all, in links, in good segments (25 or more characters, link density
/// under 0.3) and in link-heavy ones (link density over 0.5).
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    chars: f64,
    link_chars: f64,
    good: f64,
    link_heavy: f64,
}

impl Sums {
    fn add(&mut self, other: Sums) {
        self.chars += other.chars;
        self.link_chars += other.link_chars;
        self.good += other.good;
        self.link_heavy += other.link_heavy;
    }

    fn link_density(&self) -> f64 {
        self.link_chars / self.chars.max(1.0)
    }

    /// Good characters less `alpha` times link-heavy ones.
    fn mass(&self, alpha: f64) -> f64 {
        self.good - alpha * self.link_heavy
    }
}

impl Subtrees {
    fn of(page: &Page, segments: &[Segment], listing: bool) -> Subtrees {
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
        let mut stack = vec![(crate::html::dom::DOCUMENT, false)];
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

    fn is_within(&self, id: NodeId, ancestor: NodeId) -> bool {
        let (i, a) = (id as usize, ancestor as usize);
        self.enter[a] != u32::MAX && self.enter[a] <= self.enter[i] && self.exit[i] <= self.exit[a]
    }

    fn sums(&self, id: NodeId) -> Sums {
        self.sums[id as usize]
    }
}

/// Elements whose content is not the page's text (code, metadata, form values, embedded
/// objects and their fallbacks).
fn is_not_text(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("noscript")
            | local_name!("template")
            | local_name!("head")
            | local_name!("select")
            | local_name!("iframe")
            | local_name!("svg")
            | local_name!("textarea")
            | local_name!("object")
            | local_name!("embed")
    )
}

/// Elements whose text is the page's frame, never its content.
fn is_boilerplate_element(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("nav") | local_name!("footer") | local_name!("aside") | local_name!("button")
    )
}

fn is_heading(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
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
    title_link_chars: usize,
    /// Paragraphs being walked inside a link.
    card_paragraphs: usize,
    /// The characters of the open link, and of them those in the segment being gathered.
    link_run: usize,
    link_run_here: usize,
    /// Links this long are titles.
    title_chars: usize,
    pending_space: bool,
    /// With `format=markdown`: the structure around the walk and the segment's Markdown.
    markdown: Option<(markdown::Context, markdown::Inline)>,
}

impl Gathering {
    fn push_text(&mut self, text: &str, in_link: bool) {
        let code = self.markdown.as_ref().is_some_and(|(c, _)| c.in_pre());
        for c in text.chars() {
            if c.is_whitespace() {
                self.pending_space = !self.text.is_empty();
                if code && let Some((_, inline)) = &mut self.markdown {
                    inline.push_char(c, true);
                }
                continue;
            }
            if self.pending_space {
                self.text.push(' ');
                self.chars += 1;
                self.pending_space = false;
                if !code && let Some((_, inline)) = &mut self.markdown {
                    inline.push_space();
                }
            }
            self.text.push(c);
            self.chars += 1;
            if in_link {
                self.link_chars += 1;
                self.link_run += 1;
                self.link_run_here += 1;
            }
            if let Some((_, inline)) = &mut self.markdown {
                inline.push_char(c, code);
            }
        }
    }

    fn flush(&mut self, container: NodeId) {
        let (block, markdown) = match &mut self.markdown {
            Some((context, inline)) if !self.text.is_empty() => {
                (context.block(container), inline.take())
            }
            Some((_, inline)) => {
                inline.take();
                Default::default()
            }
            None => Default::default(),
        };
        if !self.text.is_empty() {
            self.segments.push(Segment {
                container,
                text: std::mem::take(&mut self.text),
                chars: self.chars,
                link_chars: self.link_chars,
                title_link_chars: self.title_link_chars,
                in_card: self.card_paragraphs > 0,
                block,
                markdown,
            });
        }
        self.chars = 0;
        self.link_chars = 0;
        self.title_link_chars = 0;
        self.link_run_here = 0;
        self.pending_space = false;
    }

    /// The walk enters an element (after ending the segment before it, if it is a block).
    fn enter(&mut self, page: &Page, id: NodeId, element: &crate::html::dom::Element) {
        if let Some((context, inline)) = &mut self.markdown {
            context.enter(id, element);
            match element.name {
                local_name!("a") => inline.open_link(page.href(element)),
                local_name!("strong") | local_name!("b") if context.marks_emphasis() => {
                    inline.open_emphasis(true)
                }
                local_name!("em") | local_name!("i") if context.marks_emphasis() => {
                    inline.open_emphasis(false)
                }
                _ => {}
            }
        }
    }

    /// The outermost link ends: if it is a title (long enough, or a heading's), its characters
    /// in this segment are.
    fn close_link(&mut self, in_heading: bool) {
        if in_heading || self.link_run >= self.title_chars {
            self.title_link_chars += self.link_run_here;
        }
        self.link_run = 0;
        self.link_run_here = 0;
    }

    /// The walk leaves an element (after ending the segment in it, if it is a block).
    fn leave(&mut self, element: &crate::html::dom::Element) {
        if let Some((context, inline)) = &mut self.markdown {
            match element.name {
                local_name!("a") => inline.close_link(),
                local_name!("strong") | local_name!("b") | local_name!("em") | local_name!("i")
                    if context.marks_emphasis() =>
                {
                    inline.close_emphasis()
                }
                _ => {}
            }
            context.leave(element);
        }
    }
}

/// The page's text segments in document order, and the characters of what was left out as
/// boilerplate (when counted).
struct PageText {
    segments: Vec<Segment>,
    left_out_chars: usize,
}

/// The page's text, walked with an explicit stack (trees may be deep).
fn segments(page: &Page, params: &Params, count_left_out: bool) -> PageText {
    let Some(root) = page.html() else {
        return PageText {
            segments: Vec::new(),
            left_out_chars: 0,
        };
    };
    let mut left_out_chars = 0;
    let mut gathering = Gathering {
        segments: Vec::new(),
        text: String::new(),
        chars: 0,
        link_chars: 0,
        title_link_chars: 0,
        card_paragraphs: 0,
        link_run: 0,
        link_run_here: 0,
        title_chars: params.title_link_chars,
        pending_space: false,
        markdown: (params.format == Format::Markdown).then(Default::default),
    };
    // Found when the first element with a dropped name is met: most pages have none.
    let mut holds_title: Option<Vec<bool>> = None;
    let mut blocks: Vec<NodeId> = vec![root];
    let mut links = 0usize;
    // The links open around each paragraph being walked: a paragraph inside a link (a card
    // whose whole box links to the item) is prose, not link text.
    let mut links_around_paragraphs: Vec<usize> = Vec::new();
    // Headings being walked: a link in one is a title, however short.
    let mut headings = 0usize;
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
                    if is_heading(name) {
                        headings = headings.saturating_sub(1);
                    }
                    if *name == local_name!("p") {
                        links = links_around_paragraphs.pop().unwrap_or(0);
                        if links > 0 {
                            gathering.card_paragraphs = gathering.card_paragraphs.saturating_sub(1);
                        }
                    }
                    gathering.leave(element);
                    if *name == local_name!("a") {
                        links = links.saturating_sub(1);
                        if links == 0 {
                            gathering.close_link(headings > 0);
                        }
                    }
                    continue;
                }
                if is_not_text(name) || (element.hidden && !is_frame(name)) {
                    continue;
                }
                if is_boilerplate_element(name)
                    || (params.drop_boilerplate_names
                        && names_boilerplate(page, element, params)
                        && !holds_title.get_or_insert_with(|| ancestors_of_title(page))
                            [id as usize])
                {
                    if count_left_out {
                        left_out_chars += visible_chars(page, id);
                    }
                    continue;
                }
                if block {
                    gathering.flush(*blocks.last().unwrap_or(&root));
                    blocks.push(id);
                }
                gathering.enter(page, id, element);
                if *name == local_name!("a") {
                    links += 1;
                }
                if is_heading(name) {
                    headings += 1;
                }
                if *name == local_name!("p") {
                    if links > 0 {
                        gathering.card_paragraphs += 1;
                    }
                    links_around_paragraphs.push(std::mem::take(&mut links));
                }
                stack.push((id, true));
                push_children(page, node, &mut stack);
            }
            _ => {}
        }
    }
    gathering.flush(root);
    PageText {
        segments: gathering.segments,
        left_out_chars,
    }
}

/// Pushes a node's children onto a walk's stack of (node, leaving), last first, so that they
/// come off it in order; no list per element.
fn push_children(page: &Page, node: &Node, stack: &mut Vec<(NodeId, bool)>) {
    let mut child = node.last_child;
    while child != NONE {
        stack.push((child, false));
        child = page.node(child).prev_sibling;
    }
}

/// The characters of an element's visible text, counted as segments count theirs (a run of
/// whitespace inside a block as one space, none at a block's edges).
fn visible_chars(page: &Page, element: NodeId) -> usize {
    let mut chars = 0;
    // Whether the block being walked has text yet, and whether a space waits for the next word.
    let mut block_has_text = false;
    let mut pending_space = false;
    let mut stack: Vec<(NodeId, bool)> = vec![(element, false)];
    while let Some((id, leaving)) = stack.pop() {
        let node = page.node(id);
        match &node.kind {
            NodeKind::Text(text) => {
                for c in text.chars() {
                    if c.is_whitespace() {
                        pending_space = block_has_text;
                    } else {
                        chars += 1 + usize::from(pending_space);
                        pending_space = false;
                        block_has_text = true;
                    }
                }
            }
            NodeKind::Element(e) => {
                if is_not_text(&e.name) || (e.hidden && !is_frame(&e.name)) {
                    continue;
                }
                if is_block(&e.name) {
                    block_has_text = false;
                    pending_space = false;
                }
                if leaving {
                    continue;
                }
                stack.push((id, true));
                push_children(page, node, &mut stack);
            }
            _ => {}
        }
    }
    chars
}

/// For each node, whether it holds an `<h1>` or `<main>`: what is named a banner or
/// comments and holds those is the page's frame (`<div class="has-banner">` around it all, a
/// forum's thread of "comments"), not boilerplate.
fn ancestors_of_title(page: &Page) -> Vec<bool> {
    let mut holds = vec![false; page.nodes.len()];
    for (id, node) in page.nodes.iter().enumerate() {
        let NodeKind::Element(element) = &node.kind else {
            continue;
        };
        if !matches!(element.name, local_name!("h1") | local_name!("main")) {
            continue;
        }
        // Up to the first ancestor already marked: each node is marked once.
        let mut at = id as NodeId;
        while at != NONE && !holds[at as usize] {
            holds[at as usize] = true;
            at = page.node(at).parent;
        }
    }
    holds
}

/// The page's frame: never left out for its names or style (a page may hide its body until
/// its script has run, or name it after a banner it shows).
fn is_frame(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("html") | local_name!("body") | local_name!("article") | local_name!("main")
    )
}

/// An element other than the page's frame whose class or id names boilerplate and not text.
fn names_boilerplate(page: &Page, element: &crate::html::dom::Element, params: &Params) -> bool {
    if is_frame(&element.name) {
        return false;
    }
    page.class_and_id(element)
        .is_some_and(|names| class_names::is_dropped(names, params.dropped_names.as_ref()))
}

fn parent(page: &Page, id: NodeId) -> Option<NodeId> {
    let p = page.node(id).parent;
    (p != NONE).then_some(p)
}

/// A candidate's score before its segments: by its tag and by its class and id names.
fn initial_score(page: &Page, id: NodeId, params: &Params) -> f64 {
    let Some(element) = page.element(id) else {
        return 0.0;
    };
    let names = page
        .class_and_id(element)
        .map_or(0.0, |n| class_names::hint(n).weight());
    tag_bonus(&element.name) + params.class_weight * names
}

fn tag_bonus(name: &LocalName) -> f64 {
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
fn select_by_mass(
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
fn adds_clean_text(
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
fn select(page: &Page, tree: &Subtrees, segments: &[Segment], params: &Params) -> Vec<NodeId> {
    match params.mass_alpha {
        Some(alpha) => select_by_mass(page, tree, segments, params, alpha),
        None => select_by_score(page, tree, segments, params),
    }
}

/// Readability's choice: the best-scoring candidate, widened, and its good siblings.
fn select_by_score(
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
fn widen(
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

fn body_of(page: &Page) -> Option<NodeId> {
    let html = page.html()?;
    page.child_element(html, &local_name!("body"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The measures count what is kept against the page's visible text, boilerplate left out for
    /// its element or its names included, and never scripts or what an inline style hides.
    #[test]
    fn kept_and_total_characters_count_the_visible_text() {
        let html = "<html><head><title>Bridge</title><script>var hidden = 'no';</script></head><body>\
            <nav><a href=/>Home</a>  <a href=/about>About us</a></nav>\
            <article><h1>A  title</h1><p>The council voted on Tuesday to build a new bridge, ending a \
            long debate.</p><p>Work starts in   spring, and it\ntakes three years.</p></article>\
            <div class=comments><p>Nice <b>post</b></p></div>\
            <div style='display: none'>Never shown</div><footer>Copyright 2026</footer></body></html>";
        let page = Page::parse(html);
        let kept = [
            "A title",
            "The council voted on Tuesday to build a new bridge, ending a long debate.",
            "Work starts in spring, and it takes three years.",
        ];
        let e = extract(&page, &Params::default());
        assert_eq!(e.text, kept.join("\n"));
        let kept_chars: usize = kept.iter().map(|s| s.chars().count()).sum();
        assert_eq!(e.kept_chars, kept_chars);
        // "Home About us", "Nice post" and "Copyright 2026" besides the kept text.
        assert_eq!(e.total_chars, kept_chars + 13 + 9 + 14);
        assert_eq!((e.segments, e.kept_segments), (3, 3));
        assert_eq!(
            e.kept_share(),
            Some(kept_chars as f64 / (kept_chars + 36) as f64)
        );
        let markdown = Params {
            format: Format::Markdown,
            ..Params::default()
        };
        let m = extract(&page, &markdown);
        assert_eq!(
            (m.kept_chars, m.total_chars, m.segments, m.kept_segments),
            (e.kept_chars, e.total_chars, e.segments, e.kept_segments)
        );
        let empty = extract(
            &Page::parse("<p style='display:none'>x</p><script>y</script>"),
            &Params::default(),
        );
        assert_eq!((empty.total_chars, empty.kept_share()), (0, None));
    }

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

    /// A forum's list of topics: each item is a linked title, its starter and its counts.
    fn topics(n: usize) -> String {
        let items: String = (1..=n)
            .map(|i| {
                format!(
                    "<div class=topic><h3><a href=/t/{i}>Topic number {i} about printing parts</a></h3>\
                     <div>by <a href=/u/{i}>user{i}</a></div><div>{i} replies</div></div>"
                )
            })
            .collect();
        format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/f>Forums</a></li></ul>\
             <div class=main><h1>Help and repair</h1><p>Topics in this forum.</p>{items}</div></body></html>"
        )
    }

    #[test]
    fn a_listing_keeps_its_titles() {
        let page = Page::parse(&topics(6));
        let text = extract_text(&page, &Params::default());
        for i in 1..=6 {
            assert!(
                text.contains(&format!("Topic number {i} about printing parts\n")),
                "{text}"
            );
            assert!(text.contains(&format!("{i} replies")), "{text}");
        }
        // Short links are not titles; the menu outside the listing's container stays out.
        assert!(!text.contains("user1") && !text.contains("Home"), "{text}");
        let off = Params {
            listing_below_chars: None,
            ..Params::default()
        };
        assert!(!extract_text(&page, &off).contains("Topic number"));
    }

    #[test]
    fn a_heading_link_in_a_listing_is_a_title_however_short() {
        // An exhibitions page: each item a short linked title in a heading and its artist.
        let items: String = (1..=6)
            .map(|i| format!("<div><h4><a href=/x/{i}>Show {i}</a></h4><p>ARTIST {i}</p></div>"))
            .collect();
        let html = format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/v>Visit</a></li></ul>\
             <div class=main><h1>Current exhibitions</h1>{items}</div></body></html>"
        );
        let text = extract_text(&Page::parse(&html), &Params::default());
        for i in 1..=6 {
            assert!(text.contains(&format!("Show {i}\nARTIST {i}")), "{text}");
        }
        assert!(!text.contains("Visit"), "{text}");
    }

    #[test]
    fn a_listing_beside_a_notice_keeps_its_titles() {
        // Each topic's starter and date are short links: the list's text mass is below the
        // notice's, so the ancestor with the most mass is the notice itself.
        let items: String = (1..=6)
            .map(|i| {
                format!(
                    "<div class=item><div><a href=/t/{i}>Topic number {i} about printing parts</a></div>\
                     <div><a href=/u/{i}>member number {i}</a> <a href=/d/{i}>January {i}, 2026</a></div></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><div class=wrap><div class=notice><p>Your browser is out of date, so this \
             site may not look right.</p></div><div class=list>{items}</div></div></body></html>"
        );
        let text = extract_text(&Page::parse(&html), &Params::default());
        for i in 1..=6 {
            assert!(
                text.contains(&format!("Topic number {i} about printing parts")),
                "{text}"
            );
        }
    }

    /// A page of builder's sections: the first, of many commas, is Readability's choice alone.
    fn sections(third: &str) -> String {
        let first = "We translate birth, marriage, court, school, and medical records, with care, \
            for courts, schools, banks, and agencies, in over a hundred languages, every day.";
        format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/s>Services</a></li></ul>\
             <div class=page><section><div class=block><p>{first}</p><p>{first}</p></div></section>\
             <section><div class=block><p>Every translation is checked by a second translator \
             before it is sent to you</p></div></section>\
             <section><div class=block><p>{third}</p></div></section></div>\
             <footer><a href=/p>Privacy</a></footer></body></html>"
        )
    }

    #[test]
    fn sections_beside_the_choice_without_links_are_kept() {
        let third = "Send us a scan or a photo of the document and get a quote within the hour";
        let page = Page::parse(&sections(third));
        let text = extract_text(&page, &Params::default());
        assert!(text.contains("We translate birth"), "{text}");
        assert!(text.contains("checked by a second translator"), "{text}");
        assert!(text.contains("get a quote within the hour"), "{text}");
        assert!(
            !text.contains("Home") && !text.contains("Privacy"),
            "{text}"
        );
        let off = Params {
            widen_link_heavy_share: None,
            ..Params::default()
        };
        let text = extract_text(&page, &off);
        assert!(
            text.contains("We translate birth") && !text.contains("second translator"),
            "{text}"
        );
    }

    #[test]
    fn a_wider_choice_that_repeats_the_text_or_brings_links_adds_nothing_clean() {
        let text = "Every translation is checked by a second translator before it is sent to you.";
        let adds_clean = |beside: &str| {
            let html = format!(
                "<html><body><div class=wider><div class=chosen><p>{text}</p></div>\
                 <div class=beside>{beside}</div></div></body></html>"
            );
            let page = Page::parse(&html);
            let params = Params::default();
            let segments = segments(&page, &params, false).segments;
            let tree = Subtrees::of(&page, &segments, false);
            let named = |class: &str| {
                (0..page.nodes.len() as NodeId)
                    .find(|&id| page.element(id).and_then(|e| page.class_and_id(e)) == Some(class))
                    .expect("an element of that class")
            };
            adds_clean_text(&tree, &segments, &[named("chosen")], named("wider"), 0.05)
        };
        assert!(adds_clean(
            "<p>Send us a scan of the document and get a quote within the hour.</p>"
        ));
        assert!(!adds_clean(&format!("<p>{text}</p>")), "a copy of the text");
        let links: String = (1..=8)
            .map(|i| format!("<a href=/o/{i}>Office {i}</a> "))
            .collect();
        assert!(
            !adds_clean(&format!(
                "<p>Send us a scan of the document and get a quote.</p><p>{links}</p>"
            )),
            "links"
        );
        assert!(!adds_clean(""), "no text");
    }

    /// Cards whose whole box is a link: a title and a paragraph describing the item.
    fn cards(prefix: &str, n: usize) -> String {
        (1..=n)
            .map(|i| {
                format!(
                    "<a class=card href=/{prefix}/{i}><div class=card-header><span>{prefix} {i}</span></div>\
                     <div class=card-content><p>A {prefix} that describes item {i}, with a comma, \
                     in a sentence of some length.</p></div></a>"
                )
            })
            .collect()
    }

    #[test]
    fn a_paragraph_inside_a_link_is_prose_where_the_text_is() {
        let html = format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/d>Docs</a></li></ul>\
             <main><h1>Layout widgets</h1><p>A catalog of the layout widgets, which arrange other \
             widgets in columns, rows and grids.</p><div class=grid>{}</div></main></body></html>",
            cards("widget", 6)
        );
        let text = extract_text(&Page::parse(&html), &Params::default());
        assert!(
            text.contains("A widget that describes item 6, with a comma"),
            "{text}"
        );
        assert!(!text.contains("Docs"), "{text}");
    }

    #[test]
    fn teasers_inside_links_do_not_move_the_choice() {
        // The teasers of other articles are as long as the article's paragraphs; as evidence
        // of where the text is they would widen the choice to the page around both.
        let paragraphs: String = (1..=3)
            .map(|i| {
                format!(
                    "<p>Paragraph {i} of the article, with a comma, and enough words in it to \
                     count as the text of a page.</p>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><div class=page><div class=story><h1>Title</h1>{paragraphs}</div>\
             <div class=more>{}</div></div></body></html>",
            cards("teaser", 8)
        );
        let text = extract_text(&Page::parse(&html), &Params::default());
        assert!(text.contains("Paragraph 3 of the article"), "{text}");
        assert!(!text.contains("teaser"), "{text}");
    }

    #[test]
    fn what_is_not_displayed_is_not_text() {
        let html = "<html><body><div style='DISPLAY : none;'>https://example.com/cache/script-1.js</div>\
            <div hidden id=S:0><p>Streamed by the page's script into place, with a comma.</p></div>\
            <div style='visibility:hidden'><p>A slider before its script runs, with a comma.</p></div>\
            <p>The text of the page, with a comma, long enough to count.</p></body></html>";
        let text = extract_text(&Page::parse(html), &Params::default());
        assert!(!text.contains("script-1.js"), "{text}");
        for shown in ["Streamed by", "A slider", "The text of the page"] {
            assert!(text.contains(shown), "{shown}: {text}");
        }
        // A body (or main) hidden until the page's script runs is still the page.
        let html = "<html><body style='display:none'><main style='display:none'><p>The text of \
            the page, with a comma, long enough to count.</p></main></body></html>";
        let text = extract_text(&Page::parse(html), &Params::default());
        assert_eq!(
            text,
            "The text of the page, with a comma, long enough to count."
        );
    }

    #[test]
    fn a_short_article_is_not_read_as_a_listing() {
        // Fewer titles than listing_min_titles (3) around a short post: no titles.
        let page = Page::parse(&topics(2).replace(
            "<p>Topics in this forum.</p>",
            "<p>A short post, with a comma, about a printer that will not print.</p>",
        ));
        let text = extract_text(&page, &Params::default());
        assert!(
            text.contains("A short post") && !text.contains("Topic number"),
            "{text}"
        );
        // With more titles than that, the same page is a listing.
        let more = Params {
            listing_min_titles: 2,
            ..Params::default()
        };
        assert!(extract_text(&page, &more).contains("Topic number 2 about printing parts"));
    }

    #[test]
    fn empty_odd_and_hostile_pages_give_text_or_nothing() {
        let extract = |html: &str| extract_text(&Page::parse(html), &Params::default());
        assert_eq!(extract(""), "");
        assert_eq!(
            extract("just text, no tags, but a sentence of some length here"),
            "just text, no tags, but a sentence of some length here"
        );
        assert_eq!(extract("<a href=/>only a link</a>"), "");
        // 100,000 nested elements (the parse closes those past max_depth) and 200,000 paragraphs:
        // one walk each, no recursion.
        let deep = format!(
            "{}deep text in the middle of it all{}",
            "<div>".repeat(100_000),
            "</div>".repeat(100_000)
        );
        assert_eq!(extract(&deep), "deep text in the middle of it all");
        let wide: String = (0..200_000)
            .map(|i| format!("<p>Paragraph {i}, with a comma, and enough words to count.</p>"))
            .collect();
        let text = extract(&format!("<body><div>{wide}</div></body>"));
        assert_eq!(text.lines().count(), 200_000);
    }

    #[test]
    fn markdown_keeps_text_that_markdown_would_read_as_syntax_text() {
        let markdown = |body: &str| {
            let params = Params {
                format: Format::Markdown,
                ..Params::default()
            };
            extract_text(
                &Page::parse(&format!("<body><div>{body}</div></body>")),
                &params,
            )
        };
        // "!" before a link would make it an image.
        assert_eq!(
            markdown(
                "<p>Thanks for the long post, it was useful, and I read it twice!<a href=/x>Buy</a></p>"
            ),
            "Thanks for the long post, it was useful, and I read it twice\\![Buy](/x)"
        );
        // A control character in a target would make the link text (found by the fuzz target).
        assert_eq!(
            markdown(
                "<p>Thanks for the long post, it was useful, and I read it twice <a href=\"/\u{1b}'x\">Buy</a></p>"
            ),
            "Thanks for the long post, it was useful, and I read it twice [Buy](/%1B'x)"
        );
        // A backslash would escape the `>` or `)` that ends the target (found by the fuzz target).
        assert_eq!(
            markdown(
                "<p>Thanks for the long post, it was useful, and I read it twice <a href=\"/a b\\\">Buy</a> \
                 <a href=\"/c\\\">it</a></p>"
            ),
            "Thanks for the long post, it was useful, and I read it twice [Buy](</a b%5C>) [it](/c%5C)"
        );
        // A link inside a link (the HTML5 tree nests them when the adoption agency gives up on
        // deep blocks between them; here `d`'s `<a>` inside `u`'s paragraph inside the first
        // link): Markdown's links do not nest, so the outer one holds and closes (the fuzz
        // target found a `[` left open).
        assert_eq!(
            markdown(
                "<a href=n><section> <article> <h1>\u{7f}<div>><div > <p><<div> l<section><p>u<a>d"
            ),
            "# [\\>](n)\n\n# [\\<](n)\n\n# [l](n)\n\n# [ud](n)"
        );
        // The first item of the ordered list is a link and is left out: its second item, numbered
        // 2, cannot go on the bullet list's line (it would be read as that item's text).
        assert_eq!(
            markdown(
                "<ul><li>A first list, with commas, and words enough to be text.</li></ul>\
                 <ol><li><a href=/a>Only a link here</a></li>\
                 <li>A second list, with commas, and words enough to be text.</li></ol>"
            ),
            "- A first list, with commas, and words enough to be text.\n\n\
             2. A second list, with commas, and words enough to be text."
        );
        // An item nested under a left-out item is written under the item above, not indented
        // past it (four columns more would read as its text).
        assert_eq!(
            markdown(
                "<ul><li>An item of the list, with commas, and words enough to be text.</li>\
                 <li><a href=/b>A link</a><ul><li><a href=/c>Another link</a><ul>\
                 <li>A deep item, with commas, and words enough to be text.</li></ul></li></ul></li></ul>"
            ),
            "- An item of the list, with commas, and words enough to be text.\n  \
             - A deep item, with commas, and words enough to be text."
        );
    }

    #[test]
    fn markdown_marks_bold_and_italics_where_commonmark_reads_them() {
        use pulldown_cmark::{Event, Parser, Tag, TagEnd};
        let sentence = "with a comma, and enough words to be the text";
        let markdown = |inline: &str| {
            let params = Params {
                format: Format::Markdown,
                ..Params::default()
            };
            let page = Page::parse(&format!(
                "<body><div><p>{inline} {sentence}.</p></div></body>"
            ));
            let md = extract_text(&page, &params);
            md.strip_suffix(&format!(" {sentence}."))
                .unwrap_or_else(|| panic!("{md}"))
                .to_owned()
        };
        // What pulldown-cmark reads: the text, with {} around strong and () around emphasis.
        let read = |md: &str| {
            let mut out = String::new();
            for event in Parser::new(md) {
                match event {
                    Event::Text(t) => out.push_str(&t),
                    Event::Start(Tag::Strong) | Event::End(TagEnd::Strong) => out.push('|'),
                    Event::Start(Tag::Emphasis) | Event::End(TagEnd::Emphasis) => out.push('/'),
                    _ => {}
                }
            }
            out
        };
        let cases = [
            (
                "A <b>bold</b> and <i>italic</i> word",
                "A **bold** and *italic* word",
                "A |bold| and /italic/ word",
            ),
            (
                "<strong>Strong</strong> and <em>em</em>",
                "**Strong** and *em*",
                "|Strong| and /em/",
            ),
            // Inside a word; spaces inside the element go outside the markers.
            ("un<b>believ</b>able", "un**believ**able", "un|believ|able"),
            (
                "A<b> spaced </b>word",
                "A **spaced** word",
                "A |spaced| word",
            ),
            // A closing marker after punctuation before a letter would be read as text: none.
            (
                "<b>Note:</b>text and <b>Note:</b> text",
                "Note:text and **Note:** text",
                "Note:text and |Note:| text",
            ),
            // Nested, with links, in either order.
            (
                "<b>one <b>two</b> three</b>",
                "**one two three**",
                "|one two three|",
            ),
            (
                "<b><a href=/x>link</a></b> and <a href=/y><i>link</i></a>",
                "**[link](/x)** and [*link*](/y)",
                "|link| and /link/",
            ),
            // Adjacent runs would merge: the second is not marked.
            ("<b>a</b><b>b</b>", "**a**b", "|a|b"),
            // Asterisks of the text stay escaped text.
            ("<i>*star*</i>", "*\\*star\\**", "/*star*/"),
        ];
        for (html, expected, read_back) in cases {
            let md = markdown(html);
            assert_eq!(md, expected, "{html}");
            assert_eq!(read(&md), read_back, "{html}");
        }
        // Headings are not marked.
        let params = Params {
            format: Format::Markdown,
            ..Params::default()
        };
        let page = Page::parse(&format!(
            "<body><div><h2><b>Title</b></h2><p>A paragraph {sentence}.</p></div></body>"
        ));
        assert!(extract_text(&page, &params).starts_with("## Title\n"));
    }

    #[test]
    fn markdown_of_deeply_nested_lists_and_quotations_stays_linear() {
        use crate::html::Limits;
        let depth = 3_000;
        let item = "<li>An item of a list, with a comma, and enough words to count as text.";
        let html = format!(
            "<body><div>{}{}</div></body>",
            format!("<ul>{item}").repeat(depth),
            "<blockquote>A quotation, with a comma, and enough words to count.".repeat(depth)
        );
        let limits = Limits {
            max_depth: 100_000,
            ..Limits::default()
        };
        let page = Page::parse_with(&html, &limits);
        let markdown = extract_text(
            &page,
            &Params {
                format: Format::Markdown,
                ..Params::default()
            },
        );
        let text = extract_text(&page, &Params::default());
        assert_eq!(
            text.lines().count(),
            2 * depth,
            "every item and quotation is kept"
        );
        // Indentation and prefixes stop growing at MAX_NESTING levels.
        let widest = markdown.lines().map(str::len).max().unwrap_or(0);
        assert!(widest < 120, "a line of {widest} bytes");
        assert_eq!(
            markdown
                .split_whitespace()
                .filter(|w| *w != "-" && *w != ">")
                .count(),
            text.split_whitespace().count()
        );
    }
}
