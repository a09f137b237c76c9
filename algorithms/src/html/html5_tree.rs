//! The HTML5 tree: html5ever's tree builder over our own `TreeSink`, fed by the crate's
//! tokenizer through [`TagTracker`], which keeps the tree within the page's limits (depth,
//! re-opened formatting elements, nodes).

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{EndTag, StartTag, Tag, TagToken, Token, TokenSink, TokenSinkResult};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, LocalName, QualName, local_name, ns};

use super::dom::{
    DOCUMENT, Element, NONE, Node, NodeId, NodeKind, Page, TextSpan, append_node, detach,
    insert_before, is_formatting, is_stylesheet, merge_text, node_capacity,
};
use super::limits::Limits;

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
pub(super) struct TagTracker {
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
pub(super) const BYTES_PER_REOPENED: usize = 32;

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
    pub(super) fn new(html: &str, limits: &Limits) -> TagTracker {
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

    pub(super) fn into_page(self, html: &str) -> Page {
        let sink = self.tree_builder.sink;
        Page {
            nodes: sink.nodes.into_inner(),
            explicit_head_tag: has_head_start_tag(html.as_bytes()),
            attribute_text: sink.attribute_text.into_inner(),
            attributes: Vec::new(),
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
pub(super) struct Handle {
    id: NodeId,
    name: QualName,
}

pub(super) struct Sink {
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
            attributes: Default::default(),
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
            if merge_text(&mut self.nodes.borrow_mut(), last, text) {
                return;
            }
        }
        let child = self.node_for(child);
        append_node(&mut self.nodes.borrow_mut(), parent.id, child);
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
        append_node(&mut self.nodes.borrow_mut(), DOCUMENT, id);
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
            if merge_text(&mut self.nodes.borrow_mut(), prev, text) {
                return;
            }
        }
        let child = self.node_for(child);
        insert_before(&mut self.nodes.borrow_mut(), sibling.id, child);
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
        detach(&mut self.nodes.borrow_mut(), target.id);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        let mut nodes = self.nodes.borrow_mut();
        let mut child = nodes[node.id as usize].first_child;
        while child != NONE {
            let next = nodes[child as usize].next_sibling;
            append_node(&mut nodes, new_parent.id, child);
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
}
