//! Which element jusText walks from: `lxml.html.fromstring`'s root choice, on the libxml2 tree
//! (`Page::parse_as_libxml2`). The root fixes the start of every `dom_path` and `xpath`.

use html5ever::{LocalName, local_name};

use crate::html::NodeId;
use crate::html::dom::{NodeKind, Page};
use crate::html::text::{is_blank, is_py_space};

/// The root element and the name the walk gives it (lxml renames a fragment's body).
#[derive(Debug, Clone, PartialEq)]
pub struct Root {
    pub node: NodeId,
    pub name: LocalName,
}

/// lxml's `defs.block_tags` (lxml 6.1.3): a fragment body holding any of them becomes a `div`,
/// else a `span`.
fn is_block_tag(name: &LocalName) -> bool {
    matches!(
        &**name,
        // general_block_tags
        "address" | "blockquote" | "center" | "del" | "div" | "h1" | "h2" | "h3" | "h4" | "h5"
            | "h6" | "hr" | "ins" | "isindex" | "noscript" | "p" | "pre"
            // list_tags
            | "dir" | "dl" | "dt" | "dd" | "li" | "menu" | "ol" | "ul"
            // table_tags
            | "table" | "caption" | "colgroup" | "col" | "thead" | "tfoot" | "tbody" | "tr"
            | "td" | "th"
            // partial form tags
            | "fieldset" | "form" | "legend" | "optgroup" | "option"
    )
}

/// `^\s*<(?:html|!doctype)` (case-insensitive, Python whitespace): lxml then keeps the whole document.
pub fn looks_like_full_html(decoded: &str) -> bool {
    let rest = decoded.trim_start_matches(is_py_space).as_bytes();
    let starts = |p: &[u8]| rest.len() >= p.len() && rest[..p.len()].eq_ignore_ascii_case(p);
    starts(b"<html") || starts(b"<!doctype")
}

pub fn choose_root(page: &Page, decoded: &str) -> Option<Root> {
    choose_root_of_tree(page, decoded, Comments::Kept)
}

/// Whether the parser kept comments in the tree (lxml's default) or dropped them
/// (`remove_comments=True`, as trafilatura parses): the fragment rules count a body's children
/// and read its text around them, so a comment changes the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comments {
    Kept,
    Removed,
}

/// [`choose_root`] for a tree whose comments are [`Comments::Kept`] or not.
pub fn choose_root_of_tree(page: &Page, decoded: &str, comments: Comments) -> Option<Root> {
    let html = page.html()?;
    let whole = Root {
        node: html,
        name: local_name!("html"),
    };
    if looks_like_full_html(decoded) {
        return Some(whole);
    }
    let head = page.child_element(html, &local_name!("head"));
    if page.explicit_head_tag || head.is_some_and(|h| page.children(h).next().is_some()) {
        return Some(whole);
    }
    let Some(body) = page.child_element(html, &local_name!("body")) else {
        return Some(whole);
    };
    Some(fragment_root(page, body, comments))
}

/// A fragment: its single element, or the body renamed `div`/`span`.
fn fragment_root(page: &Page, body: NodeId, comments: Comments) -> Root {
    let mut children = 0;
    let mut only_child = None;
    // `body.text` and the last child's tail are blank: the text before the first child and
    // after the last one (a dropped comment is no child, and the text around it is one).
    let mut text_blank = true;
    let mut pending_blank = true;
    for c in page.children(body) {
        match &page.node(c).kind {
            NodeKind::Text(t) => pending_blank &= is_blank(t),
            NodeKind::Element(e) => {
                text_blank &= pending_blank;
                pending_blank = true;
                children += 1;
                only_child = Some((c, e.name.clone()));
            }
            NodeKind::Comment if comments == Comments::Removed => {}
            _ => {
                text_blank &= pending_blank;
                pending_blank = true;
                children += 1;
            }
        }
    }
    text_blank &= pending_blank;
    if let (1, true, Some((node, name))) = (children, text_blank, only_child.clone()) {
        return Root { node, name };
    }
    let name = if contains_block_tag(page, body) {
        local_name!("div")
    } else {
        local_name!("span")
    };
    Root { node: body, name }
}

fn contains_block_tag(page: &Page, node: NodeId) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        for c in page.children(n) {
            if let Some(e) = page.element(c) {
                if is_block_tag(&e.name) {
                    return true;
                }
                stack.push(c);
            }
        }
    }
    false
}

/// True when the page holds no element and no text outside comments, doctypes and processing
/// instructions: libxml2 then builds no document and lxml raises "Document is empty".
pub fn is_empty_document(decoded: &str) -> bool {
    let mut rest = decoded;
    loop {
        rest = rest.trim_start_matches(is_py_space);
        if rest.is_empty() {
            return true;
        }
        let end = if rest.starts_with("<!--") {
            rest[4..].find("-->").map(|i| i + 7)
        } else if rest.starts_with("<!") || rest.starts_with("<?") {
            rest.find('>').map(|i| i + 1)
        } else {
            return false;
        };
        match end {
            Some(e) => rest = &rest[e..],
            None => return true, // an unclosed comment swallows the rest
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root_name(html: &str) -> String {
        let page = Page::parse_as_libxml2(html, &Default::default());
        choose_root(&page, html)
            .map(|r| r.name.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn full_documents_keep_html() {
        assert_eq!(root_name("  <!DOCTYPE html><p>x"), "html");
        assert_eq!(root_name("<HTML><body><p>x"), "html");
        assert_eq!(
            root_name("<title>t</title><p>x"),
            "html",
            "head content makes a head"
        );
    }

    #[test]
    fn fragments_choose_like_lxml() {
        assert_eq!(root_name("<p>x</p>"), "p");
        assert_eq!(root_name("<p>x</p><p>y</p>"), "div");
        assert_eq!(root_name("<b>x</b> y"), "span");
        // lxml 6.1.3's block tags include table cells and list items, not noframes.
        assert_eq!(root_name("<td>b</td><tr><td>c</td></tr>"), "div");
        assert_eq!(root_name("<i>x</i><li>y</li>"), "div");
        assert_eq!(root_name("<i>x</i><noframes>y</noframes>"), "span");
        assert_eq!(
            root_name("<!-- c --><html><body><h1>x</h1><p>y</p></body></html>"),
            "div"
        );
        assert_eq!(root_name("\u{FEFF}<html><body><p>x</p><p>y</p>"), "div");
    }

    #[test]
    fn empty_documents() {
        assert!(is_empty_document(""));
        assert!(is_empty_document(" \n\t"));
        assert!(is_empty_document("<!-- only a comment -->"));
        assert!(is_empty_document("<!DOCTYPE html>"));
        assert!(!is_empty_document("x"));
        assert!(!is_empty_document("<p>"));
    }
}
