//! The crate's tokenizer (algorithms/src/html/tokenizer.rs) against html5ever's: both feed the same tree
//! builder and sink, so on any page the trees must be identical, node for node. Pages here are
//! generated from fragments that exercise each tokenizer state (and, cut at random points, the
//! end of the page inside each state); `cargo run --example tokenizer_differential` does the same
//! over the evaluation pages.

use datafusion_webtext::html::dom::Node;
use datafusion_webtext::html::{Limits, NodeKind, Page};

const FRAGMENTS: &[&str] = &[
    // Text, character references and line breaks.
    "plain text ",
    "a &amp; b &lt;&gt; &quot;",
    "&nbsp;&copy&copy;&notit; &notin; &not;x &amp",
    "&#65;&#x41;&#X41;&#0;&#128;&#x81;&#x9F;&#xD800;&#x110000;&#99999999999;&#;&#x;&#a",
    "&unknown; &; & x &&amp;&#12 &#x1F600;",
    "&AElig &aeligx &lt3 &gtx",
    "line\r\nbreak\rcarriage\n",
    "nul\0char",
    "é ü 中文 😀",
    // Tags and attributes.
    "<p>",
    "</p>",
    "<P CLASS=x>",
    "<div id=a class='b' title=\"c\" data-x=y>",
    "<div a=1 a=2 A=3>",
    "<a href=\"/x?a=1&amp;b=2&c=3&copy=4&copy;\">link</a>",
    "<a href=x&ampy title='&amp;&lt'>",
    "<b id=1>",
    "<b id=1>",
    "<b id=1>",
    "<b id=1>",
    "<b ID=1 class=x>",
    "</b>",
    "<i>",
    "<font color=red>",
    "<span x = 'y' z>",
    "<img src=x/>",
    "<br/>",
    "<br / >",
    "</br>",
    "<input type=hidden>",
    "<input TYPE=HIDDEN>",
    "<input type=text>",
    "<link rel=stylesheet href=x>",
    "<link REL='Alternate StyleSheet'>",
    "<div =x>",
    "<div x=>",
    "<div x= >",
    "<div \"a\"='b' <c=d>",
    "<div a='x'b='y'>",
    "<div a=`x` b=<y>",
    "<div/ id=x>",
    "<div//>",
    "</div foo=bar>",
    "</div/>",
    "</>",
    "</ x>",
    "< p>",
    "<3",
    "a < b > c",
    "<",
    "<x-y:z>",
    // Comments, bogus comments and doctypes.
    "<!-- c -->",
    "<!-->",
    "<!--->",
    "<!---->",
    "<!-- a --!> b",
    "<!-- a --!-> b -->",
    "<!-- <!-- nested --> -->",
    "<!--<!-->",
    "<!-- x -- y -->",
    "<!-- ---> ",
    "<!-",
    "<!x>",
    "<?xml version='1.0'?>",
    "<!DOCTYPE html>",
    "<!doctype html public \"-//W3C//DTD HTML 4.01 Transitional//EN\">",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">",
    "<!DOCTYPE>",
    "<!DOCTYPEhtml>",
    "<!DOCTYPE html SYSTEM 'about:legacy-compat'>",
    "<!DOCTYPE html PUBLIC \"unterminated>",
    // Raw text elements.
    "<script>var a = '<b>' + 1 < 2;</script>",
    "<script>a</SCRIPT >b",
    "<script><!-- x --></script>",
    "<script><!--<script>x</script>y</script>z",
    "<script><!-- <script> --> </script>",
    "<script><!--<scriptx></script>",
    "<script><!-- </script> --></script>",
    "<script><!--<script></scripty></script>-->",
    "<script>--></script>",
    "<script></scrip",
    "<script><!--",
    "<style>p { color: red } </p> <b></style>",
    "<style>a</style x=\"y\">",
    "<title>T &amp; <b>t</b></title>",
    "<title>a</titlex></title>",
    "<textarea>\n<b>&lt;x</textarea>",
    "<xmp><b></xmp>",
    "<iframe><p>x</iframe>",
    "<noembed><p></noembed>",
    "<noframes>x</noframes>",
    "<noscript><p>n</p></noscript>",
    "<plaintext><b>&amp;",
    "<pre>\nx</pre>",
    "<pre>&#10;x</pre>",
    "<pre></>\nx</pre>",
    "<listing/></>\ny</listing>",
    "<listing>\r\ny</listing>",
    // Tables, foreign content and templates.
    "<table>",
    "<table><tr><td>",
    "text in table",
    "<table>x<tr> y <td>z</td></tr></table>",
    "</table>",
    "<svg>",
    "<svg><![CDATA[ <b>x</b> ]]></svg>",
    "<math><mi><![CDATA[x]]></mi></math>",
    "<![CDATA[ outside ]]>",
    "<svg><font color=red>x</font></svg>",
    "<svg><foreignObject><p>y</p></foreignObject></svg>",
    "<svg viewBox='0 0 1 1'><path d=M0/></svg>",
    "<math><annotation-xml encoding='text/html'><p>x</p></annotation-xml></math>",
    "<template shadowrootmode=open><p>s</p></template>",
    "<template>t</template>",
    "<select><option>a<option>b</select>",
    "<frameset><frame></frameset>",
    "<html lang=en>",
    "<head>",
    "<body class=x>",
    "</body>",
    "</html>",
    "<h1>",
    "<ul><li>a<li>b</ul>",
    "<form><input></form>",
];

fn describe(node: &Node) -> String {
    let kind = match &node.kind {
        NodeKind::Text(text) => format!("Text({:?})", &**text),
        other => format!("{other:?}"),
    };
    format!(
        "parent {} prev {} next {} first {} last {} {kind}",
        node.parent, node.prev_sibling, node.next_sibling, node.first_child, node.last_child
    )
}

fn tree(page: &Page) -> Vec<String> {
    let mut lines: Vec<String> = page.nodes.iter().map(describe).collect();
    lines.push(format!("explicit head tag: {}", page.explicit_head_tag));
    lines
}

fn assert_same_tree(html: &str, limits: &Limits) {
    let ours = tree(&Page::parse_with(html, limits));
    let reference = tree(&Page::parse_with_html5ever_tokenizer(html, limits));
    if ours != reference {
        let at = ours
            .iter()
            .zip(&reference)
            .position(|(a, b)| a != b)
            .unwrap_or(ours.len().min(reference.len()));
        panic!(
            "trees differ for {html:?} at node {at}:\n  ours: {:?}\n  html5ever: {:?}",
            ours.get(at),
            reference.get(at)
        );
    }
}

/// xorshift64*: a fixed, dependency-free sequence of pages.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

#[test]
fn every_fragment_alone_and_cut_short_builds_the_same_tree() {
    let limits = Limits::default();
    for fragment in FRAGMENTS {
        assert_same_tree(fragment, &limits);
        let framed = format!("<p>before {fragment} after</p>");
        assert_same_tree(&framed, &limits);
        for (cut, _) in fragment.char_indices() {
            assert_same_tree(&fragment[..cut], &limits);
        }
    }
}

#[test]
fn many_attributes_with_duplicates_keep_the_first_of_each_name() {
    let mut tag = String::from("<b");
    for i in 0..40 {
        tag.push_str(&format!(" a{}={i}", i % 23));
    }
    tag.push_str(" A3=x>");
    let page = format!("{tag}x{tag}y{tag}z{tag}w<p>v");
    assert_same_tree(&page, &Limits::default());
}

#[test]
fn the_attribute_cap_never_touches_script_text() {
    // Found by the tokenizer fuzz target: 1,000 words after an escaped `</script` are not
    // attributes (the script goes on), so the cap must leave them all in the script's text.
    let words = "w ".repeat(1_200);
    let page = format!("<script><!--<script </script {words}</c");
    let unbounded = Limits {
        max_attributes: usize::MAX,
        ..Limits::default()
    };
    let ours = tree(&Page::parse_with(&page, &Limits::default()));
    let reference = tree(&Page::parse_with_html5ever_tokenizer(&page, &unbounded));
    assert_eq!(ours, reference);
    assert!(ours.iter().any(|n| n.ends_with(&format!("{words}</c\")"))));
}

#[test]
fn a_newline_after_pre_is_kept_past_an_empty_end_tag() {
    // Found by the tokenizer fuzz target: html5ever's tree builder drops the newline after
    // `<pre>` only if it is the next token, and `</>` gives one (a parse error) though it
    // builds nothing.
    for page in ["<pre></>\nx</pre>", "<pre a b/></>\n tr\n<pre>y"] {
        assert_same_tree(page, &Limits::default());
        let texts: Vec<String> = Page::parse(page)
            .nodes
            .iter()
            .filter_map(|n| match &n.kind {
                NodeKind::Text(t) => Some(t.to_string()),
                _ => None,
            })
            .collect();
        assert!(texts[0].starts_with('\n'), "{page:?}: {texts:?}");
    }
}

#[test]
fn a_byte_order_mark_is_dropped_only_at_the_start() {
    let limits = Limits::default();
    assert_same_tree("\u{FEFF}<p>x", &limits);
    // html5ever drops U+FEFF at the start of every `feed`, and the reference loop feeds again
    // after each `</script>`; the spec (and the crate's tokenizer) keep it there as text.
    let page = Page::parse("<script></script>\u{FEFF}x");
    let texts: Vec<&str> = page
        .nodes
        .iter()
        .filter_map(|n| match &n.kind {
            NodeKind::Text(t) => Some(&**t),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["\u{FEFF}x"]);
}

#[test]
fn generated_pages_build_the_same_tree() {
    let limits = Limits::default();
    let mut random = Random(0x9E37_79B9_7F4A_7C15);
    for _ in 0..6_000 {
        let mut page = String::new();
        for _ in 0..1 + random.below(14) {
            page.push_str(FRAGMENTS[random.below(FRAGMENTS.len())]);
        }
        assert_same_tree(&page, &limits);
        let boundaries: Vec<usize> = page.char_indices().map(|(i, _)| i).collect();
        let cut = boundaries[random.below(boundaries.len())];
        assert_same_tree(&page[..cut], &limits);
    }
}

#[test]
fn attribute_and_depth_limits_cut_the_same_tree() {
    let limits = Limits {
        max_attributes: 2,
        max_depth: 4,
        ..Limits::default()
    };
    // The reference caps attributes in a pre-pass that skips comments and raw text roughly
    // (algorithms/src/html/limits.rs), so these pages have neither.
    let tags_only: Vec<&str> = FRAGMENTS
        .iter()
        .copied()
        .filter(|f| {
            !f.contains("<!")
                && !f.contains("<?")
                && !Page::parse(f).nodes.iter().any(|n| {
                    matches!(&n.kind, NodeKind::Element(e) if matches!(&*e.name,
                "script" | "style" | "title" | "textarea" | "xmp" | "iframe" | "noembed"
                | "noframes" | "plaintext"))
                })
        })
        .collect();
    let mut random = Random(42);
    for _ in 0..2_000 {
        let mut page = String::new();
        for _ in 0..1 + random.below(10) {
            page.push_str(tags_only[random.below(tags_only.len())]);
        }
        assert_same_tree(&page, &limits);
    }
    assert_same_tree(
        "<b a=1 b=2 c=3><b a=1 b=2 d=4><b a=1 b=2 e=5><b a=1 b=2 f=6><p>x",
        &limits,
    );
    assert_same_tree(
        "<link a=1 b=2 rel=stylesheet><link rel=stylesheet a=1 b=2>",
        &limits,
    );
}
