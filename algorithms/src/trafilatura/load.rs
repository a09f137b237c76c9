//! `utils.load_html` for a page given as a string: the repairs trafilatura makes to the text,
//! libxml2's tree (the crate's libxml2-faithful builder, attributes kept), `lxml.html.fromstring`'s
//! choice of root, and the rejection of a short fragment that does not look like HTML.

use std::borrow::Cow;
use std::sync::LazyLock;

use html5ever::LocalName;
use regex::Regex;

use super::tag::Tag;
use super::tree::{Id, NIL, Tree, is_xml_compatible};
use crate::html::dom::{NodeKind, Page};
use crate::html::{Limits, NodeId};
use crate::justext::root::{Comments, choose_root_of_tree, is_empty_document};

static DOCTYPE_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^< ?! ?DOCTYPE[^>]*/[^<>]*>").expect("valid"));
static FAULTY_HTML: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(<html.*?)\s*/>").expect("valid"));

/// `INVALID_XML_CHARS`: `[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]`, the characters lxml refuses.
fn is_invalid_xml_char(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// `repair_faulty_html`: control characters deleted, a doctype holding a `/` on the first line
/// removed, a self-closed `<html .../>` in the first four lines opened.
fn repair<'a>(html: &'a str, beginning: &str) -> Cow<'a, str> {
    let mut s = if !is_xml_compatible(html) {
        Cow::Owned(html.chars().filter(|&c| !is_invalid_xml_char(c)).collect())
    } else {
        Cow::Borrowed(html)
    };
    if beginning.contains("doctype") {
        // `partition("\n")`: without a line feed the whole text is the first line, and the
        // rejoin adds one.
        let split = s.split_once('\n');
        let (first, rest) = split.unwrap_or((&s, ""));
        let replaced = DOCTYPE_TAG.replace(first, "");
        // Unchanged unless the doctype went or a line feed is added.
        if matches!(replaced, Cow::Owned(_)) || split.is_none() {
            let repaired = format!("{replaced}\n{rest}");
            s = Cow::Owned(repaired);
        }
    }
    let head_end = s.char_indices().nth(4096).map_or(s.len(), |(i, _)| i);
    let opened = super::pystr::lines(&s[..head_end])
        .take(4)
        .any(|line| line.contains("<html") && line.ends_with("/>"));
    if opened && let Cow::Owned(fixed) = FAULTY_HTML.replace(&s, "$1>") {
        s = Cow::Owned(fixed);
    }
    s
}

/// The tree trafilatura gets for a page, or None where `load_html` returns None (an empty
/// document, or a fragment without "html" in its first 50 characters whose root has fewer than
/// two children). Returns the tree and its root.
pub fn load_html(html: &str, limits: &Limits) -> Option<(Tree, Id)> {
    let beginning: String = html.chars().take(50).flat_map(char::to_lowercase).collect();
    let dubious = !beginning.contains("html");
    let repaired = repair(html, &beginning);
    let mut tree = Tree::new();
    let top = parse_into(&mut tree, &repaired, limits)?;
    if dubious && tree.len(top) < 2 {
        return None;
    }
    Some((tree, top))
}

/// How many trees of a page's size an extraction builds.
const EXPECTED_COPIES: usize = 4;

/// `lxml.html.fromstring(html, parser=HTML_PARSER)` into `tree`: the root it returns, None where
/// lxml raises ("Document is empty").
pub fn parse_into(tree: &mut Tree, html: &str, limits: &Limits) -> Option<Id> {
    if is_empty_document(html) {
        return None;
    }
    let mut page = Page::parse_as_libxml2_with_attributes(html, limits);
    let root = choose_root_of_tree(&page, html, Comments::Removed)?;
    // An extraction copies the page's tree about four times (cleaning, its backup, the
    // comparison's raw copy, readability's reparse): room for them at once rather than by
    // repeated doubling. A later parse into the same tree (readability's) mostly finds the
    // room already there.
    let elements = page
        .nodes
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Element(_)))
        .count();
    tree.reserve(EXPECTED_COPIES * elements);
    Some(convert(
        &mut page,
        root.node,
        Tag::from_name(&root.name),
        tree,
    ))
}

/// Builds the tree of `page` under `root` (named `root_tag`) in `tree`, moving the attributes
/// out of `page`; returns its root.
fn convert(page: &mut Page, root: NodeId, root_tag: Tag, tree: &mut Tree) -> Id {
    let mut clean = true;
    let top = tree.new_element(root_tag);
    copy_attributes(page, root, top, tree, &mut clean);
    let mut stack: Vec<(NodeId, Id)> = vec![(root, top)];
    let mut children = Vec::new();
    while let Some((node, element)) = stack.pop() {
        // Text goes to the element's text until its first child, then to the last child's
        // tail; comments are not in lxml's tree, so the text either side of one joins.
        let mut slot = NIL;
        children.clear();
        children.extend(page.children(node));
        for &child in &children {
            let tag = match &page.node(child).kind {
                NodeKind::Text(t) => {
                    clean &= is_xml_compatible(t);
                    if slot == NIL {
                        tree.push_parsed_text(element, false, t);
                    } else {
                        tree.push_parsed_text(slot, true, t);
                    }
                    continue;
                }
                NodeKind::Element(e) => Tag::from_name(&e.name),
                _ => continue,
            };
            let id = tree.new_element(tag);
            tree.append(element, id);
            copy_attributes(page, child, id, tree, &mut clean);
            stack.push((child, id));
            slot = id;
        }
    }
    // The root's tail: the text after it in its parent, up to the next element.
    let mut sibling = page.node(root).next_sibling;
    while sibling != crate::html::dom::NONE {
        match &page.node(sibling).kind {
            NodeKind::Text(t) => {
                clean &= is_xml_compatible(t);
                tree.push_parsed_text(top, true, t);
            }
            NodeKind::Element(_) => break,
            _ => {}
        }
        sibling = page.node(sibling).next_sibling;
    }
    if !clean {
        tree.check_writes();
    }
    top
}

fn copy_attributes(page: &mut Page, node: NodeId, id: Id, tree: &mut Tree, clean: &mut bool) {
    let attrs = page.attributes_mut(node);
    if attrs.is_empty() {
        return;
    }
    let attrs: Vec<_> = attrs
        .iter_mut()
        .map(|a| {
            *clean &= is_xml_compatible(&a.value);
            (
                std::mem::replace(&mut a.name.local, LocalName::default()),
                std::mem::take(&mut a.value),
            )
        })
        .collect();
    tree.set_parsed_attrs(id, attrs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repairs_as_trafilatura() {
        let b = |s: &str| {
            s.chars()
                .take(50)
                .flat_map(char::to_lowercase)
                .collect::<String>()
        };
        let page = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0//EN\">\n<p>a\u{1}b";
        assert_eq!(repair(page, &b(page)), "\n<p>ab");
        let page = "<!doctype html>";
        assert_eq!(repair(page, &b(page)), "<!doctype html>\n");
        let page = "<html lang=\"en\" />\n<p>x";
        assert_eq!(repair(page, &b(page)), "<html lang=\"en\">\n<p>x");
    }

    #[test]
    fn fragments_need_two_children_without_html() {
        let limits = Limits::default();
        assert!(load_html("<p>one paragraph</p>", &limits).is_none());
        assert!(load_html("", &limits).is_none());
        let (tree, root) = load_html("<p>a</p><p>b</p>", &limits).unwrap();
        assert_eq!(tree.tag(root), &Tag::Div);
        let (tree, root) =
            load_html("<html><body><p class='x' id=y>a<!-- c -->b</p>t", &limits).unwrap();
        assert_eq!(tree.tag(root), &Tag::Html);
        let body = tree.first_child(root);
        let p = tree.first_child(body);
        assert_eq!(tree.text(p), Some("ab"));
        assert_eq!(tree.tail(p), Some("t"));
        assert_eq!(tree.attrs(p).len(), 2);
    }
}
