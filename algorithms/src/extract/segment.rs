//! The page cut into text segments at block elements: each segment's text, its characters in
//! links and its container, what is left out (scripts, what an inline style hides, elements
//! named as boilerplate) and, for Markdown, its structure.

use html5ever::{LocalName, local_name};

use super::class_names;
use super::markdown;
use super::options::{Format, Params};
use crate::html::dom::{Element, NONE, Node, NodeId, NodeKind, Page};

/// A run of text between block boundaries.
#[derive(Debug, Clone)]
pub(super) struct Segment {
    /// The nearest block element around the text.
    pub(super) container: NodeId,
    pub(super) text: String,
    pub(super) chars: usize,
    pub(super) link_chars: usize,
    /// Of `link_chars`, those in links long enough to be titles in a listing.
    pub(super) title_link_chars: usize,
    /// A paragraph inside a link (a card whose whole box links to its item): kept as prose
    /// where it is, but no evidence of where the text is (teasers of other pages look alike).
    pub(super) in_card: bool,
    /// With `format=markdown`: where the segment is in the page's structure, and its text as
    /// inline Markdown.
    pub(super) block: markdown::Block,
    pub(super) markdown: String,
}

impl Segment {
    /// Characters in links; in a listing, those of titles are text.
    pub(super) fn link_chars(&self, listing: bool) -> usize {
        if listing {
            self.link_chars.saturating_sub(self.title_link_chars)
        } else {
            self.link_chars
        }
    }

    pub(super) fn link_density(&self, listing: bool) -> f64 {
        self.link_chars(listing) as f64 / self.chars.max(1) as f64
    }
}

/// Elements whose content is not the page's text (code, metadata, form values, embedded
/// objects and their fallbacks).
pub(super) fn is_not_text(name: &LocalName) -> bool {
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
pub(super) fn is_boilerplate_element(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("nav") | local_name!("footer") | local_name!("aside") | local_name!("button")
    )
}

pub(super) fn is_heading(name: &LocalName) -> bool {
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

pub(super) fn is_block(name: &LocalName) -> bool {
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
pub(super) struct Gathering {
    pub(super) segments: Vec<Segment>,
    pub(super) text: String,
    pub(super) chars: usize,
    pub(super) link_chars: usize,
    pub(super) title_link_chars: usize,
    /// Paragraphs being walked inside a link.
    pub(super) card_paragraphs: usize,
    /// The characters of the open link, and of them those in the segment being gathered.
    pub(super) link_run: usize,
    pub(super) link_run_here: usize,
    /// Links this long are titles.
    pub(super) title_chars: usize,
    pub(super) pending_space: bool,
    /// With `format=markdown`: the structure around the walk and the segment's Markdown.
    pub(super) markdown: Option<(markdown::Context, markdown::Inline)>,
}

impl Gathering {
    pub(super) fn push_text(&mut self, text: &str, in_link: bool) {
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

    pub(super) fn flush(&mut self, container: NodeId) {
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
    pub(super) fn enter(&mut self, page: &Page, id: NodeId, element: &Element) {
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
    pub(super) fn close_link(&mut self, in_heading: bool) {
        if in_heading || self.link_run >= self.title_chars {
            self.title_link_chars += self.link_run_here;
        }
        self.link_run = 0;
        self.link_run_here = 0;
    }

    /// The walk leaves an element (after ending the segment in it, if it is a block).
    pub(super) fn leave(&mut self, element: &Element) {
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
pub(super) struct PageText {
    pub(super) segments: Vec<Segment>,
    pub(super) left_out_chars: usize,
}

/// The page's text, walked with an explicit stack (trees may be deep).
pub(super) fn segments(page: &Page, params: &Params, count_left_out: bool) -> PageText {
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
pub(super) fn push_children(page: &Page, node: &Node, stack: &mut Vec<(NodeId, bool)>) {
    let mut child = node.last_child;
    while child != NONE {
        stack.push((child, false));
        child = page.node(child).prev_sibling;
    }
}

/// The characters of an element's visible text, counted as segments count theirs (a run of
/// whitespace inside a block as one space, none at a block's edges).
pub(super) fn visible_chars(page: &Page, element: NodeId) -> usize {
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
pub(super) fn ancestors_of_title(page: &Page) -> Vec<bool> {
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
pub(super) fn is_frame(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("html") | local_name!("body") | local_name!("article") | local_name!("main")
    )
}

/// An element other than the page's frame whose class or id names boilerplate and not text.
pub(super) fn names_boilerplate(page: &Page, element: &Element, params: &Params) -> bool {
    if is_frame(&element.name) {
        return false;
    }
    page.class_and_id(element)
        .is_some_and(|names| class_names::is_dropped(names, params.dropped_names.as_ref()))
}
