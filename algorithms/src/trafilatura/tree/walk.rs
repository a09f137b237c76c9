//! Walks over the tree in lxml's orders (the next element in document order, `iter()` with a
//! tag test, `itertext()`) and the text measures trafilatura takes along them.

use super::{Id, NIL, Tree};
use crate::trafilatura::pystr;
use crate::trafilatura::tag::Tag;

impl Tree {
    /// The element after `cur` in document order without leaving `top` (lxml's traversal: the
    /// first child, else the next sibling, else the next sibling of the nearest ancestor that
    /// has one; a walk climbing out of a detached subtree ends there).
    pub fn following(&self, cur: Id, top: Id) -> Id {
        let first = self.n(cur).first;
        if first != NIL {
            return first;
        }
        if cur == top {
            return NIL;
        }
        self.following_skipping_children(cur, top)
    }

    /// [`Tree::following`] without entering `cur`'s children.
    pub fn following_skipping_children(&self, cur: Id, top: Id) -> Id {
        let mut c = cur;
        loop {
            if c == top {
                return NIL;
            }
            let next = self.n(c).next;
            if next != NIL {
                return next;
            }
            c = self.n(c).parent;
            if c == NIL || c == top {
                return NIL;
            }
        }
    }

    /// The descendants of `root` (not itself) that `keep` accepts, in document order
    /// (`root.iterdescendants(...)` taken as a list; `.//x` in XPath).
    pub fn descendants_where(&self, root: Id, keep: impl Fn(&Tag) -> bool) -> Vec<Id> {
        let mut out = Vec::new();
        let mut id = self.following(root, root);
        while id != NIL {
            if keep(self.tag(id)) {
                out.push(id);
            }
            id = self.following(id, root);
        }
        out
    }

    /// The descendants of `root` (not itself) that `keep` accepts by id.
    pub fn descendants_matching(&self, root: Id, keep: impl Fn(&Tree, Id) -> bool) -> Vec<Id> {
        let mut out = Vec::new();
        let mut id = self.following(root, root);
        while id != NIL {
            if keep(self, id) {
                out.push(id);
            }
            id = self.following(id, root);
        }
        out
    }

    /// `root.iter(...)` taken as a list: `root` itself first if it matches.
    pub fn iter_where(&self, root: Id, keep: impl Fn(&Tag) -> bool) -> Vec<Id> {
        let mut out = Vec::new();
        if keep(self.tag(root)) {
            out.push(root);
        }
        out.extend(self.descendants_where(root, keep));
        out
    }

    /// The elements of `root.iter()` that `keep` accepts and that have no ancestor it accepts
    /// below `root`: the tops of the subtrees holding every accepted element.
    pub fn outermost_where(&self, root: Id, keep: impl Fn(&Tag) -> bool) -> Vec<Id> {
        let mut out = Vec::new();
        let mut id = root;
        while id != NIL {
            if keep(self.tag(id)) {
                out.push(id);
                id = self.following_skipping_children(id, root);
            } else {
                id = self.following(id, root);
            }
        }
        out
    }

    /// The first descendant (not `root`) `keep` accepts (`root.find(".//x")`).
    pub fn find_descendant(&self, root: Id, keep: impl Fn(&Tree, Id) -> bool) -> Id {
        let mut id = self.following(root, root);
        while id != NIL {
            if keep(self, id) {
                return id;
            }
            id = self.following(id, root);
        }
        NIL
    }

    pub fn has_descendant(&self, root: Id, tag: &Tag) -> bool {
        self.find_descendant(root, |t, id| t.is(id, tag)) != NIL
    }

    /// Calls `f` with each string lxml's `itertext()` yields for `id`: its text, then each
    /// descendant's text and tail in document order (not `id`'s own tail). Empty strings are
    /// yielded, absent ones are not.
    pub fn itertext(&self, id: Id, mut f: impl FnMut(&str)) {
        if let Some(t) = self.text(id) {
            f(t);
        }
        let mut cur = self.first_child(id);
        if cur == NIL {
            return;
        }
        // Depth-first with explicit returns to parents, so each tail follows its subtree.
        'walk: loop {
            if let Some(t) = self.text(cur) {
                f(t);
            }
            let first = self.first_child(cur);
            if first != NIL {
                cur = first;
                continue;
            }
            loop {
                if let Some(t) = self.tail(cur) {
                    f(t);
                }
                let next = self.next(cur);
                if next != NIL {
                    cur = next;
                    continue 'walk;
                }
                cur = self.parent(cur);
                if cur == id || cur == NIL {
                    break 'walk;
                }
            }
        }
    }

    /// `sep.join(elem.itertext())`.
    pub fn join_text(&self, id: Id, sep: &str) -> String {
        let mut out = String::new();
        let mut first = true;
        self.itertext(id, |s| {
            if !first {
                out.push_str(sep);
            }
            first = false;
            out.push_str(s);
        });
        out
    }

    /// `trim(sep.join(elem.itertext()))` for a separator that is empty or whitespace
    /// (`spaced`), built without the joined string.
    pub fn trimmed_join(&self, id: Id, spaced: bool) -> String {
        let mut out = pystr::Trimmed::default();
        let mut first = true;
        self.itertext(id, |s| {
            if spaced && !first {
                out.space();
            }
            first = false;
            out.feed(s);
        });
        out.finish()
    }

    /// `elem.text_content()`: all text inside the element, without its tail.
    pub fn text_content(&self, id: Id) -> String {
        self.join_text(id, "")
    }

    /// Code points of `trim(elem.text_content())` (the text with its whitespace runs made single
    /// spaces, stripped), without building it.
    pub fn trimmed_len(&self, id: Id) -> usize {
        let mut count = pystr::TrimCount::default();
        self.itertext(id, |s| count.feed(s));
        count.len()
    }

    /// Walks the elements under `root` (itself included) children first: `start(id)` makes an
    /// element's value, `add(parent_value, child, child_value)` folds each child's finished value
    /// into its parent's in document order, and `done(id, value)` sees every finished value.
    pub fn fold_up<A>(
        &self,
        root: Id,
        mut start: impl FnMut(Id) -> A,
        mut add: impl FnMut(&mut A, Id, &A),
        mut done: impl FnMut(Id, &A),
    ) {
        // (element, its value so far, its next child)
        let mut stack = vec![(root, start(root), self.n(root).first)];
        while let Some(top) = stack.last_mut() {
            let child = top.2;
            if child != NIL {
                top.2 = self.n(child).next;
                let value = start(child);
                stack.push((child, value, self.n(child).first));
                continue;
            }
            let Some((id, value, _)) = stack.pop() else {
                break;
            };
            done(id, &value);
            if let Some(parent) = stack.last_mut() {
                add(&mut parent.1, id, &value);
            }
        }
    }

    /// The trimmed-length measure of a text or tail (empty when absent).
    pub fn text_stats(&self, id: Id, tail: bool) -> pystr::TrimStats {
        let node = self.n(id);
        let s = if tail { &node.tail } else { &node.text };
        s.as_ref()
            .map_or_else(Default::default, |s| pystr::TrimStats::of(s))
    }

    /// For each element of `wanted` under `root` (itself included), the trimmed length of its
    /// text ([`Tree::trimmed_len`]) and the sum of the trimmed lengths of its descendants that
    /// `is_link` accepts, in one walk of the tree.
    pub fn text_and_link_lengths(
        &self,
        root: Id,
        wanted: &std::collections::HashSet<Id>,
        is_link: impl Fn(&Tag) -> bool,
    ) -> std::collections::HashMap<Id, (usize, usize)> {
        let mut out = std::collections::HashMap::with_capacity(wanted.len());
        self.fold_up(
            root,
            |id| (self.text_stats(id, false), 0usize),
            |parent, child, (text, links)| {
                let own = if is_link(self.tag(child)) {
                    text.trimmed_len()
                } else {
                    0
                };
                parent.0 = parent.0.then(*text).then(self.text_stats(child, true));
                parent.1 += links + own;
            },
            |id, (text, links)| {
                if wanted.contains(&id) {
                    out.insert(id, (text.trimmed_len(), *links));
                }
            },
        );
        out
    }

    /// Code points of [`Tree::text_content`], without building it.
    pub fn text_content_len(&self, id: Id) -> usize {
        let mut n = 0;
        self.itertext(id, |s| n += s.chars().count());
        n
    }
}
