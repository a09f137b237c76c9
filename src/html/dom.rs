//! A lean html5ever tree: one arena of nodes linked by index, built by our own `TreeSink`.
//!
//! The algorithms need element names, text and a few attributes (a stylesheet link's `rel`; the
//! extractor's `class`, `id` and `href`), never a mutable DOM, so the sink keeps exactly that.
//! Compared with `markup5ever_rcdom` there is no `Rc` per node, no attribute vectors and no
//! recursive drop, and a page with 100,000 nested elements is just a longer vector.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, EndTag, StartTag, Tag, TagToken, Token, TokenSink, TokenSinkResult, Tokenizer,
    TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, LocalName, QualName, TokenizerResult, local_name, ns};

use super::libxml2::Libxml2TreeBuilder;
use super::limits::{Limits, cap_attributes};
use super::tokenizer::tokenize;

/// Room for the nodes a page of `len` bytes usually has (one per 17 bytes over the speed sample),
/// so the arena is rarely copied as it grows; a power of two, so a page with more nodes grows it
/// to no more than growing from empty would.
pub(super) fn node_capacity(len: usize) -> usize {
    (len / 16).clamp(64, 1 << 20).next_power_of_two()
}

/// Appends `child` (detached first) as the last child of `parent`.
pub(super) fn append_node(nodes: &mut [Node], parent: NodeId, child: NodeId) {
    Sink::append_node(nodes, parent, child);
}

/// Appends `text` to the node `neighbour` when it is a text node; returns whether it did.
pub(super) fn merge_text(nodes: &mut [Node], neighbour: NodeId, text: &StrTendril) -> bool {
    Sink::merge_text(nodes, neighbour, text)
}

/// Index of a node in [`Page::nodes`].
pub type NodeId = u32;
/// "No node" in a link.
pub const NONE: NodeId = NodeId::MAX;
/// The document node is always the first.
pub const DOCUMENT: NodeId = 0;

/// What a node is.
#[derive(Debug, Clone)]
pub enum NodeKind {
    Document,
    Element(Element),
    Text(StrTendril),
    Comment,
    /// Doctype or processing instruction: no text, never rendered.
    Other,
}

/// An element: its name as libxml2 would spell it (lower case), and what the algorithms read.
#[derive(Debug, Clone)]
pub struct Element {
    pub name: LocalName,
    /// The children of a `<template>` live in this document fragment, not among its children.
    pub template_contents: NodeId,
    /// `<link rel="...stylesheet...">`, which jusText's cleaner removes.
    pub is_stylesheet_link: bool,
    /// Created by the tree builder without a tag in the source (`<tbody>` around table rows).
    /// libxml2 builds no such element, so walks emulating it skip these.
    pub implied: bool,
    /// `class` and `id`, lower-cased and joined by a space, in [`Page::attribute_text`]
    /// (html5ever tree only; empty when the element has neither).
    pub class_and_id: TextSpan,
    /// A link's `href`, in [`Page::attribute_text`].
    pub href: TextSpan,
    /// Not rendered: an inline style of `display: none` (html5ever tree only).
    pub hidden: bool,
}

/// A range of [`Page::attribute_text`]: the kept attributes of all elements share one string,
/// so keeping them costs no allocation per element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextSpan {
    start: u32,
    end: u32,
}

/// A node with its links.
#[derive(Debug, Clone)]
pub struct Node {
    pub parent: NodeId,
    pub prev_sibling: NodeId,
    pub next_sibling: NodeId,
    pub first_child: NodeId,
    pub last_child: NodeId,
    pub kind: NodeKind,
}

impl Node {
    /// A node not linked to any other yet.
    pub(super) fn detached(kind: NodeKind) -> Node {
        Node {
            parent: NONE,
            prev_sibling: NONE,
            next_sibling: NONE,
            first_child: NONE,
            last_child: NONE,
            kind,
        }
    }
}

/// A parsed page.
#[derive(Debug, Clone)]
pub struct Page {
    pub nodes: Vec<Node>,
    /// Whether the page has a head as libxml2 sees it: one was built ([`Page::parse_as_libxml2`],
    /// which builds one only where libxml2 does), or the source has a `<head` start tag
    /// ([`Page::parse_with`]: html5ever always builds a head).
    pub explicit_head_tag: bool,
    /// The kept attribute values ([`Element::class_and_id`], [`Element::href`]).
    pub attribute_text: String,
}

impl Page {
    /// [`Page::parse_with`] under the default [`Limits`].
    pub fn parse(html: &str) -> Page {
        Page::parse_with(html, &Limits::default())
    }

    /// Parses a decoded page with the crate's tokenizer (src/html/tokenizer.rs) and html5ever's
    /// HTML5 tree builder (the tree boilerpipe reads; jusText reads [`Page::parse_as_libxml2`]'s),
    /// scripting disabled so `<noscript>` holds markup. U+0000 becomes U+FFFD first, as libxml2
    /// 2.14 does (html5ever would drop it).
    ///
    /// Within `limits` (`max_bytes` is the caller's to check): attributes past `max_attributes`
    /// are dropped; elements deeper than `max_depth` are not built; formatting elements are
    /// re-opened within a budget (see [`BYTES_PER_REOPENED`]). As a last resort, a tree that would
    /// need more nodes than the page has bytes ends at that point.
    pub fn parse_with(html: &str, limits: &Limits) -> Page {
        let html = preprocess(html);
        let tracker = TagTracker::new(&html, limits);
        tokenize(&html, &tracker, limits.max_attributes, true);
        tracker.into_page(&html)
    }

    /// Parses a decoded page into the tree libxml2 2.14 builds for it, the tree Python jusText
    /// reads (see src/html/libxml2.rs). Input is preprocessed as in [`Page::parse_with`]; no
    /// element deeper than `limits.max_depth` is built, and, as in libxml2, the page ends where
    /// a 257th element would open ([`super::libxml2::MAX_OPEN_ELEMENTS`]).
    pub fn parse_as_libxml2(html: &str, limits: &Limits) -> Page {
        let html = preprocess(html);
        let builder = Libxml2TreeBuilder::new(html.len(), limits.max_depth);
        tokenize(&html, &builder, limits.max_attributes, false);
        let (nodes, head_built) = builder.finish();
        Page {
            nodes,
            explicit_head_tag: head_built,
            attribute_text: String::new(),
        }
    }

    /// [`Page::parse_with`] through html5ever's own tokenizer: the reference the crate's
    /// tokenizer is tested against (`tests/integration/tokenizer.rs`), not for use.
    #[doc(hidden)]
    pub fn parse_with_html5ever_tokenizer(html: &str, limits: &Limits) -> Page {
        let html: Cow<str> = if html.contains('\0') {
            Cow::Owned(html.replace('\0', "\u{FFFD}"))
        } else {
            Cow::Borrowed(html)
        };
        let html = match cap_attributes(&html, limits.max_attributes) {
            Cow::Borrowed(_) => html,
            Cow::Owned(capped) => Cow::Owned(capped),
        };
        let tokenizer = Tokenizer::new(TagTracker::new(&html, limits), TokenizerOpts::default());
        let input = BufferQueue::default();
        input.push_back(StrTendril::from_slice(&html));
        while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
        tokenizer.end();
        tokenizer.sink.into_page(&html)
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn element(&self, id: NodeId) -> Option<&Element> {
        match &self.nodes.get(id as usize)?.kind {
            NodeKind::Element(e) => Some(e),
            _ => None,
        }
    }

    /// The children of `id` in order (for a template, its contents).
    pub fn children(&self, id: NodeId) -> Children<'_> {
        let first = match self.element(id) {
            Some(e) if e.template_contents != NONE => self.node(e.template_contents).first_child,
            _ => self.node(id).first_child,
        };
        Children {
            page: self,
            next: first,
        }
    }

    /// The element's `class` and `id`, lower-cased and joined by a space (html5ever tree only).
    pub fn class_and_id(&self, element: &Element) -> Option<&str> {
        self.attribute(element.class_and_id)
    }

    /// A link's `href` (html5ever tree only).
    pub fn href(&self, element: &Element) -> Option<&str> {
        self.attribute(element.href)
    }

    fn attribute(&self, span: TextSpan) -> Option<&str> {
        (span.end > span.start)
            .then(|| {
                self.attribute_text
                    .get(span.start as usize..span.end as usize)
            })
            .flatten()
    }

    /// The first child element of `parent` with the given name.
    pub fn child_element(&self, parent: NodeId, name: &LocalName) -> Option<NodeId> {
        self.children(parent)
            .find(|&c| self.element(c).is_some_and(|e| &e.name == name))
    }

    /// `<html>`, `<head>` and `<body>` (or `<frameset>` in place of the body).
    pub fn html(&self) -> Option<NodeId> {
        self.child_element(DOCUMENT, &local_name!("html"))
    }
}

pub struct Children<'a> {
    page: &'a Page,
    next: NodeId,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.next == NONE {
            return None;
        }
        let current = self.next;
        self.next = self.page.node(current).next_sibling;
        Some(current)
    }
}

/// The spec's input stream preprocessing (§13.2.3.5): CR LF and CR become LF. U+0000 becomes
/// U+FFFD, as libxml2 2.14 does (html5ever would drop it in text).
fn preprocess(html: &str) -> Cow<'_, str> {
    if memchr::memchr2(b'\0', b'\r', html.as_bytes()).is_none() {
        return Cow::Borrowed(html);
    }
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len() + 16);
    let mut i = 0;
    // Both bytes are ASCII, so the runs between them are whole characters.
    while let Some(offset) = memchr::memchr2(b'\0', b'\r', &bytes[i..]) {
        let at = i + offset;
        out.push_str(&html[i..at]);
        i = at + 1;
        if bytes[at] == b'\0' {
            out.push('\u{FFFD}');
        } else {
            out.push('\n');
            if bytes.get(i) == Some(&b'\n') {
                i += 1;
            }
        }
    }
    out.push_str(&html[i..]);
    Cow::Owned(out)
}

fn has_head_start_tag(html: &[u8]) -> bool {
    let mut from = 0;
    while let Some(offset) = memchr::memchr(b'<', &html[from..]) {
        let at = from + offset;
        if html
            .get(at + 1..at + 5)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"head"))
            && html
                .get(at + 5)
                .is_some_and(|b| matches!(b, b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | 0x0c))
        {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Sits between the tokenizer and the tree builder: tells the sink which elements come from a tag
/// in the source, and keeps the tree within its limits.
struct TagTracker {
    tree_builder: TreeBuilder<Handle, Sink>,
    max_depth: u32,
    max_nodes: usize,
    /// How many more formatting elements the tree builder may re-open (see [`BYTES_PER_REOPENED`]).
    reopen_budget: Cell<usize>,
    /// Elements closed for depth and not yet ended in the source, by name.
    closed_for_depth: RefCell<Vec<(LocalName, u32)>>,
}

/// A page may have the tree builder re-open one formatting element per this many bytes (plus
/// 1024). HTML5 re-opens every formatting element left open (`<b>`, `<font>`, ...) at each new
/// block, so `<p><b id=1>x</p><p><b id=2>x</p>...` builds n² elements; real pages re-open far
/// fewer (of the 3,013 evaluation pages, 342 re-open any, at most 133 elements or one per 333
/// bytes). Once the budget is spent, the
/// formatting elements a token re-opens are closed right after it, which empties the list they
/// are re-opened from: the page's text is kept, its late formatting is not. libxml2, which the
/// reference tools use, re-opens nothing.
const BYTES_PER_REOPENED: usize = 32;

/// HTML5's formatting elements, the ones the tree builder re-opens.
pub(super) fn is_formatting(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("a")
            | local_name!("b")
            | local_name!("big")
            | local_name!("code")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("nobr")
            | local_name!("s")
            | local_name!("small")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("tt")
            | local_name!("u")
    )
}

/// Elements the tree builder never leaves open, so they cannot deepen the tree.
fn is_void(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("frame")
            | local_name!("hr")
            | local_name!("img")
            | local_name!("input")
            | local_name!("keygen")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
    )
}

/// Elements whose start tag switches the tokenizer to reading text: ignoring the tag would turn
/// their content (scripts, styles) into page text, so they are always built. They hold no
/// elements, so they cannot deepen the tree past one level.
fn switches_tokenizer(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("textarea")
            | local_name!("title")
            | local_name!("xmp")
            | local_name!("iframe")
            | local_name!("noembed")
            | local_name!("noframes")
            | local_name!("plaintext")
    )
}

impl TagTracker {
    fn new(html: &str, limits: &Limits) -> TagTracker {
        let tree_builder = TreeBuilder::new(
            Sink::for_page(html.len()),
            TreeBuilderOpts {
                scripting_enabled: false,
                ..Default::default()
            },
        );
        TagTracker {
            tree_builder,
            max_depth: limits.max_depth,
            max_nodes: html.len().saturating_add(1024),
            reopen_budget: Cell::new(html.len() / BYTES_PER_REOPENED + 1024),
            closed_for_depth: RefCell::new(Vec::new()),
        }
    }

    fn into_page(self, html: &str) -> Page {
        let sink = self.tree_builder.sink;
        Page {
            nodes: sink.nodes.into_inner(),
            explicit_head_tag: has_head_start_tag(html.as_bytes()),
            attribute_text: sink.attribute_text.into_inner(),
        }
    }

    /// Swallows the end tag of an element that was closed for depth, so it cannot close one of
    /// that element's ancestors instead.
    fn is_end_of_closed(&self, tag: &Tag) -> bool {
        let mut closed = self.closed_for_depth.borrow_mut();
        let Some(i) = closed.iter().position(|(n, _)| *n == tag.name) else {
            return false;
        };
        closed[i].1 -= 1;
        if closed[i].1 == 0 {
            closed.swap_remove(i);
        }
        true
    }

    /// Charges the formatting elements re-opened by the token just processed (the nodes from
    /// `first_new` on, less the token's own element) to the budget; once it is spent, closes
    /// every formatting element the token created, innermost first, so none stays to be re-opened.
    fn limit_reopening(&self, first_new: usize, start_tag: Option<&LocalName>, line_number: u64) {
        let nodes = self.tree_builder.sink.nodes.borrow();
        // Re-opening creates at least two nodes (the element and the text or element the token
        // itself inserts into it); most tokens create one or none.
        if nodes.len() < first_new + 2 {
            return;
        }
        let formatting = || {
            nodes[first_new..]
                .iter()
                .filter_map(|node| match &node.kind {
                    NodeKind::Element(e) if is_formatting(&e.name) => Some(e.name.clone()),
                    _ => None,
                })
        };
        let reopened = formatting()
            .count()
            .saturating_sub(usize::from(start_tag.is_some_and(is_formatting)));
        let budget = self.reopen_budget.get();
        self.reopen_budget.set(budget.saturating_sub(reopened));
        if budget >= reopened {
            return;
        }
        let created: Vec<LocalName> = formatting().collect();
        drop(nodes);
        for name in created.into_iter().rev() {
            let end = Tag {
                kind: EndTag,
                name,
                self_closing: false,
                attrs: Vec::new(),
                had_duplicate_attributes: false,
            };
            let _ = self.tree_builder.process_token(TagToken(end), line_number);
        }
    }

    /// Closes at once an element the start tag opened past `max_depth`, so its content joins its
    /// parent and the tree builder's stack (which its scope checks walk) stays shallow.
    fn close_if_too_deep(&self, name: LocalName, line_number: u64) {
        if self.tree_builder.sink.deepest_inserted.get() <= self.max_depth
            || is_void(&name)
            || switches_tokenizer(&name)
        {
            return;
        }
        let end = Tag {
            kind: EndTag,
            name: name.clone(),
            self_closing: false,
            attrs: Vec::new(),
            had_duplicate_attributes: false,
        };
        let _ = self.tree_builder.process_token(TagToken(end), line_number);
        let mut closed = self.closed_for_depth.borrow_mut();
        match closed.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => closed.push((name, 1)),
        }
    }
}

impl TokenSink for TagTracker {
    type Handle = Handle;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<Handle> {
        let sink = &self.tree_builder.sink;
        if sink.nodes.borrow().len() > self.max_nodes {
            return TokenSinkResult::Continue;
        }
        let start_tag = match &token {
            TagToken(tag) if tag.kind == StartTag => Some(tag.name.clone()),
            TagToken(tag) if self.is_end_of_closed(tag) => return TokenSinkResult::Continue,
            _ => None,
        };
        let explicit_tbody = start_tag == Some(local_name!("tbody"));
        sink.explicit_tbody.set(explicit_tbody);
        sink.deepest_inserted.set(0);
        let first_new = sink.nodes.borrow().len();
        let result = self.tree_builder.process_token(token, line_number);
        sink.explicit_tbody.set(false);
        self.limit_reopening(first_new, start_tag.as_ref(), line_number);
        if let Some(name) = start_tag {
            self.close_if_too_deep(name, line_number);
        }
        result
    }

    fn end(&self) {
        self.tree_builder.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.tree_builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// The handle carries the element's name so `elem_name` needs no borrow of the arena.
#[derive(Clone, Debug)]
struct Handle {
    id: NodeId,
    name: QualName,
}

struct Sink {
    nodes: RefCell<Vec<Node>>,
    document_name: QualName,
    quirks: Cell<QuirksMode>,
    /// The token being processed is a `<tbody>` start tag.
    explicit_tbody: Cell<bool>,
    /// Depth of each node (the document is 0), for the depth limit; parallel to `nodes`.
    depths: RefCell<Vec<u32>>,
    /// The depth of the deepest element inserted while processing the current token.
    deepest_inserted: Cell<u32>,
    /// [`Page::attribute_text`].
    attribute_text: RefCell<String>,
}

impl Sink {
    /// A sink for a page of `len` bytes, its arena sized by [`node_capacity`].
    fn for_page(len: usize) -> Self {
        let expected = node_capacity(len);
        let document = Node::detached(NodeKind::Document);
        Sink {
            nodes: RefCell::new({
                let mut nodes = Vec::with_capacity(expected);
                nodes.push(document);
                nodes
            }),
            document_name: QualName::new(None, ns!(), local_name!("")),
            quirks: Cell::new(QuirksMode::NoQuirks),
            explicit_tbody: Cell::new(false),
            depths: RefCell::new({
                let mut depths = Vec::with_capacity(expected);
                depths.push(0);
                depths
            }),
            deepest_inserted: Cell::new(0),
            attribute_text: RefCell::new(String::new()),
        }
    }

    fn handle(&self, id: NodeId) -> Handle {
        Handle {
            id,
            name: self.document_name.clone(),
        }
    }

    fn new_node(&self, kind: NodeKind) -> NodeId {
        let mut nodes = self.nodes.borrow_mut();
        let id = nodes.len() as NodeId;
        nodes.push(Node::detached(kind));
        self.depths.borrow_mut().push(0);
        id
    }

    /// Records the depth of `child`, just inserted at `depth` (and of a template's contents, which
    /// nest as deep as the template).
    fn inserted_at(&self, child: NodeId, depth: u32) {
        let nodes = self.nodes.borrow();
        let mut depths = self.depths.borrow_mut();
        depths[child as usize] = depth;
        if let NodeKind::Element(e) = &nodes[child as usize].kind {
            if e.template_contents != NONE {
                depths[e.template_contents as usize] = depth;
            }
            self.deepest_inserted
                .set(self.deepest_inserted.get().max(depth));
        }
    }

    fn depth_of(&self, id: NodeId) -> u32 {
        self.depths.borrow()[id as usize]
    }

    fn detach(nodes: &mut [Node], id: NodeId) {
        let Node {
            parent,
            prev_sibling: prev,
            next_sibling: next,
            ..
        } = nodes[id as usize];
        if next != NONE {
            nodes[next as usize].prev_sibling = prev;
        } else if parent != NONE {
            nodes[parent as usize].last_child = prev;
        }
        if prev != NONE {
            nodes[prev as usize].next_sibling = next;
        } else if parent != NONE {
            nodes[parent as usize].first_child = next;
        }
        let node = &mut nodes[id as usize];
        node.parent = NONE;
        node.prev_sibling = NONE;
        node.next_sibling = NONE;
    }

    fn append_node(nodes: &mut [Node], parent: NodeId, child: NodeId) {
        Self::detach(nodes, child);
        let last = nodes[parent as usize].last_child;
        nodes[child as usize].parent = parent;
        nodes[child as usize].prev_sibling = last;
        if last != NONE {
            nodes[last as usize].next_sibling = child;
        } else {
            nodes[parent as usize].first_child = child;
        }
        nodes[parent as usize].last_child = child;
    }

    fn insert_before(nodes: &mut [Node], sibling: NodeId, child: NodeId) {
        Self::detach(nodes, child);
        let Node {
            parent,
            prev_sibling: prev,
            ..
        } = nodes[sibling as usize];
        nodes[child as usize].parent = parent;
        nodes[child as usize].next_sibling = sibling;
        nodes[child as usize].prev_sibling = prev;
        if prev != NONE {
            nodes[prev as usize].next_sibling = child;
        } else if parent != NONE {
            nodes[parent as usize].first_child = child;
        }
        nodes[sibling as usize].prev_sibling = child;
    }

    /// Appends text to the text node `neighbour` when it is one (html5ever promises adjacent text
    /// is merged by the sink); returns whether it did.
    fn merge_text(nodes: &mut [Node], neighbour: NodeId, text: &StrTendril) -> bool {
        if neighbour == NONE {
            return false;
        }
        if let NodeKind::Text(existing) = &mut nodes[neighbour as usize].kind {
            existing.push_tendril(text);
            return true;
        }
        false
    }

    fn node_for(&self, child: NodeOrText<Handle>) -> NodeId {
        match child {
            NodeOrText::AppendNode(h) => h.id,
            NodeOrText::AppendText(text) => self.new_node(NodeKind::Text(text)),
        }
    }
}

impl Sink {
    /// Appends the element's `class` and `id` (lower-cased, joined by a space) and a link's
    /// `href` to the page's attribute text; their spans. A page whose attribute text would pass
    /// 4 GiB keeps no more.
    fn keep_attributes(&self, name: &LocalName, attrs: &[Attribute]) -> (TextSpan, TextSpan) {
        let mut text = self.attribute_text.borrow_mut();
        let span = |text: &mut String, values: &mut dyn Iterator<Item = &str>, lower: bool| {
            let start = text.len();
            for value in values {
                if text.len() > start {
                    text.push(' ');
                }
                if lower {
                    text.extend(value.chars().map(|c| c.to_ascii_lowercase()));
                } else {
                    text.push_str(value);
                }
            }
            match (u32::try_from(start), u32::try_from(text.len())) {
                (Ok(start), Ok(end)) => TextSpan { start, end },
                _ => {
                    text.truncate(start);
                    TextSpan::default()
                }
            }
        };
        let values = |wanted: fn(&LocalName) -> bool| {
            attrs
                .iter()
                .filter(move |a| !a.value.is_empty() && wanted(&a.name.local))
                .map(|a| &*a.value)
        };
        let is_name = |n: &LocalName| matches!(*n, local_name!("class") | local_name!("id"));
        let names = span(&mut text, &mut values(is_name), true);
        let href = if *name == local_name!("a") {
            let is_href = |n: &LocalName| *n == local_name!("href");
            span(&mut text, &mut values(is_href).take(1), false)
        } else {
            TextSpan::default()
        };
        (names, href)
    }
}

/// An inline style of `display: none`. (Not the `hidden` attribute, which React's streamed
/// pages put on content the script moves into place, nor `visibility: hidden`, the state of
/// sliders and fade-ins before their script runs.)
fn is_hidden(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.name.local == local_name!("style") && displays_none(&a.value))
}

/// Whether a `style` attribute sets `display: none` (spaces and case aside), without a copy.
fn displays_none(style: &str) -> bool {
    let bytes = style.as_bytes();
    let skip_spaces = |at: usize| {
        at + bytes[at.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count()
    };
    let starts_with = |at: usize, word: &[u8]| {
        bytes
            .get(at..at + word.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(word))
    };
    (0..bytes.len())
        .filter(|&at| starts_with(at, b"display"))
        .any(|at| {
            let colon = skip_spaces(at + b"display".len());
            bytes.get(colon) == Some(&b':') && starts_with(skip_spaces(colon + 1), b"none")
        })
}

/// `rel` names a stylesheet: jusText's cleaner removes such a `<link>`.
pub(super) fn is_stylesheet(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.name.local == local_name!("rel") && a.value.to_ascii_lowercase().contains("stylesheet")
    })
}

impl TreeSink for Sink {
    type Handle = Handle;
    type Output = Vec<Node>;
    type ElemName<'a> = &'a QualName;

    fn finish(self) -> Vec<Node> {
        self.nodes.into_inner()
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        self.handle(DOCUMENT)
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> &'a QualName {
        &target.name
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        let template_contents = if flags.template {
            self.new_node(NodeKind::Document)
        } else {
            NONE
        };
        // libxml2's HTML parser lower-cases every tag name and knows no SVG/MathML camel case.
        let local = if name.local.bytes().any(|b| b.is_ascii_uppercase()) {
            LocalName::from(name.local.to_ascii_lowercase())
        } else {
            name.local.clone()
        };
        let is_stylesheet_link = name.local == local_name!("link") && is_stylesheet(&attrs);
        let implied = name.local == local_name!("tbody") && !self.explicit_tbody.get();
        let (class_and_id, href) = self.keep_attributes(&name.local, &attrs);
        let element = Element {
            name: local,
            template_contents,
            is_stylesheet_link,
            implied,
            class_and_id,
            href,
            hidden: is_hidden(&attrs),
        };
        let id = self.new_node(NodeKind::Element(element));
        Handle { id, name }
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        self.handle(self.new_node(NodeKind::Comment))
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        self.handle(self.new_node(NodeKind::Comment))
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        if let NodeOrText::AppendText(text) = &child {
            let last = self.nodes.borrow()[parent.id as usize].last_child;
            if Self::merge_text(&mut self.nodes.borrow_mut(), last, text) {
                return;
            }
        }
        let child = self.node_for(child);
        Self::append_node(&mut self.nodes.borrow_mut(), parent.id, child);
        self.inserted_at(child, self.depth_of(parent.id).saturating_add(1));
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        if self.nodes.borrow()[element.id as usize].parent != NONE {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        _name: StrTendril,
        _public_id: StrTendril,
        _system_id: StrTendril,
    ) {
        let id = self.new_node(NodeKind::Other);
        Self::append_node(&mut self.nodes.borrow_mut(), DOCUMENT, id);
    }

    fn get_template_contents(&self, target: &Handle) -> Handle {
        let contents = match &self.nodes.borrow()[target.id as usize].kind {
            NodeKind::Element(e) if e.template_contents != NONE => e.template_contents,
            // html5ever promises a template; a stray call gets the element itself, not a panic.
            _ => target.id,
        };
        self.handle(contents)
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.quirks.set(mode);
    }

    fn append_before_sibling(&self, sibling: &Handle, child: NodeOrText<Handle>) {
        if let NodeOrText::AppendText(text) = &child {
            let prev = self.nodes.borrow()[sibling.id as usize].prev_sibling;
            if Self::merge_text(&mut self.nodes.borrow_mut(), prev, text) {
                return;
            }
        }
        let child = self.node_for(child);
        Self::insert_before(&mut self.nodes.borrow_mut(), sibling.id, child);
        self.inserted_at(child, self.depth_of(sibling.id));
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        if target.name.local == local_name!("link") && is_stylesheet(&attrs) {
            if let NodeKind::Element(e) = &mut self.nodes.borrow_mut()[target.id as usize].kind {
                e.is_stylesheet_link = true;
            }
        }
    }

    fn remove_from_parent(&self, target: &Handle) {
        Self::detach(&mut self.nodes.borrow_mut(), target.id);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        let mut nodes = self.nodes.borrow_mut();
        let mut child = nodes[node.id as usize].first_child;
        while child != NONE {
            let next = nodes[child as usize].next_sibling;
            Self::append_node(&mut nodes, new_parent.id, child);
            child = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inline_style_of_display_none_hides() {
        for style in [
            "display:none",
            "color: red; DISPLAY :\tNone !important",
            "display: none",
        ] {
            assert!(displays_none(style), "{style}");
        }
        for style in [
            "display: block",
            "visibility: hidden",
            "display:",
            "displaynone",
            "",
        ] {
            assert!(!displays_none(style), "{style}");
        }
    }

    fn outline(page: &Page, id: NodeId, out: &mut String) {
        match &page.node(id).kind {
            NodeKind::Element(e) => {
                out.push('<');
                out.push_str(&e.name);
                out.push('>');
                for c in page.children(id) {
                    outline(page, c, out);
                }
                out.push_str("</");
                out.push_str(&e.name);
                out.push('>');
            }
            NodeKind::Text(t) => out.push_str(t),
            NodeKind::Comment => out.push_str("<!---->"),
            NodeKind::Document | NodeKind::Other => {
                for c in page.children(id) {
                    outline(page, c, out);
                }
            }
        }
    }

    fn tree(html: &str) -> String {
        let page = Page::parse(html);
        let mut out = String::new();
        outline(&page, DOCUMENT, &mut out);
        out
    }

    #[test]
    fn builds_skeleton_and_merges_text() {
        assert_eq!(
            tree("<p>a<!--c-->b</p>"),
            "<html><head></head><body><p>a<!---->b</p></body></html>"
        );
        assert_eq!(
            tree("a&amp;b"),
            "<html><head></head><body>a&b</body></html>"
        );
    }

    #[test]
    fn foster_parenting_and_misnesting_do_not_panic() {
        assert_eq!(
            tree("<table>x<tr><td>1</table>"),
            "<html><head></head><body>x<table><tbody><tr><td>1</td></tr></tbody></table></body></html>"
        );
        assert_eq!(
            tree("<b>1<p>2</b>3</p>"),
            "<html><head></head><body><b>1</b><p><b>2</b>3</p></body></html>"
        );
    }

    #[test]
    fn template_contents_are_children() {
        assert_eq!(
            tree("<template><p>x</p></template>"),
            "<html><head><template><p>x</p></template></head><body></body></html>"
        );
    }

    #[test]
    fn nul_becomes_replacement_character() {
        assert_eq!(
            tree("<p>a\0b</p>"),
            "<html><head></head><body><p>a\u{FFFD}b</p></body></html>"
        );
    }

    #[test]
    fn svg_names_are_lower_cased() {
        assert!(
            tree("<svg><foreignObject>x</foreignObject></svg>")
                .contains("<foreignobject>x</foreignobject>")
        );
    }

    #[test]
    fn stylesheet_links_are_flagged() {
        let page = Page::parse("<link rel='Alternate StyleSheet'><link rel=icon>");
        let flags: Vec<bool> = page
            .nodes
            .iter()
            .filter_map(|n| match &n.kind {
                NodeKind::Element(e) if e.name == local_name!("link") => Some(e.is_stylesheet_link),
                _ => None,
            })
            .collect();
        assert_eq!(flags, [true, false]);
    }

    #[test]
    fn elements_past_max_depth_are_closed_at_once_and_their_content_joins_the_parent() {
        // html is at depth 1 and body at 2, so 510 nested divs fill the default 512 levels; the
        // other 99,490 are empty children of the 510th.
        let html = format!(
            "{}deep{}after",
            "<div>".repeat(100_000),
            "</div>".repeat(100_000)
        );
        let t = tree(&html);
        assert_eq!(t.matches("<div>").count(), 100_000);
        assert_eq!(t.matches("<div></div>").count(), 99_490);
        assert!(t.contains("<div></div>deep</div></div>"));
        // The source's end tags of the closed divs are swallowed, so they cannot close the real
        // ones: "after" lands in the body, as in the full tree.
        assert!(t.ends_with("</div></div>after</body></html>"));
        let shallow = Limits {
            max_depth: 4,
            ..Limits::default()
        };
        let page = Page::parse_with("<div><p><b><i>x</i></b></p></div><p>y", &shallow);
        let mut out = String::new();
        outline(&page, DOCUMENT, &mut out);
        assert_eq!(
            out,
            "<html><head></head><body><div><p><b></b><i></i>x</p></div><p>y</p></body></html>"
        );
    }

    #[test]
    fn scripts_past_max_depth_stay_scripts() {
        let shallow = Limits {
            max_depth: 3,
            ..Limits::default()
        };
        let page = Page::parse_with(
            "<div><span><script>if (a<b) x()</script>t</span></div>",
            &shallow,
        );
        let mut out = String::new();
        outline(&page, DOCUMENT, &mut out);
        assert_eq!(
            out,
            "<html><head></head><body><div><span></span><script>if (a<b) x()</script>t</div></body></html>"
        );
    }

    #[test]
    fn formatting_elements_are_reopened_as_html5_says() {
        assert_eq!(
            tree("<p><b>1</p><p>2"),
            "<html><head></head><body><p><b>1</b></p><p><b>2</b></p></body></html>"
        );
    }

    #[test]
    fn reopened_formatting_elements_cannot_grow_the_tree_quadratically() {
        // Each `<b>` with new attributes stays in the list of active formatting elements after
        // `</p>` closes it, and every later `<b>` re-opens all of them: n² nodes for n tags
        // (4.5 million here) without the re-opening budget.
        let html: String = (0..3_000).map(|i| format!("<p><b id={i}>x</p>")).collect();
        let budget = html.len() / BYTES_PER_REOPENED + 1024;
        let page = Page::parse(&html);
        // html, head, body, and per tag a p, a b, a text and at most one more re-opened b.
        assert!(
            page.nodes.len() <= 4 + 4 * 3_000 + budget,
            "{} nodes",
            page.nodes.len()
        );
        let t = tree(&html);
        assert_eq!(t.matches('x').count(), 3_000);
        // Past the budget, a `<b>` that re-opens the previous one is closed with it, so its text
        // joins the paragraph and the next `<b>` has nothing to re-open.
        assert!(
            t.ends_with("<p><b><b></b></b>x</p><p><b>x</b></p></body></html>"),
            "{}",
            &t[t.len() - 200..]
        );
    }
}
