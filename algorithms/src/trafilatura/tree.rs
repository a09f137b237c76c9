//! The element tree trafilatura works on, shaped as lxml presents libxml2's: elements with a
//! tag, ordered attributes, a `text` (before the first child) and a `tail` (after the element,
//! inside its parent), where `None` and the empty string are different values.
//!
//! trafilatura renames, strips, deletes and copies elements while it walks them, and its
//! results depend on exactly how lxml behaves then, so this tree does what lxml does:
//! - an iterator ([`LxIter`]) has already found its next element when it hands one out, so an
//!   element deleted from under it leaves the walk inside the deleted subtree;
//! - moving an element (append, insert, remove) takes its tail along;
//! - a copy is a deep copy, tail included, detached from everything (a new document);
//! - writing a string with a character XML forbids fails ([`NotXmlCompatible`], lxml's
//!   ValueError), which trafilatura turns into "no result" for the page.
//!
//! All elements of one page live in one arena; detached ones stay there until the tree is dropped.

use html5ever::LocalName;
use html5ever::tendril::StrTendril;

use super::tag::Tag;

mod walk;

/// Index of an element in its [`Tree`].
pub type Id = u32;
/// No element.
pub const NIL: Id = Id::MAX;

/// lxml refused what Python asked of it, which trafilatura turns into "no result" for the page:
/// a string holding a character XML 1.0 forbids (ASCII controls other than tab, line feed and
/// carriage return; U+FFFE, U+FFFF), or a new element of a name that is not an XML name; also
/// stands for the other exceptions that end an extraction (a TypeError of the baseline's JSON,
/// readability's AssertionError, which its caller catches).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotXmlCompatible;

pub type Res<T> = Result<T, NotXmlCompatible>;

/// lxml's test of a string it is asked to store.
pub fn is_xml_compatible(s: &str) -> bool {
    let bytes = s.as_bytes();
    // Two passes the compiler makes vector code of: controls (in blocks, without an early exit
    // inside one), then U+FFFE / U+FFFF (EF BF BE / EF BF BF) from each EF byte.
    let control = |b: u8| (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r');
    let has_control = bytes
        .chunks(64)
        .any(|block| block.iter().fold(false, |found, &b| found | control(b)));
    !has_control
        && !memchr::memchr_iter(0xEF, bytes).any(|i| {
            bytes.get(i + 1) == Some(&0xBF) && matches!(bytes.get(i + 2), Some(0xBE | 0xBF))
        })
}

/// An element's attributes, in source order.
pub type Attributes = Vec<(LocalName, StrTendril)>;

/// Text is a tendril: a slice of the page's buffer as the parser left it, or a string of its
/// own once Python code has written it, so copying a tree copies no text.
#[derive(Debug, Clone)]
struct Node {
    tag: Tag,
    /// Index of the element's attributes in [`Tree::attribute_sets`]: a copy shares its
    /// original's until either changes them (0 is the empty set).
    attrs: u32,
    text: Option<StrTendril>,
    tail: Option<StrTendril>,
    parent: Id,
    first: Id,
    last: Id,
    prev: Id,
    next: Id,
}

impl Node {
    fn new(tag: Tag) -> Node {
        Node {
            tag,
            attrs: 0,
            text: None,
            tail: None,
            parent: NIL,
            first: NIL,
            last: NIL,
            prev: NIL,
            next: NIL,
        }
    }
}

/// Appends `addition` to a text that may be absent, as joining lxml's text nodes does: absent
/// plus absent stays absent, absent plus "" is "".
fn concat_text(base: Option<StrTendril>, addition: Option<&StrTendril>) -> Option<StrTendril> {
    match (base, addition) {
        (base, None) => base,
        (None, Some(a)) => Some(a.clone()),
        (Some(mut b), Some(a)) => {
            b.push_tendril(a);
            Some(b)
        }
    }
}

/// The elements of one page.
#[derive(Debug, Clone)]
pub struct Tree {
    nodes: Vec<Node>,
    /// The attribute sets the elements point to; the first is empty.
    attribute_sets: Vec<Attributes>,
    /// Whether a string written into the tree may hold a character XML forbids: only when the
    /// page itself brought one (through a character reference), so clean pages skip the test.
    check_writes: bool,
}

impl Default for Tree {
    fn default() -> Self {
        Tree {
            nodes: Vec::new(),
            attribute_sets: vec![Vec::new()],
            check_writes: false,
        }
    }
}

impl Tree {
    pub fn new() -> Tree {
        Tree::default()
    }

    /// Tests every later write for characters XML forbids (see [`NotXmlCompatible`]).
    pub fn check_writes(&mut self) {
        self.check_writes = true;
    }

    fn check(&self, s: Option<&str>) -> Res<()> {
        match s {
            Some(s) if self.check_writes && !is_xml_compatible(s) => Err(NotXmlCompatible),
            _ => Ok(()),
        }
    }

    fn n(&self, id: Id) -> &Node {
        &self.nodes[id as usize]
    }

    fn m(&mut self, id: Id) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// Makes room for `additional` more elements.
    pub fn reserve(&mut self, additional: usize) {
        self.nodes.reserve(additional);
    }

    /// A new element, detached.
    pub fn new_element(&mut self, tag: Tag) -> Id {
        let id = self.nodes.len() as Id;
        self.nodes.push(Node::new(tag));
        id
    }

    // ---- names, attributes, text ----

    pub fn tag(&self, id: Id) -> &Tag {
        &self.n(id).tag
    }

    pub fn is(&self, id: Id, tag: &Tag) -> bool {
        self.n(id).tag == *tag
    }

    pub fn set_tag(&mut self, id: Id, tag: Tag) {
        self.m(id).tag = tag;
    }

    pub fn attrs(&self, id: Id) -> &[(LocalName, StrTendril)] {
        &self.attribute_sets[self.n(id).attrs as usize]
    }

    /// The element's own attribute set, to change (copied first when another element shares it).
    fn attrs_mut(&mut self, id: Id) -> &mut Attributes {
        let set = self.n(id).attrs as usize;
        let copy = self.attribute_sets[set].clone();
        self.attribute_sets.push(copy);
        let own = (self.attribute_sets.len() - 1) as u32;
        self.m(id).attrs = own;
        &mut self.attribute_sets[own as usize]
    }

    /// `elem.get(name)`.
    pub fn get(&self, id: Id, name: &LocalName) -> Option<&str> {
        self.attrs(id)
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| &**v)
    }

    /// `elem.get(name, "")`.
    pub fn get_or_empty(&self, id: Id, name: &LocalName) -> &str {
        self.get(id, name).unwrap_or("")
    }

    pub fn has_attr(&self, id: Id, name: &LocalName) -> bool {
        self.get(id, name).is_some()
    }

    /// The value XPath gives `@a|@b` where a string is needed: the attribute among `names` that
    /// comes first in the element's start tag; `""` when it has none of them.
    pub fn first_of(&self, id: Id, names: &[&LocalName]) -> &str {
        self.attrs(id)
            .iter()
            .find(|(n, _)| names.contains(&n))
            .map_or("", |(_, v)| &**v)
    }

    /// `elem.set(name, value)`: an existing attribute keeps its place.
    pub fn set(&mut self, id: Id, name: &LocalName, value: &str) -> Res<()> {
        self.check(Some(value))?;
        let attrs = self.attrs_mut(id);
        match attrs.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = StrTendril::from_slice(value),
            None => attrs.push((name.clone(), StrTendril::from_slice(value))),
        }
        Ok(())
    }

    /// Attributes as the parser found them (no check: lxml tests only what Python writes).
    pub fn set_parsed_attrs(&mut self, id: Id, attrs: Attributes) {
        self.attribute_sets.push(attrs);
        self.m(id).attrs = (self.attribute_sets.len() - 1) as u32;
    }

    pub fn clear_attrs(&mut self, id: Id) {
        self.m(id).attrs = 0;
    }

    pub fn text(&self, id: Id) -> Option<&str> {
        self.n(id).text.as_deref()
    }

    pub fn tail(&self, id: Id) -> Option<&str> {
        self.n(id).tail.as_deref()
    }

    /// Python's `if elem.text:`.
    pub fn has_text(&self, id: Id) -> bool {
        self.n(id).text.as_deref().is_some_and(|t| !t.is_empty())
    }

    /// Python's `if elem.tail:`.
    pub fn has_tail(&self, id: Id) -> bool {
        self.n(id).tail.as_deref().is_some_and(|t| !t.is_empty())
    }

    /// `elem.text = value`.
    pub fn set_text(&mut self, id: Id, value: Option<String>) -> Res<()> {
        self.set_text_tendril(id, value.map(StrTendril::from))
    }

    /// `elem.tail = value`.
    pub fn set_tail(&mut self, id: Id, value: Option<String>) -> Res<()> {
        self.set_tail_tendril(id, value.map(StrTendril::from))
    }

    /// [`Tree::set_text`] with a value already in a tendril (no copy).
    pub fn set_text_tendril(&mut self, id: Id, value: Option<StrTendril>) -> Res<()> {
        self.check(value.as_deref())?;
        self.m(id).text = value;
        Ok(())
    }

    /// [`Tree::set_tail`] with a value already in a tendril (no copy).
    pub fn set_tail_tendril(&mut self, id: Id, value: Option<StrTendril>) -> Res<()> {
        self.check(value.as_deref())?;
        self.m(id).tail = value;
        Ok(())
    }

    /// Text the parser built (no check, as lxml tests only what Python writes).
    pub fn set_parsed_text(&mut self, id: Id, text: Option<StrTendril>, tail: Option<StrTendril>) {
        let node = self.m(id);
        node.text = text;
        node.tail = tail;
    }

    /// Appends text the parser built to the element's text or tail (no check).
    pub fn push_parsed_text(&mut self, id: Id, tail: bool, text: &StrTendril) {
        let node = self.m(id);
        let slot = if tail { &mut node.tail } else { &mut node.text };
        match slot {
            Some(s) => s.push_tendril(text),
            None => *slot = Some(text.clone()),
        }
    }

    pub fn take_text(&mut self, id: Id) -> Option<StrTendril> {
        self.m(id).text.take()
    }

    pub fn take_tail(&mut self, id: Id) -> Option<StrTendril> {
        self.m(id).tail.take()
    }

    // ---- structure ----

    pub fn parent(&self, id: Id) -> Id {
        self.n(id).parent
    }

    /// `getnext()`.
    pub fn next(&self, id: Id) -> Id {
        self.n(id).next
    }

    /// `getprevious()`.
    pub fn prev(&self, id: Id) -> Id {
        self.n(id).prev
    }

    pub fn first_child(&self, id: Id) -> Id {
        self.n(id).first
    }

    pub fn last_child(&self, id: Id) -> Id {
        self.n(id).last
    }

    pub fn has_children(&self, id: Id) -> bool {
        self.n(id).first != NIL
    }

    /// `len(elem)`.
    pub fn len(&self, id: Id) -> usize {
        self.children(id).count()
    }

    /// The children of `id` in order; the tree must not change while this runs (see
    /// [`Tree::child_list`]).
    pub fn children(&self, id: Id) -> Children<'_> {
        Children {
            tree: self,
            next: self.n(id).first,
        }
    }

    /// `list(elem)`.
    pub fn child_list(&self, id: Id) -> Vec<Id> {
        self.children(id).collect()
    }

    /// The ancestors of `id`, nearest first (`iterancestors()`).
    pub fn ancestors(&self, id: Id) -> Ancestors<'_> {
        Ancestors {
            tree: self,
            next: self.n(id).parent,
        }
    }

    /// Whether `ancestor` is a proper ancestor of `id`.
    pub fn is_ancestor(&self, ancestor: Id, id: Id) -> bool {
        self.ancestors(id).any(|a| a == ancestor)
    }

    /// The top of the tree `id` is in.
    pub fn root_of(&self, id: Id) -> Id {
        let mut top = id;
        while self.n(top).parent != NIL {
            top = self.n(top).parent;
        }
        top
    }

    /// Unlinks `id` from its parent and siblings; its tail stays with it.
    pub fn detach(&mut self, id: Id) {
        let Node {
            parent, prev, next, ..
        } = *self.n(id);
        if parent == NIL {
            return;
        }
        if prev != NIL {
            self.m(prev).next = next;
        } else {
            self.m(parent).first = next;
        }
        if next != NIL {
            self.m(next).prev = prev;
        } else {
            self.m(parent).last = prev;
        }
        let node = self.m(id);
        node.parent = NIL;
        node.prev = NIL;
        node.next = NIL;
    }

    /// `parent.append(child)`: moves `child` (with its tail) to the end of `parent`.
    pub fn append(&mut self, parent: Id, child: Id) {
        self.detach(child);
        let last = self.n(parent).last;
        {
            let c = self.m(child);
            c.parent = parent;
            c.prev = last;
        }
        if last != NIL {
            self.m(last).next = child;
        } else {
            self.m(parent).first = child;
        }
        self.m(parent).last = child;
    }

    /// Inserts `child` (detached first) before `sibling`.
    pub fn insert_before(&mut self, sibling: Id, child: Id) {
        self.detach(child);
        let Node { parent, prev, .. } = *self.n(sibling);
        {
            let c = self.m(child);
            c.parent = parent;
            c.prev = prev;
            c.next = sibling;
        }
        if prev != NIL {
            self.m(prev).next = child;
        } else if parent != NIL {
            self.m(parent).first = child;
        }
        self.m(sibling).prev = child;
    }

    /// `parent.insert(index, child)` (an index past the end appends).
    pub fn insert(&mut self, parent: Id, index: usize, child: Id) {
        match self.children(parent).nth(index) {
            Some(at) if at != child => self.insert_before(at, child),
            Some(_) => {}
            None => self.append(parent, child),
        }
    }

    /// trafilatura's `delete_element`: removes the element; with `keep_tail` its tail is first
    /// joined to the previous sibling's tail or the parent's text. Nothing happens to a root.
    pub fn delete_element(&mut self, id: Id, keep_tail: bool) -> Res<()> {
        let parent = self.parent(id);
        if parent == NIL {
            return Ok(());
        }
        if keep_tail && self.has_tail(id) {
            let tail = self.n(id).tail.clone();
            let prev = self.prev(id);
            if prev == NIL {
                let base = self.n(parent).text.clone().unwrap_or_default();
                let joined = concat_text(Some(base), tail.as_ref());
                self.set_text_tendril(parent, joined)?;
            } else {
                let base = self.n(prev).tail.clone().unwrap_or_default();
                let joined = concat_text(Some(base), tail.as_ref());
                self.set_tail_tendril(prev, joined)?;
            }
        }
        self.detach(id);
        Ok(())
    }

    /// A deep copy of `id`, tail included, detached (lxml's `copy`/`deepcopy` of an element).
    pub fn deep_copy(&mut self, id: Id) -> Id {
        let top = self.copy_node(id);
        // (source, copy) pairs whose children are still to copy.
        let mut stack = vec![(id, top)];
        while let Some((source, copy)) = stack.pop() {
            let mut child = self.n(source).first;
            while child != NIL {
                let child_copy = self.copy_node(child);
                self.append(copy, child_copy);
                stack.push((child, child_copy));
                child = self.n(child).next;
            }
        }
        top
    }

    fn copy_node(&mut self, id: Id) -> Id {
        let source = self.n(id);
        let node = Node {
            tag: source.tag.clone(),
            attrs: source.attrs,
            text: source.text.clone(),
            tail: source.tail.clone(),
            ..Node::new(Tag::Div)
        };
        let new = self.nodes.len() as Id;
        self.nodes.push(node);
        new
    }

    /// `strip_tags(root, ...)`: every descendant of `root` matching `strip` is replaced by its
    /// content (text, children, tail), in place.
    pub fn strip_tags(&mut self, root: Id, strip: impl Fn(&Tag) -> bool) {
        let matching = self.descendants_where(root, |t| strip(t));
        for id in matching {
            self.splice(id);
        }
    }

    /// Replaces `id` by its text, children and tail.
    fn splice(&mut self, id: Id) {
        let parent = self.parent(id);
        if parent == NIL {
            return;
        }
        let text = self.m(id).text.take();
        let tail = self.m(id).tail.take();
        let prev = self.prev(id);
        self.append_text_before(parent, prev, text.as_ref());
        let mut last_moved = prev;
        let mut child = self.first_child(id);
        while child != NIL {
            let following = self.next(child);
            self.insert_before(id, child);
            last_moved = child;
            child = following;
        }
        self.append_text_before(parent, last_moved, tail.as_ref());
        self.detach(id);
    }

    /// Appends text at the place after `prev` (its tail) or, with no `prev`, to `parent`'s text.
    fn append_text_before(&mut self, parent: Id, prev: Id, text: Option<&StrTendril>) {
        if text.is_none() {
            return;
        }
        let slot = if prev == NIL {
            &mut self.m(parent).text
        } else {
            &mut self.m(prev).tail
        };
        *slot = concat_text(slot.take(), text);
    }

    /// `strip_elements(root, ...)`: removes every descendant of `root` matching `remove`, with
    /// its tail.
    pub fn strip_elements(&mut self, root: Id, remove: impl Fn(&Tag) -> bool) {
        let mut id = self.following(root, root);
        while id != NIL {
            if remove(self.tag(id)) {
                let after = self.following_skipping_children(id, root);
                self.detach(id);
                id = after;
            } else {
                id = self.following(id, root);
            }
        }
    }
}

pub struct Children<'a> {
    tree: &'a Tree,
    next: Id,
}

impl Iterator for Children<'_> {
    type Item = Id;
    fn next(&mut self) -> Option<Id> {
        if self.next == NIL {
            return None;
        }
        let current = self.next;
        self.next = self.tree.n(current).next;
        Some(current)
    }
}

pub struct Ancestors<'a> {
    tree: &'a Tree,
    next: Id,
}

impl Iterator for Ancestors<'_> {
    type Item = Id;
    fn next(&mut self) -> Option<Id> {
        if self.next == NIL {
            return None;
        }
        let current = self.next;
        self.next = self.tree.n(current).parent;
        Some(current)
    }
}

/// lxml's `elem.iter(tags)` walked while the loop changes the tree: each step has already
/// found the next match when it returns the current one, so renaming or deleting the current
/// element does not change where the walk goes next, and deleting it while the next match lies
/// inside it ends the walk there, in the detached subtree.
pub struct LxIter<F: Fn(&Tag) -> bool> {
    top: Id,
    next: Id,
    matches: F,
}

impl<F: Fn(&Tag) -> bool> LxIter<F> {
    /// `top.iter(...)` (`include_top`) or `top.iterdescendants(...)`.
    pub fn new(tree: &Tree, top: Id, include_top: bool, matches: F) -> Self {
        let mut it = LxIter {
            top,
            next: NIL,
            matches,
        };
        it.next = if include_top && (it.matches)(tree.tag(top)) {
            top
        } else {
            it.find_from(tree, top)
        };
        it
    }

    fn find_from(&self, tree: &Tree, from: Id) -> Id {
        let mut id = tree.following(from, self.top);
        while id != NIL && !(self.matches)(tree.tag(id)) {
            id = tree.following(id, self.top);
        }
        id
    }

    pub fn next(&mut self, tree: &Tree) -> Option<Id> {
        let current = self.next;
        if current == NIL {
            return None;
        }
        self.next = self.find_from(tree, current);
        Some(current)
    }
}

#[cfg(test)]
mod tests;
