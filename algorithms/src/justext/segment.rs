//! jusText's preprocessing (lxml_html_clean's `Cleaner` with jusText's options) and paragraph
//! segmentation (`ParagraphMaker` over `lxml.sax.saxify`), done in one walk of the tree.
//!
//! The cleaner's effect on the event stream is: killed nodes disappear with their content, dropped
//! elements lose their start and end events but keep their content, and in both cases the text on
//! either side becomes one string. The walk reproduces this by collecting text in a pending buffer
//! that only a start or end event of a kept element flushes.

use html5ever::LocalName;

use super::root::Root;
use crate::html::dom::{NONE, NodeId, NodeKind, Page};
use crate::html::text::{is_blank, push_normalized, py_strip};

/// A paragraph as segmentation makes it, before classification.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Normalised, stripped text.
    pub text: String,
    /// Length of `text` in code points.
    pub length: usize,
    pub words_count: usize,
    /// Code points of (normalised, unstripped) text inside `<a>`; may exceed `length`.
    pub chars_count_in_links: usize,
    pub tags_count: i32,
    pub dom_path: String,
    pub xpath: String,
}

/// Why a page yields no paragraphs at all, where jusText raises.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SegmentError {
    /// lxml refuses to merge text holding ASCII control characters when the cleaner removes a
    /// node between two strings ("All strings must be XML compatible").
    #[error("text with control characters merged across a removed element")]
    ControlCharactersMerged,
}

/// What the cleaner does with an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Keep,
    /// Removed with its content (`drop_tree`; the tail stays).
    Kill,
    /// Start and end tags removed, content kept (`drop_tag`).
    Drop,
}

fn cleaner_action(name: &LocalName, is_stylesheet_link: bool) -> Action {
    match &**name {
        "head" | "script" | "style" | "applet" | "button" | "input" | "select" | "textarea"
        | "base" => Action::Kill,
        "link" if is_stylesheet_link => Action::Kill,
        // `param` is void: killing it (outside applet/object) and dropping it both only remove it.
        "form" | "iframe" | "embed" | "layer" | "object" | "param" => Action::Drop,
        _ => Action::Keep,
    }
}

/// jusText's `PARAGRAPH_TAGS`.
fn is_paragraph_tag(name: &str) -> bool {
    matches!(
        name,
        "body"
            | "blockquote"
            | "caption"
            | "center"
            | "col"
            | "colgroup"
            | "dd"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "form"
            | "legend"
            | "optgroup"
            | "option"
            | "p"
            | "pre"
            | "table"
            | "td"
            | "textarea"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
            | "li"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
    )
}

/// Characters lxml will not store in a string it assigns (`_utf8`'s check): ASCII controls other
/// than tab, line feed and carriage return.
fn has_xml_invalid_control(s: &str) -> bool {
    s.bytes()
        .any(|b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r'))
}

/// `PathInfo`: the open elements with their sibling order, for `dom_path` and `xpath`.
/// Names are borrowed from the page, so copying a path copies no atoms.
#[derive(Default)]
struct PathInfo<'a> {
    /// (name, order among same-named siblings so far)
    elements: Vec<(&'a str, u32)>,
    /// Per open element, how many children of each name it has had; reused across elements.
    counters: Vec<Vec<(&'a str, u32)>>,
}

impl<'a> PathInfo<'a> {
    fn push(&mut self, name: &'a str) {
        let depth = self.elements.len();
        let order = if depth == 0 {
            1 // jusText gives the root level a fresh counter every time
        } else {
            let siblings = &mut self.counters[depth - 1];
            match siblings.iter_mut().find(|(n, _)| *n == name) {
                Some((_, k)) => {
                    *k += 1;
                    *k
                }
                None => {
                    siblings.push((name, 1));
                    1
                }
            }
        };
        if self.counters.len() <= depth {
            self.counters.push(Vec::new());
        }
        self.counters[depth].clear();
        self.elements.push((name, order));
    }

    fn pop(&mut self) {
        self.elements.pop();
    }
}

/// The open elements when a paragraph started, kept as they are and written out as `dom_path`
/// and `xpath` only when the paragraph has text: most paragraph boundaries do not.
fn dom_path_of(elements: &[(&str, u32)]) -> String {
    let mut out = String::with_capacity(elements.len() * 6);
    for (i, (name, _)) in elements.iter().enumerate() {
        if i > 0 {
            out.push('.');
        }
        out.push_str(name);
    }
    out
}

fn xpath_of(elements: &[(&str, u32)]) -> String {
    let mut out = String::with_capacity(elements.len() * 9 + 1);
    out.push('/');
    let mut digits = [0u8; 10];
    for (i, (name, order)) in elements.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.push_str(name);
        out.push('[');
        // Decimal digits of `order`, written back to front.
        let (mut n, mut at) = (*order, digits.len());
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in &digits[at..] {
            out.push(char::from(d));
        }
        out.push(']');
    }
    out
}

/// `ParagraphMaker`: turns start/end/characters events into paragraphs. Also driven by
/// trafilatura's jusText fallback, over its own tree.
#[derive(Default)]
pub(crate) struct ParagraphMaker<'a> {
    path: PathInfo<'a>,
    segments: Vec<Segment>,
    // The paragraph being built.
    text_nodes: String,
    has_text_nodes: bool,
    chars_count_in_links: usize,
    tags_count: i32,
    /// The open elements where the current paragraph started.
    paragraph_start: Vec<(&'a str, u32)>,
    link: bool,
    br: bool,
}

impl<'a> ParagraphMaker<'a> {
    /// A maker that has begun its first paragraph, as jusText's does.
    pub(crate) fn begin() -> Self {
        let mut maker = ParagraphMaker::default();
        maker.new_paragraph();
        maker
    }

    /// Ends the last paragraph and returns them all.
    pub(crate) fn finish(mut self) -> Vec<Segment> {
        self.new_paragraph();
        self.segments
    }

    fn new_paragraph(&mut self) {
        if self.has_text_nodes {
            // Already normalised as a whole (see `append_text`).
            let text = py_strip(&self.text_nodes).to_owned();
            if !text.is_empty() {
                self.segments.push(Segment {
                    length: text.chars().count(),
                    words_count: text.split([' ', '\n']).filter(|w| !w.is_empty()).count(),
                    text,
                    chars_count_in_links: self.chars_count_in_links,
                    tags_count: self.tags_count,
                    dom_path: dom_path_of(&self.paragraph_start),
                    xpath: xpath_of(&self.paragraph_start),
                });
            }
        }
        self.text_nodes.clear();
        self.has_text_nodes = false;
        self.chars_count_in_links = 0;
        self.tags_count = 0;
        self.paragraph_start.clone_from(&self.path.elements);
    }

    /// Appends `text` normalised (jusText normalises each text node), joining the whitespace
    /// runs either side of the boundary as normalising the joined paragraph again would; returns
    /// the length of `text` normalised on its own (what jusText counts for links).
    fn append_text(&mut self, text: &str) -> usize {
        self.has_text_nodes = true;
        let before = self.text_nodes.len();
        let added = push_normalized(&mut self.text_nodes, text);
        let bytes = self.text_nodes.as_bytes();
        if let (Some(&prev @ (b' ' | b'\n')), Some(&next @ (b' ' | b'\n'))) = (
            before.checked_sub(1).and_then(|i| bytes.get(i)),
            bytes.get(before),
        ) {
            let joined = if prev == b'\n' || next == b'\n' {
                "\n"
            } else {
                " "
            };
            self.text_nodes
                .replace_range(before - 1..before + 1, joined);
        }
        added
    }

    pub(crate) fn start(&mut self, name: &'a str) {
        self.path.push(name);
        if is_paragraph_tag(name) || (self.br && name == "br") {
            if name == "br" {
                // the <br><br> separator does not count as a tag of the paragraph
                self.tags_count -= 1;
            }
            self.new_paragraph();
        } else {
            self.br = name == "br";
            if self.br {
                self.append_text(" ");
            } else if name == "a" {
                self.link = true;
            }
            self.tags_count += 1;
        }
    }

    pub(crate) fn end(&mut self, name: &str) {
        self.path.pop();
        if is_paragraph_tag(name) {
            self.new_paragraph();
        }
        if name == "a" {
            self.link = false;
        }
    }

    pub(crate) fn characters(&mut self, content: &str) {
        if is_blank(content) {
            return;
        }
        let added = self.append_text(content);
        if self.link {
            self.chars_count_in_links += added;
        }
        self.br = false;
    }
}

/// Text collected between two events of kept elements: usually one text node, borrowed from the
/// page; copied only when several merge.
#[derive(Default)]
struct PendingText<'a> {
    single: Option<&'a str>,
    merged_text: String,
    /// A removed node has been passed since the last flush.
    removed_since_flush: bool,
    /// Text was appended after a removed node, so lxml assigned a merged string.
    merged: bool,
}

impl<'a> PendingText<'a> {
    fn is_empty(&self) -> bool {
        self.single.is_none_or(str::is_empty) && self.merged_text.is_empty()
    }

    fn push(&mut self, s: &'a str) {
        if self.removed_since_flush && !self.is_empty() {
            self.merged = true;
        }
        if let Some(first) = self.single.take() {
            self.merged_text.push_str(first);
            self.merged_text.push_str(s);
        } else if self.merged_text.is_empty() {
            self.single = Some(s);
        } else {
            self.merged_text.push_str(s);
        }
    }

    fn flush(&mut self, maker: &mut ParagraphMaker<'a>) -> Result<(), SegmentError> {
        let text = self.single.take().unwrap_or(&self.merged_text);
        if self.merged && has_xml_invalid_control(text) {
            return Err(SegmentError::ControlCharactersMerged);
        }
        if !text.is_empty() {
            maker.characters(text);
        }
        self.merged_text.clear();
        self.removed_since_flush = false;
        self.merged = false;
        Ok(())
    }
}

/// One open element during the walk: its next child to visit, and how it ends.
struct Frame<'a> {
    next: NodeId,
    close: Close<'a>,
}

enum Close<'a> {
    /// A kept element: an end event.
    Element(&'a str),
    /// An element the cleaner dropped: no event, but the text around it merges.
    Dropped,
    /// An element libxml2 would not have built: nothing at all.
    Transparent,
}

fn first_child(page: &Page, id: NodeId) -> NodeId {
    page.children(id).next().unwrap_or(NONE)
}

/// Cleans and segments the tree under `root` into jusText's paragraphs, in document order.
pub fn segment(page: &Page, root: &Root) -> Result<Vec<Segment>, SegmentError> {
    let root_action = match page.element(root.node) {
        Some(e) => cleaner_action(&e.name, e.is_stylesheet_link),
        None => Action::Keep,
    };
    if root_action == Action::Kill {
        // lxml clears a root it should kill: nothing is left to segment
        return Ok(Vec::new());
    }
    let root_name = if root_action == Action::Drop {
        LocalName::from("div")
    } else {
        root.name.clone()
    };
    let mut maker = ParagraphMaker::begin();

    let mut pending = PendingText::default();
    maker.start(&root_name);
    let mut stack = vec![Frame {
        next: first_child(page, root.node),
        close: Close::Element(&root_name),
    }];
    while let Some(frame) = stack.last_mut() {
        let id = frame.next;
        if id == NONE {
            match stack.pop().map(|f| f.close) {
                Some(Close::Element(name)) => {
                    pending.flush(&mut maker)?;
                    maker.end(name);
                }
                Some(Close::Dropped) => pending.removed_since_flush = true,
                Some(Close::Transparent) | None => {}
            }
            continue;
        }
        frame.next = page.node(id).next_sibling;
        match &page.node(id).kind {
            NodeKind::Text(t) => pending.push(t),
            // libxml2 builds no implied <tbody>: its rows are children of the table.
            NodeKind::Element(e) if e.implied => {
                stack.push(Frame {
                    next: first_child(page, id),
                    close: Close::Transparent,
                });
            }
            NodeKind::Element(e) => match cleaner_action(&e.name, e.is_stylesheet_link) {
                Action::Kill => pending.removed_since_flush = true,
                Action::Drop => {
                    pending.removed_since_flush = true;
                    stack.push(Frame {
                        next: first_child(page, id),
                        close: Close::Dropped,
                    });
                }
                Action::Keep => {
                    pending.flush(&mut maker)?;
                    maker.start(&e.name);
                    stack.push(Frame {
                        next: first_child(page, id),
                        close: Close::Element(&e.name),
                    });
                }
            },
            NodeKind::Comment | NodeKind::Other | NodeKind::Document => {
                pending.removed_since_flush = true
            }
        }
    }
    pending.flush(&mut maker)?;
    Ok(maker.finish())
}
