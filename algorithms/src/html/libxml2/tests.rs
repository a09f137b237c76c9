use super::*;
use crate::html::{Limits, Page};

/// The tree as `<name>` ... `</name>` with text quoted, the document's children joined by
/// ` || `: the format the expected trees below were printed in by lxml 6.1.3 (libxml2
/// 2.14.6) for the same input.
fn tree(html: &str) -> String {
    fn dump(page: &Page, node: NodeId, out: &mut String) {
        for child in page.children(node) {
            match &page.node(child).kind {
                NodeKind::Element(e) => {
                    out.push_str(&format!("<{}>", &*e.name));
                    dump(page, child, out);
                    out.push_str(&format!("</{}>", &*e.name));
                }
                NodeKind::Text(t) => out.push_str(&format!("'{}'", &**t)),
                NodeKind::Comment => out.push_str("<!-->"),
                _ => {}
            }
        }
    }
    let page = Page::parse_as_libxml2(html, &Limits::default());
    page.children(DOCUMENT)
        .map(|top| {
            let mut out = String::new();
            match &page.node(top).kind {
                NodeKind::Element(e) => {
                    out.push_str(&format!("<{}>", &*e.name));
                    dump(&page, top, &mut out);
                    out.push_str(&format!("</{}>", &*e.name));
                }
                _ => out.push_str("<!-->"),
            }
            out
        })
        .collect::<Vec<_>>()
        .join(" || ")
}

#[track_caller]
fn check(cases: &[(&str, &str)]) {
    for (html, expected) in cases {
        assert_eq!(tree(html), *expected, "{html}");
    }
}

#[test]
fn a_start_tag_closes_the_current_element_by_libxml2s_pairs_and_nothing_is_reopened() {
    check(&[
        (
            "<b>x<p>y</p></b>z",
            "<html><body><b>'x'</b><p>'y'</p>'z'</body></html>",
        ),
        (
            "<p><b>x<p>y",
            "<html><body><p><b>'x'</b></p><p>'y'</p></body></html>",
        ),
        (
            "<p>a<div>b</div>c",
            "<html><body><p>'a'</p><div>'b'</div>'c'</body></html>",
        ),
        // Only the current element is checked: the `<span>` keeps the `<div>` in the `<p>`.
        (
            "<p>a<span>b<div>c",
            "<html><body><p>'a'<span>'b'<div>'c'</div></span></p></body></html>",
        ),
        ("<a>1<a>2", "<html><body><a>'1'</a><a>'2'</a></body></html>"),
        (
            "<a href=x>1<div>2</div>3</a>",
            "<html><body><a>'1'<div>'2'</div>'3'</a></body></html>",
        ),
        (
            "<center><font>x<center>y",
            "<html><body><center><font>'x'</font><center>'y'</center></center></body></html>",
        ),
        (
            "<form><p>a<form>b",
            "<html><body><form><p>'a'</p></form><form>'b'</form></body></html>",
        ),
        (
            "<p>a<ul><li>b</ul>c",
            "<html><body><p>'a'</p><ul><li>'b'</li></ul>'c'</body></html>",
        ),
        (
            "<dl><dt>a<dd>b<dt>c</dl>",
            "<html><body><dl><dt>'a'</dt><dd>'b'</dd><dt>'c'</dt></dl></body></html>",
        ),
        (
            "<table><tr><td>a<tr><td>b</table>",
            "<html><body><table><tr><td>'a'</td></tr><tr><td>'b'</td></tr></table></body></html>",
        ),
        // No tbody, no foster parenting.
        (
            "<table><tr><td>a</td></tr>text</table>",
            "<html><body><table><tr><td>'a'</td></tr>'text'</table></body></html>",
        ),
        (
            "<option>a<optgroup>b",
            "<html><body><option>'a'</option><optgroup>'b'</optgroup></body></html>",
        ),
    ]);
}

#[test]
fn an_end_tag_closes_down_to_its_element_unless_a_higher_priority_element_is_inside() {
    check(&[
        (
            "<font><p>x</font>y",
            "<html><body><font><p>'x'</p></font>'y'</body></html>",
        ),
        (
            "<b><i>x</b>y</i>z",
            "<html><body><b><i>'x'</i></b>'yz'</body></html>",
        ),
        // `</div>` cannot close a `<td>`; `</ul>` cannot close a `<div>`.
        (
            "<div>a<table><tr><td>b</div>c",
            "<html><body><div>'a'<table><tr><td>'bc'</td></tr></table></div></body></html>",
        ),
        (
            "<ul><li>a<div>b</ul>c",
            "<html><body><ul><li>'a'<div>'bc'</div></li></ul></body></html>",
        ),
        // End tags of elements that are not open are ignored (HTML5 would close the `<h2>`
        // and make `</p>` and `</br>` elements).
        ("<h2>a</h3>b", "<html><body><h2>'ab'</h2></body></html>"),
        ("a</p>b", "<html><body>'ab'</body></html>"),
        ("<br/>a</br>b", "<html><body><br></br>'ab'</body></html>"),
    ]);
}

#[test]
fn void_elements_are_html4s_and_any_tag_can_close_itself() {
    check(&[
        ("<div/>x", "<html><body><div></div>'x'</body></html>"),
        ("<wbr>a", "<html><body><wbr>'a'</wbr></body></html>"),
        (
            "<object><param>a</object>",
            "<html><body><object><param></param>'a'</object></body></html>",
        ),
        // Closed at once, a `<script/>` reads nothing as script.
        (
            "<script/>alert(1)</script>x",
            "<html><head><script></script></head><body>'alert(1)x'</body></html>",
        ),
    ]);
}

#[test]
fn html_head_and_body_are_implied_and_misplaced_ones_ignored_as_in_libxml2() {
    check(&[
        ("hello", "<html><body>'hello'</body></html>"),
        (
            "<title>t</title>x",
            "<html><head><title>'t'</title></head><body>'x'</body></html>",
        ),
        (
            "<head><p>x",
            "<html><head></head><body><p>'x'</p></body></html>",
        ),
        // HTML5's elements do not close a head: their text is lost with it.
        (
            "<head><article>x",
            "<html><head><article>'x'</article></head></html>",
        ),
        ("<p>a</body>b", "<html><body><p>'a'</p></body>'b'</html>"),
        (
            "a</body><script>s</script>",
            "<html><body>'a'</body><script>'s'</script></html>",
        ),
        (
            "<body>a</body><head><title>t</title>",
            "<html><body>'a'</body><head><title>'t'</title></head></html>",
        ),
        // A misplaced `<body>` is ignored, and so is one `</body>` for it.
        (
            "x<body>y</body>z</body>w",
            "<html><body>'xyz'</body>'w'</html>",
        ),
        (
            "<p>a<head>b</head>c",
            "<html><body><p>'a'</p>'bc'</body></html>",
        ),
        // After `</html>`, another root, which lxml never returns.
        (
            "<html><body><p>a</p></body></html><p>b</p>",
            "<html><body><p>'a'</p></body></html> || <html><p>'b'</p></html>",
        ),
        (
            "<html></html>\n x",
            "<html></html> || <html><body>'x'</body></html>",
        ),
        (
            "<!--c--><p>a",
            "<!--> || <html><body><p>'a'</p></body></html>",
        ),
    ]);
}

#[test]
fn libxml2_stops_reading_where_a_257th_element_would_open() {
    let page = |divs: usize| format!("{}x{}<p>after", "<div>".repeat(divs), "</div>".repeat(divs));
    // html, body and 254 divs are 256 elements: all is read.
    let kept = tree(&page(254));
    assert!(
        kept.contains("'x'") && kept.contains("<p>'after'</p>"),
        "{kept}"
    );
    // The 255th div is not built, and nothing after it is read.
    let cut = tree(&page(255));
    assert_eq!(cut.matches("<div>").count(), 254);
    assert!(!cut.contains('x') && !cut.contains("after"), "{cut}");
}
