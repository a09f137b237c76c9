//! A lean page tree: one arena of nodes linked by index, and the few operations its builders
//! need (`html5_tree`'s sink for html5ever's tree builder, `libxml2`'s builder; `parse` drives
//! them).
//!
//! The algorithms need element names, text and a few attributes (a stylesheet link's `rel`; the
//! extractor's `class`, `id` and `href`), never a mutable DOM, so the tree keeps exactly that.
//! Compared with `markup5ever_rcdom` there is no `Rc` per node, no attribute vectors and no
//! recursive drop, and a page with 100,000 nested elements is just a longer vector.

use html5ever::tendril::StrTendril;
use html5ever::{Attribute, LocalName, local_name};

/// Room for the nodes a page of `len` bytes usually has (one per 17 bytes over the speed sample),
/// so the arena is rarely copied as it grows; a power of two, so a page with more nodes grows it
/// to no more than growing from empty would.
pub(super) fn node_capacity(len: usize) -> usize {
    (len / 16).clamp(64, 1 << 20).next_power_of_two()
}

/// Unlinks `id` from its parent and siblings.
pub(super) fn detach(nodes: &mut [Node], id: NodeId) {
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

/// Appends `child` (detached first) as the last child of `parent`.
pub(super) fn append_node(nodes: &mut [Node], parent: NodeId, child: NodeId) {
    detach(nodes, child);
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

/// Inserts `child` (detached first) before `sibling`.
pub(super) fn insert_before(nodes: &mut [Node], sibling: NodeId, child: NodeId) {
    detach(nodes, child);
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
pub(super) fn merge_text(nodes: &mut [Node], neighbour: NodeId, text: &StrTendril) -> bool {
    if neighbour == NONE {
        return false;
    }
    if let NodeKind::Text(existing) = &mut nodes[neighbour as usize].kind {
        existing.push_tendril(text);
        return true;
    }
    false
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
    /// All attributes in source order, a range of [`Page::attributes`] (libxml2 tree built
    /// with [`Page::parse_as_libxml2_with_attributes`] only; empty otherwise).
    pub attributes: AttributeRange,
}

/// A range of [`Page::attributes`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AttributeRange {
    pub(super) start: u32,
    pub(super) end: u32,
}

/// A range of [`Page::attribute_text`]: the kept attributes of all elements share one string,
/// so keeping them costs no allocation per element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextSpan {
    pub(super) start: u32,
    pub(super) end: u32,
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
    /// Every attribute of every element, where the tree keeps them ([`Element::attributes`]).
    pub attributes: Vec<Attribute>,
}

impl Page {
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

    /// The element's attributes in source order (see [`Element::attributes`]).
    pub fn attributes_of(&self, element: &Element) -> &[Attribute] {
        self.attributes
            .get(element.attributes.start as usize..element.attributes.end as usize)
            .unwrap_or(&[])
    }

    /// The attributes of element `id` (none for another node), for a reader that moves them
    /// out of the page.
    pub fn attributes_mut(&mut self, id: NodeId) -> &mut [Attribute] {
        let range = match self.nodes.get(id as usize).map(|n| &n.kind) {
            Some(NodeKind::Element(e)) => e.attributes.start as usize..e.attributes.end as usize,
            _ => return &mut [],
        };
        self.attributes.get_mut(range).unwrap_or(&mut [])
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

/// `rel` names a stylesheet: jusText's cleaner removes such a `<link>`.
pub(super) fn is_stylesheet(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.name.local == local_name!("rel") && a.value.to_ascii_lowercase().contains("stylesheet")
    })
}
