//! The tree libxml2 2.14 builds for a page (its legacy HTML 4 tree construction, behind the HTML5
//! tokenizer it shares with ours), which is the tree Python jusText reads through lxml.
//!
//! HTML5 and libxml2 mend broken markup in different ways, and jusText's output depends on the
//! tree: a `<b>` left open before a `<p>` holds the paragraph in HTML5 but is closed by it in
//! libxml2; HTML5 clones formatting elements across blocks, libxml2 never does. So jusText's
//! tree is built by the rules below rather than by html5ever's tree builder. They were
//! established by feeding lxml 6.1.3 (libxml2 2.14.6) every pair of about 130 tag names in each
//! position and are checked against it page by page (`eval/parity/libxml2_tree.py`):
//!
//! - A start tag first closes the current element while the pair (current, new) is in
//!   [`start_closes`]; then `html`, `head` and `body` are implied as needed (see
//!   [`Builder::imply`]); then the element opens. Void elements ([`is_void`]) and any tag written
//!   `<x/>` close at once.
//! - An end tag closes its element and everything opened inside it, unless it is not open, or
//!   an element of higher [`end_priority`] (a `<td>` for a `</span>`) was opened inside it: then it
//!   is ignored. Nothing is ever re-opened.
//! - A misplaced `<html>`, `<head>` or `<body>` is ignored, and so is, for each of them, one later
//!   `</html>`, `</head>` or `</body>`; written `<body/>`, it still closes the current element.
//! - Text that is not blank, met while no element or only `html` or `head` is open, implies the
//!   body (as a start tag would), its leading blanks staying in the `html` or `head`; text goes
//!   to the current element as it comes (no whitespace is dropped).
//! - After `</html>` a new `html` element holds the rest of the page, outside the document's
//!   root, where lxml never looks.
//! - libxml2 stops reading the page when it would open a 257th element: the rest is lost.

use std::cell::RefCell;

use ahash::AHashMap;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    CharacterTokens, CommentToken, EOFToken, StartTag, Tag, TagToken, Token, TokenSink,
    TokenSinkResult,
};
use html5ever::{Attribute, LocalName, local_name};

use super::dom::{
    AttributeRange, DOCUMENT, Element, NONE, Node, NodeId, NodeKind, append_node, is_stylesheet,
    merge_text, node_capacity,
};
use super::limits::is_space as is_blank;

/// libxml2 refuses to open more elements than this (without `XML_PARSE_HUGE`, which lxml's
/// `HTMLParser` does not set) and stops parsing there.
pub const MAX_OPEN_ELEMENTS: usize = 256;

/// Builds a [`super::Page`]'s nodes from the tokens of [`super::tokenizer::tokenize`].
pub(super) struct Libxml2TreeBuilder {
    builder: RefCell<Builder>,
}

impl Libxml2TreeBuilder {
    /// A builder for a page of `len` bytes, building no element deeper than `max_depth`, that
    /// keeps every element's attributes when `keep_attributes` (trafilatura's XPaths read them).
    pub(super) fn new(len: usize, max_depth: u32, keep_attributes: bool) -> Self {
        let mut nodes = Vec::with_capacity(node_capacity(len));
        nodes.push(Node::detached(NodeKind::Document));
        Libxml2TreeBuilder {
            builder: RefCell::new(Builder {
                nodes,
                open: Vec::new(),
                open_by_name: AHashMap::new(),
                open_by_priority: Default::default(),
                head_seen: false,
                body_seen: false,
                ignored_structure_tags: 0,
                halted: false,
                max_depth: usize::try_from(max_depth).unwrap_or(usize::MAX),
                skipped_for_depth: AHashMap::new(),
                pending_text: Vec::new(),
                keep_attributes,
                attributes: Vec::new(),
            }),
        }
    }

    /// The nodes, whether a `<head>` element was built, and the kept attributes.
    pub(super) fn finish(self) -> (Vec<Node>, bool, Vec<Attribute>) {
        let mut builder = self.builder.into_inner();
        builder.flush_text();
        (builder.nodes, builder.head_seen, builder.attributes)
    }
}

impl TokenSink for Libxml2TreeBuilder {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        let Ok(mut builder) = self.builder.try_borrow_mut() else {
            return TokenSinkResult::Continue;
        };
        if builder.halted {
            return TokenSinkResult::Continue;
        }
        match token {
            CharacterTokens(text) => builder.pending_text.push(text),
            TagToken(tag) if tag.kind == StartTag => {
                builder.flush_text();
                return builder.start_tag(tag);
            }
            TagToken(tag) => {
                builder.flush_text();
                builder.end_tag(&tag.name);
            }
            CommentToken(_) => {
                builder.flush_text();
                let parent = builder.current().unwrap_or(DOCUMENT);
                builder.append(parent, NodeKind::Comment);
            }
            EOFToken => builder.flush_text(),
            // The caller turns U+0000 into U+FFFD first; DOCTYPEs and parse errors build nothing.
            _ => {}
        }
        TokenSinkResult::Continue
    }

    fn end(&self) {
        if let Ok(mut builder) = self.builder.try_borrow_mut() {
            builder.flush_text();
        }
    }
}

/// An open element.
struct Open {
    node: NodeId,
    name: LocalName,
}

struct Builder {
    nodes: Vec<Node>,
    /// libxml2's stack of open elements.
    open: Vec<Open>,
    /// The stack positions of the open elements, by name (for end tags: is it open, and where).
    open_by_name: AHashMap<LocalName, Vec<usize>>,
    /// The stack positions of the open elements of each [`end_priority`] above the default.
    open_by_priority: [Vec<usize>; PRIORITIES],
    /// A `<head>` / `<body>` was opened (implied or not): libxml2 implies neither again, nor a
    /// head after a body.
    head_seen: bool,
    body_seen: bool,
    /// Misplaced `<html>`, `<head>`, `<body>` start tags ignored so far, less the `</html>`,
    /// `</head>`, `</body>` ignored for them.
    ignored_structure_tags: u32,
    /// libxml2 gave up on the page (see [`MAX_OPEN_ELEMENTS`]).
    halted: bool,
    max_depth: usize,
    /// Start tags not built for `max_depth`, by name, whose end tags are still to be swallowed.
    skipped_for_depth: AHashMap<LocalName, u32>,
    /// The text since the last tag or comment: libxml2 decides on a whole run of text.
    pending_text: Vec<StrTendril>,
    /// Keep the attributes of the elements built (in `attributes`).
    keep_attributes: bool,
    attributes: Vec<Attribute>,
}

impl Builder {
    fn current(&self) -> Option<NodeId> {
        self.open.last().map(|o| o.node)
    }

    fn current_name(&self) -> Option<&LocalName> {
        self.open.last().map(|o| &o.name)
    }

    fn is_open(&self, name: &LocalName) -> bool {
        self.open_by_name.get(name).is_some_and(|p| !p.is_empty())
    }

    fn append(&mut self, parent: NodeId, kind: NodeKind) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node::detached(kind));
        append_node(&mut self.nodes, parent, id);
        id
    }

    /// Opens an element in the current one (or as a new document root); false when libxml2
    /// would have given up on the page instead.
    fn push(&mut self, name: LocalName, is_stylesheet_link: bool) -> bool {
        self.push_with_attributes(name, is_stylesheet_link, Vec::new())
    }

    /// [`Builder::push`] of an element written with `attrs` (moved into the page if the builder
    /// keeps them).
    fn push_with_attributes(
        &mut self,
        name: LocalName,
        is_stylesheet_link: bool,
        attrs: Vec<Attribute>,
    ) -> bool {
        if self.open.len() >= MAX_OPEN_ELEMENTS {
            self.halted = true;
            return false;
        }
        match name {
            local_name!("head") => self.head_seen = true,
            local_name!("body") => self.body_seen = true,
            _ => {}
        }
        let parent = self.current().unwrap_or(DOCUMENT);
        let mut attributes = AttributeRange::default();
        if self.keep_attributes && !attrs.is_empty() {
            attributes.start = self.attributes.len() as u32;
            self.attributes.extend(attrs);
            attributes.end = self.attributes.len() as u32;
        }
        let element = Element {
            name: name.clone(),
            template_contents: NONE,
            is_stylesheet_link,
            implied: false,
            class_and_id: Default::default(),
            href: Default::default(),
            hidden: false,
            attributes,
        };
        let node = self.append(parent, NodeKind::Element(element));
        let position = self.open.len();
        let priority = end_priority(&name);
        if priority > 0 {
            self.open_by_priority[priority - 1].push(position);
        }
        self.open_by_name
            .entry(name.clone())
            .or_default()
            .push(position);
        self.open.push(Open { node, name });
        true
    }

    fn pop(&mut self) {
        let Some(open) = self.open.pop() else {
            return;
        };
        if let Some(positions) = self.open_by_name.get_mut(&open.name) {
            positions.pop();
        }
        let priority = end_priority(&open.name);
        if priority > 0 {
            self.open_by_priority[priority - 1].pop();
        }
    }

    /// Closes the current element while `name`'s start tag closes it.
    fn auto_close(&mut self, name: &LocalName) {
        while self.current_name().is_some_and(|c| start_closes(name, c)) {
            self.pop();
        }
    }

    /// Opens the `html`, `head` or `body` that a start tag `name` (or text, as `p`) implies.
    fn imply(&mut self, name: &LocalName) -> bool {
        if *name == local_name!("html") {
            return true;
        }
        if self.open.is_empty() && !self.push(local_name!("html"), false) {
            return false;
        }
        match *name {
            local_name!("head") | local_name!("body") => true,
            local_name!("script")
            | local_name!("style")
            | local_name!("meta")
            | local_name!("link")
            | local_name!("title")
            | local_name!("base")
                if self.open.len() <= 1 =>
            {
                // libxml2 implies no head once it has seen a head or a body.
                self.head_seen || self.body_seen || self.push(local_name!("head"), false)
            }
            local_name!("noframes") | local_name!("frame") | local_name!("frameset") => true,
            _ => {
                if self.body_seen
                    || self.is_open(&local_name!("body"))
                    || self.is_open(&local_name!("head"))
                {
                    return true;
                }
                self.push(local_name!("body"), false)
            }
        }
    }

    /// Whether a start tag of `html`, `head` or `body` is misplaced, and so ignored.
    fn is_misplaced(&self, name: &LocalName) -> bool {
        match *name {
            local_name!("html") => !self.open.is_empty(),
            local_name!("head") => self.open.len() != 1,
            local_name!("body") => self.is_open(&local_name!("body")),
            _ => false,
        }
    }

    fn start_tag(&mut self, tag: Tag) -> TokenSinkResult<()> {
        let name = &tag.name;
        self.auto_close(name);
        // A first `<head>` comes into the `html` it implies.
        if *name == local_name!("head") && self.open.is_empty() && !self.imply(name) {
            return TokenSinkResult::Continue;
        }
        if self.is_misplaced(name) {
            self.ignored_structure_tags = self.ignored_structure_tags.saturating_add(1);
            // libxml2 still ends an element for the `/>` of an ignored tag: the current one.
            if tag.self_closing {
                self.pop();
            }
            return TokenSinkResult::Continue;
        }
        if !self.imply(name) {
            return TokenSinkResult::Continue;
        }
        let raw = raw_kind(name);
        let closes_at_once = is_void(name) || tag.self_closing;
        if self.open.len() >= self.max_depth && raw.is_none() {
            if !closes_at_once {
                *self.skipped_for_depth.entry(name.clone()).or_default() += 1;
            }
            return TokenSinkResult::Continue;
        }
        let is_stylesheet_link = *name == local_name!("link") && is_stylesheet(&tag.attrs);
        if !self.push_with_attributes(name.clone(), is_stylesheet_link, tag.attrs) {
            return TokenSinkResult::Continue;
        }
        if closes_at_once {
            self.pop();
            return TokenSinkResult::Continue;
        }
        match raw {
            Some(Raw::Plaintext) => TokenSinkResult::Plaintext,
            Some(Raw::Text(kind)) => TokenSinkResult::RawData(kind),
            None => TokenSinkResult::Continue,
        }
    }

    fn end_tag(&mut self, name: &LocalName) {
        if let Some(count) = self.skipped_for_depth.get_mut(name)
            && *count > 0
        {
            *count -= 1;
            return;
        }
        if matches!(
            *name,
            local_name!("html") | local_name!("head") | local_name!("body")
        ) && self.ignored_structure_tags > 0
        {
            self.ignored_structure_tags -= 1;
            return;
        }
        let Some(&position) = self.open_by_name.get(name).and_then(|p| p.last()) else {
            return;
        };
        let blocked = self.open_by_priority[end_priority(name)..]
            .iter()
            .filter_map(|positions| positions.last())
            .any(|&blocker| blocker > position);
        if blocked {
            return;
        }
        while self.open.len() > position {
            self.pop();
        }
    }

    /// Puts the text run read since the last tag into the tree.
    fn flush_text(&mut self) {
        if self.pending_text.is_empty() {
            return;
        }
        let mut texts = std::mem::take(&mut self.pending_text);
        let outside_body = matches!(
            self.current_name(),
            None | Some(&local_name!("html")) | Some(&local_name!("head"))
        );
        // Blanks before the text stay in the `html` or `head` (outside every element libxml2
        // skips them); the text implies the body.
        if outside_body {
            let mut blanks = split_leading_blanks(&mut texts);
            self.append_texts(&mut blanks);
            if !texts.is_empty() {
                self.auto_close(&local_name!("p"));
                if !self.imply(&local_name!("p")) {
                    return;
                }
            }
        }
        self.append_texts(&mut texts);
        // The buffer serves the next run.
        self.pending_text = texts;
    }

    /// Moves `texts` into the current element (merged with a text node before it); drops them
    /// when no element is open.
    fn append_texts(&mut self, texts: &mut Vec<StrTendril>) {
        let Some(parent) = self.current() else {
            texts.clear();
            return;
        };
        for text in texts.drain(..) {
            let last = self.nodes[parent as usize].last_child;
            if !merge_text(&mut self.nodes, last, &text) {
                self.append(parent, NodeKind::Text(text));
            }
        }
    }
}

/// Takes the blanks at the start of a run of text out of it.
fn split_leading_blanks(texts: &mut Vec<StrTendril>) -> Vec<StrTendril> {
    let first = texts
        .iter()
        .position(|t| !t.bytes().all(is_blank))
        .unwrap_or(texts.len());
    let mut blanks: Vec<StrTendril> = texts.drain(..first).collect();
    if let Some(text) = texts.first_mut() {
        let count = text.bytes().take_while(|&b| is_blank(b)).count() as u32;
        if count > 0 {
            blanks.push(text.subtendril(0, count));
            text.pop_front(count);
        }
    }
    blanks
}

/// How many end-tag priorities rank above the default.
const PRIORITIES: usize = 7;

/// libxml2's end-tag priority, as a rank (0 is the default): an end tag is ignored when an
/// element of higher rank is open inside its element.
fn end_priority(name: &LocalName) -> usize {
    match *name {
        local_name!("div") => 1,
        local_name!("td") | local_name!("th") => 2,
        local_name!("tr") => 3,
        local_name!("thead") | local_name!("tbody") | local_name!("tfoot") => 4,
        local_name!("table") => 5,
        local_name!("head") | local_name!("body") => 6,
        local_name!("html") => 7,
        _ => 0,
    }
}

/// Elements that never hold anything in libxml2 (HTML 4's empty elements; `embed`, `wbr`,
/// `source` and other HTML5 voids are not among them).
fn is_void(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("basefont")
            | local_name!("br")
            | local_name!("col")
            | local_name!("frame")
            | local_name!("hr")
            | local_name!("img")
            | local_name!("input")
            | local_name!("isindex")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("param")
    )
}

enum Raw {
    Text(RawKind),
    Plaintext,
}

/// How the tokenizer reads the content of an element that libxml2 reads as text.
fn raw_kind(name: &LocalName) -> Option<Raw> {
    Some(match *name {
        local_name!("script") => Raw::Text(RawKind::ScriptData),
        local_name!("style")
        | local_name!("xmp")
        | local_name!("iframe")
        | local_name!("noembed")
        | local_name!("noframes") => Raw::Text(RawKind::Rawtext),
        local_name!("textarea") | local_name!("title") => Raw::Text(RawKind::Rcdata),
        local_name!("plaintext") => Raw::Plaintext,
        _ => return None,
    })
}

/// Whether the start tag `new` closes the current element `current` (libxml2's start-tag
/// auto-close pairs). Most elements close an open `<head>`; the elements HTML5 added, custom
/// elements and a few others stay in it.
fn start_closes(new: &LocalName, current: &LocalName) -> bool {
    use local_name as n;
    if *current == n!("head") {
        return closes_head(new);
    }
    let is = |names: &[LocalName]| names.contains(current);
    let heading = || {
        matches!(
            *current,
            n!("h1") | n!("h2") | n!("h3") | n!("h4") | n!("h5") | n!("h6")
        )
    };
    match *new {
        n!("a") => *current == n!("a"),
        n!("address") | n!("pre") | n!("menu") => is(&[n!("p"), n!("ul")]),
        n!("blockquote")
        | n!("body")
        | n!("caption")
        | n!("dir")
        | n!("div")
        | n!("frameset")
        | n!("head")
        | n!("h1")
        | n!("h2")
        | n!("h3")
        | n!("h4")
        | n!("h5")
        | n!("h6")
        | n!("hr")
        | n!("listing")
        | n!("ol")
        | n!("title")
        | n!("xmp") => *current == n!("p"),
        n!("center") => is(&[n!("b"), n!("font"), n!("i"), n!("p")]),
        n!("col") => is(&[n!("caption"), n!("col"), n!("p")]),
        n!("colgroup") => is(&[n!("caption"), n!("col"), n!("colgroup"), n!("p")]),
        n!("dd") | n!("dl") => is(&[
            n!("address"),
            n!("dir"),
            n!("dt"),
            n!("menu"),
            n!("p"),
            n!("pre"),
            n!("listing"),
        ]),
        n!("dt") => is(&[
            n!("address"),
            n!("dd"),
            n!("dir"),
            n!("menu"),
            n!("p"),
            n!("pre"),
            n!("listing"),
        ]),
        n!("fieldset") => {
            heading() || is(&[n!("a"), n!("legend"), n!("p"), n!("pre"), n!("listing")])
        }
        n!("form") => {
            heading()
                || is(&[
                    n!("address"),
                    n!("dir"),
                    n!("dl"),
                    n!("form"),
                    n!("menu"),
                    n!("ol"),
                    n!("p"),
                    n!("pre"),
                    n!("ul"),
                    n!("listing"),
                ])
        }
        n!("li") => {
            heading()
                || is(&[
                    n!("address"),
                    n!("dl"),
                    n!("li"),
                    n!("p"),
                    n!("pre"),
                    n!("listing"),
                ])
        }
        n!("optgroup") | n!("option") => *current == n!("option"),
        n!("p") => {
            heading()
                || is(&[
                    n!("b"),
                    n!("big"),
                    n!("i"),
                    n!("p"),
                    n!("s"),
                    n!("small"),
                    n!("strike"),
                    n!("tt"),
                    n!("u"),
                ])
        }
        n!("table") => heading() || is(&[n!("a"), n!("p"), n!("pre"), n!("listing")]),
        n!("tbody") => is(&[
            n!("caption"),
            n!("col"),
            n!("colgroup"),
            n!("p"),
            n!("tbody"),
            n!("td"),
            n!("tfoot"),
            n!("th"),
            n!("thead"),
            n!("tr"),
        ]),
        n!("tfoot") => is(&[
            n!("caption"),
            n!("col"),
            n!("colgroup"),
            n!("p"),
            n!("tbody"),
            n!("td"),
            n!("th"),
            n!("thead"),
            n!("tr"),
        ]),
        n!("thead") => is(&[n!("caption"), n!("col"), n!("colgroup")]),
        n!("td") | n!("th") => is(&[
            n!("a"),
            n!("b"),
            n!("font"),
            n!("i"),
            n!("p"),
            n!("span"),
            n!("td"),
            n!("th"),
            n!("u"),
        ]),
        n!("tr") => is(&[
            n!("caption"),
            n!("col"),
            n!("colgroup"),
            n!("p"),
            n!("td"),
            n!("th"),
            n!("tr"),
        ]),
        n!("ul") => is(&[
            n!("address"),
            n!("dir"),
            n!("menu"),
            n!("p"),
            n!("pre"),
            n!("listing"),
        ]),
        _ => false,
    }
}

/// Whether the start tag `new` closes an open `<head>` that is the current element.
fn closes_head(new: &LocalName) -> bool {
    use local_name as n;
    matches!(
        *new,
        n!("a")
            | n!("abbr")
            | n!("acronym")
            | n!("address")
            | n!("b")
            | n!("bdo")
            | n!("big")
            | n!("blockquote")
            | n!("body")
            | n!("br")
            | n!("center")
            | n!("cite")
            | n!("code")
            | n!("dd")
            | n!("dfn")
            | n!("dir")
            | n!("div")
            | n!("dl")
            | n!("dt")
            | n!("em")
            | n!("fieldset")
            | n!("font")
            | n!("form")
            | n!("frameset")
            | n!("h1")
            | n!("h2")
            | n!("h3")
            | n!("h4")
            | n!("h5")
            | n!("h6")
            | n!("hr")
            | n!("i")
            | n!("iframe")
            | n!("img")
            | n!("kbd")
            | n!("li")
            | n!("listing")
            | n!("map")
            | n!("menu")
            | n!("ol")
            | n!("p")
            | n!("pre")
            | n!("q")
            | n!("s")
            | n!("samp")
            | n!("small")
            | n!("span")
            | n!("strike")
            | n!("strong")
            | n!("sub")
            | n!("sup")
            | n!("table")
            | n!("tt")
            | n!("u")
            | n!("ul")
            | n!("var")
            | n!("xmp")
    )
}

#[cfg(test)]
mod tests;
