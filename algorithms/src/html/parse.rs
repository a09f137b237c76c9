//! Parsing a decoded page into either tree: the HTML5 tree (html5ever's tree builder over
//! `html5_tree`'s sink, the tree boilerpipe and the extractor read) or libxml2's (`libxml2`, the
//! tree jusText reads), both fed by the crate's tokenizer.

use std::borrow::Cow;

use html5ever::TokenizerResult;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};

use super::dom::Page;
use super::html5_tree::TagTracker;
use super::libxml2::Libxml2TreeBuilder;
use super::limits::{Limits, cap_attributes};
use super::tokenizer::{KeptAttributes, tokenize};

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
    /// re-opened within a budget (see [`BYTES_PER_REOPENED`](super::html5_tree::BYTES_PER_REOPENED)). As a last resort, a tree that would
    /// need more nodes than the page has bytes ends at that point.
    pub fn parse_with(html: &str, limits: &Limits) -> Page {
        let html = preprocess(html);
        let tracker = TagTracker::new(&html, limits);
        tokenize(
            &html,
            &tracker,
            limits.max_attributes,
            KeptAttributes::Named,
        );
        tracker.into_page(&html)
    }

    /// Parses a decoded page into the tree libxml2 2.14 builds for it, the tree Python jusText
    /// reads (see src/html/libxml2.rs). Input is preprocessed as in [`Page::parse_with`]; no
    /// element deeper than `limits.max_depth` is built, and, as in libxml2, the page ends where
    /// a 257th element would open ([`super::libxml2::MAX_OPEN_ELEMENTS`]).
    pub fn parse_as_libxml2(html: &str, limits: &Limits) -> Page {
        Page::build_as_libxml2(html, limits, false)
    }

    /// [`Page::parse_as_libxml2`], keeping every element's attributes in source order
    /// ([`Page::attributes_of`]): the tree trafilatura reads through lxml.
    pub fn parse_as_libxml2_with_attributes(html: &str, limits: &Limits) -> Page {
        Page::build_as_libxml2(html, limits, true)
    }

    fn build_as_libxml2(html: &str, limits: &Limits, keep_attributes: bool) -> Page {
        let html = preprocess(html);
        let builder = Libxml2TreeBuilder::new(html.len(), limits.max_depth, keep_attributes);
        let kept = if keep_attributes {
            KeptAttributes::All
        } else {
            KeptAttributes::Structural
        };
        tokenize(&html, &builder, limits.max_attributes, kept);
        let (nodes, head_built, attributes) = builder.finish();
        Page {
            nodes,
            explicit_head_tag: head_built,
            attribute_text: String::new(),
            attributes,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::dom::*;
    use crate::html::html5_tree::BYTES_PER_REOPENED;
    use html5ever::local_name;

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
