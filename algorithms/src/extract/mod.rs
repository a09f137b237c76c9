//! A main-content extractor of our own, the SQL function
//! `extract_content`.
//!
//! It scores containers as Arc90's Readability does, over the html5ever tree the crate
//! already builds: the page is cut into text segments at block elements (what an inline style
//! does not display is skipped; a paragraph inside a link is prose); each segment of 25
//! characters or more gives its container's parent a score (1, plus its commas, plus a point per
//! 100 characters up to 3) and half of it to the grandparent; a candidate's score is discounted
//! by its link density; the best candidate and its siblings that score at least a fifth of it
//! hold the text, of which the segments that are mostly links are dropped.
//! That choice is kept when it holds at least 40% of the good text of the element with the
//! most text mass (good characters less twice the link-heavy ones); otherwise that element is
//! the text. Class and id names weigh in ([`class_names`]): elements named comments, footers,
//! promotions, related links and the like are left out unless they hold the page's `<h1>` or
//! `<main>`, and a candidate named as text (or as boilerplate) gains (or loses) 25 points.
//! A page whose text comes out short is read again as a listing ([`as_listing`]): its linked
//! titles count as text.
//! With `format=markdown` the same segments are written with their structure ([`markdown`]).
//! `examples/extract_quality.rs` and `eval/quality/extract_quality.sh` measure it on the shared sets.

mod class_names;
mod markdown;
mod options;
mod segment;
mod select;

pub use class_names::DroppedNames;
pub use options::{EXTRACT_KEYS, Format, Params};

use crate::html::dom::{NodeId, Page};
use options::DEFAULT_MASS_ALPHA;
use segment::{PageText, Segment, segments};
use select::{Subtrees, parent, select};

/// What the extractor keeps of a page, with the measures a cleaning job stores beside it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Extraction {
    /// The kept segments joined by `'\n'`, or as Markdown.
    pub text: String,
    /// Characters of the kept segments (whitespace runs as one space, line feeds between
    /// segments not counted; the same in either format).
    pub kept_chars: usize,
    /// Characters of the page's visible text counted the same way: every segment, and the text of
    /// what is left out as boilerplate (`nav`, `footer`, `aside`, buttons, elements named so);
    /// not scripts, styles, forms' values, embedded objects or what an inline style hides.
    pub total_chars: usize,
    /// The page's segments (text between block boundaries), and of them those kept.
    pub segments: usize,
    pub kept_segments: usize,
}

impl Extraction {
    /// `kept_chars / total_chars`; `None` for a page without visible text.
    pub fn kept_share(&self) -> Option<f64> {
        (self.total_chars > 0).then(|| self.kept_chars as f64 / self.total_chars as f64)
    }
}

/// The page's main text: its segments joined by `'\n'`, or as Markdown.
pub fn extract_text(page: &Page, params: &Params) -> String {
    extracted(page, params, false).text
}

/// The page's main text and its measures.
pub fn extract(page: &Page, params: &Params) -> Extraction {
    extracted(page, params, true)
}

/// The text and its measures; `total_chars` counts what is left out only when `count_left_out`
/// (walking the menus and footers that are otherwise skipped costs about 2% of the speed).
fn extracted(page: &Page, params: &Params, count_left_out: bool) -> Extraction {
    let PageText {
        segments,
        left_out_chars,
    } = segments(page, params, count_left_out);
    let tree = Subtrees::of(page, &segments, false);
    let selected = select(page, &tree, &segments, params);
    let mut kept = kept_in(&tree, &segments, &selected, params, false);
    if params
        .listing_below_chars
        .is_some_and(|below| kept.iter().map(|s| s.chars).sum::<usize>() < below)
        && let Some(listing) = as_listing(page, &segments, &selected, params)
    {
        kept = listing;
    }
    let text = match params.format {
        Format::Text => kept
            .iter()
            .map(|s| s.text.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        Format::Markdown => {
            let pieces: Vec<markdown::Piece> = kept
                .iter()
                .map(|s| markdown::Piece {
                    block: s.block,
                    markdown: &s.markdown,
                })
                .collect();
            markdown::render(&pieces)
        }
    };
    Extraction {
        text,
        kept_chars: kept.iter().map(|s| s.chars).sum(),
        total_chars: segments.iter().map(|s| s.chars).sum::<usize>() + left_out_chars,
        segments: segments.len(),
        kept_segments: kept.len(),
    }
}

/// The segments of the selected containers that are not mostly links.
fn kept_in<'a>(
    tree: &Subtrees,
    segments: &'a [Segment],
    selected: &[NodeId],
    params: &Params,
    listing: bool,
) -> Vec<&'a Segment> {
    segments
        .iter()
        .filter(|s| s.link_density(listing) <= params.max_link_density)
        .filter(|s| selected.iter().any(|&c| tree.is_within(s.container, c)))
        .collect()
}

/// A page whose text came out short may be a listing (a forum's topics, search results, a
/// shop's category): its items are titles in links, which the choice of the container and the
/// link density drop. Read as one, titles count as text; the container is the selection (the
/// parent of selected siblings) or the ancestor of it with the most text mass, and it is the
/// text if it holds at least `listing_min_titles` segments with a title. When it does not,
/// the list may sit beside the selection (a notice above a forum's topics, whose metadata links
/// weigh the list's mass down): then the selection's parent or grandparent that holds the
/// titles, the one with the most text mass.
fn as_listing<'a>(
    page: &Page,
    segments: &'a [Segment],
    selected: &[NodeId],
    params: &Params,
) -> Option<Vec<&'a Segment>> {
    let tree = Subtrees::of(page, segments, true);
    let start = match selected {
        [] => return None,
        [only] => *only,
        [first, ..] => parent(page, *first).unwrap_or(*first),
    };
    let alpha = params.mass_alpha.unwrap_or(DEFAULT_MASS_ALPHA);
    let mass = |id: NodeId| tree.sums(id).mass(alpha);
    let ancestors = std::iter::successors(parent(page, start), |&a| parent(page, a))
        .take_while(|&a| page.element(a).is_some());
    let listing = |container: NodeId| {
        let kept = kept_in(&tree, segments, &[container], params, true);
        let titles = kept.iter().filter(|s| s.title_link_chars > 0).count();
        (titles >= params.listing_min_titles).then_some(kept)
    };
    // The first of those with the most text mass, going up.
    let most_mass = |a: &NodeId, b: &NodeId| mass(*b).total_cmp(&mass(*a));
    let container = std::iter::once(start)
        .chain(ancestors.clone())
        .min_by(most_mass)
        .unwrap_or(start);
    listing(container).or_else(|| {
        let (_, kept) = ancestors
            .take(2)
            .filter_map(|a| Some((a, listing(a)?)))
            .min_by(|x, y| most_mass(&x.0, &y.0))?;
        Some(kept)
    })
}

#[cfg(test)]
mod tests {
    use super::select::adds_clean_text;
    use super::*;

    /// The measures count what is kept against the page's visible text, boilerplate left out for
    /// its element or its names included, and never scripts or what an inline style hides.
    #[test]
    fn kept_and_total_characters_count_the_visible_text() {
        let html = "<html><head><title>Bridge</title><script>var hidden = 'no';</script></head><body>\
            <nav><a href=/>Home</a>  <a href=/about>About us</a></nav>\
            <article><h1>A  title</h1><p>The council voted on Tuesday to build a new bridge, ending a \
            long debate.</p><p>Work starts in   spring, and it\ntakes three years.</p></article>\
            <div class=comments><p>Nice <b>post</b></p></div>\
            <div style='display: none'>Never shown</div><footer>Copyright 2026</footer></body></html>";
        let page = Page::parse(html);
        let kept = [
            "A title",
            "The council voted on Tuesday to build a new bridge, ending a long debate.",
            "Work starts in spring, and it takes three years.",
        ];
        let e = extract(&page, &Params::default());
        assert_eq!(e.text, kept.join("\n"));
        let kept_chars: usize = kept.iter().map(|s| s.chars().count()).sum();
        assert_eq!(e.kept_chars, kept_chars);
        // "Home About us", "Nice post" and "Copyright 2026" besides the kept text.
        assert_eq!(e.total_chars, kept_chars + 13 + 9 + 14);
        assert_eq!((e.segments, e.kept_segments), (3, 3));
        assert_eq!(
            e.kept_share(),
            Some(kept_chars as f64 / (kept_chars + 36) as f64)
        );
        let markdown = Params {
            format: Format::Markdown,
            ..Params::default()
        };
        let m = extract(&page, &markdown);
        assert_eq!(
            (m.kept_chars, m.total_chars, m.segments, m.kept_segments),
            (e.kept_chars, e.total_chars, e.segments, e.kept_segments)
        );
        let empty = extract(
            &Page::parse("<p style='display:none'>x</p><script>y</script>"),
            &Params::default(),
        );
        assert_eq!((empty.total_chars, empty.kept_share()), (0, None));
    }

    #[test]
    fn the_article_is_kept_and_the_navigation_goes() {
        let html = "<html><body><ul><li><a href=/>Home</a></li><li><a href=/n>News</a></li></ul>\
            <div><h1>Title</h1><p>The council voted on Tuesday to build a new bridge, ending a debate, \
            which had lasted for years.</p><p>Work starts in spring, takes three years, and costs a lot \
            of money, the office said.</p></div><div><a href=/c>12 comments</a></div></body></html>";
        let text = extract_text(&Page::parse(html), &Params::default());
        assert_eq!(
            text,
            "Title\nThe council voted on Tuesday to build a new bridge, ending a debate, which had lasted \
             for years.\nWork starts in spring, takes three years, and costs a lot of money, the office said."
        );
    }

    /// A forum's list of topics: each item is a linked title, its starter and its counts.
    fn topics(n: usize) -> String {
        let items: String = (1..=n)
            .map(|i| {
                format!(
                    "<div class=topic><h3><a href=/t/{i}>Topic number {i} about printing parts</a></h3>\
                     <div>by <a href=/u/{i}>user{i}</a></div><div>{i} replies</div></div>"
                )
            })
            .collect();
        format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/f>Forums</a></li></ul>\
             <div class=main><h1>Help and repair</h1><p>Topics in this forum.</p>{items}</div></body></html>"
        )
    }

    #[test]
    fn a_listing_keeps_its_titles() {
        let page = Page::parse(&topics(6));
        let text = extract_text(&page, &Params::default());
        for i in 1..=6 {
            assert!(
                text.contains(&format!("Topic number {i} about printing parts\n")),
                "{text}"
            );
            assert!(text.contains(&format!("{i} replies")), "{text}");
        }
        // Short links are not titles; the menu outside the listing's container stays out.
        assert!(!text.contains("user1") && !text.contains("Home"), "{text}");
        let off = Params {
            listing_below_chars: None,
            ..Params::default()
        };
        assert!(!extract_text(&page, &off).contains("Topic number"));
    }

    #[test]
    fn a_heading_link_in_a_listing_is_a_title_however_short() {
        // An exhibitions page: each item a short linked title in a heading and its artist.
        let items: String = (1..=6)
            .map(|i| format!("<div><h4><a href=/x/{i}>Show {i}</a></h4><p>ARTIST {i}</p></div>"))
            .collect();
        let html = format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/v>Visit</a></li></ul>\
             <div class=main><h1>Current exhibitions</h1>{items}</div></body></html>"
        );
        let text = extract_text(&Page::parse(&html), &Params::default());
        for i in 1..=6 {
            assert!(text.contains(&format!("Show {i}\nARTIST {i}")), "{text}");
        }
        assert!(!text.contains("Visit"), "{text}");
    }

    #[test]
    fn a_listing_beside_a_notice_keeps_its_titles() {
        // Each topic's starter and date are short links: the list's text mass is below the
        // notice's, so the ancestor with the most mass is the notice itself.
        let items: String = (1..=6)
            .map(|i| {
                format!(
                    "<div class=item><div><a href=/t/{i}>Topic number {i} about printing parts</a></div>\
                     <div><a href=/u/{i}>member number {i}</a> <a href=/d/{i}>January {i}, 2026</a></div></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><div class=wrap><div class=notice><p>Your browser is out of date, so this \
             site may not look right.</p></div><div class=list>{items}</div></div></body></html>"
        );
        let text = extract_text(&Page::parse(&html), &Params::default());
        for i in 1..=6 {
            assert!(
                text.contains(&format!("Topic number {i} about printing parts")),
                "{text}"
            );
        }
    }

    /// A page of builder's sections: the first, of many commas, is Readability's choice alone.
    fn sections(third: &str) -> String {
        let first = "We translate birth, marriage, court, school, and medical records, with care, \
            for courts, schools, banks, and agencies, in over a hundred languages, every day.";
        format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/s>Services</a></li></ul>\
             <div class=page><section><div class=block><p>{first}</p><p>{first}</p></div></section>\
             <section><div class=block><p>Every translation is checked by a second translator \
             before it is sent to you</p></div></section>\
             <section><div class=block><p>{third}</p></div></section></div>\
             <footer><a href=/p>Privacy</a></footer></body></html>"
        )
    }

    #[test]
    fn sections_beside_the_choice_without_links_are_kept() {
        let third = "Send us a scan or a photo of the document and get a quote within the hour";
        let page = Page::parse(&sections(third));
        let text = extract_text(&page, &Params::default());
        assert!(text.contains("We translate birth"), "{text}");
        assert!(text.contains("checked by a second translator"), "{text}");
        assert!(text.contains("get a quote within the hour"), "{text}");
        assert!(
            !text.contains("Home") && !text.contains("Privacy"),
            "{text}"
        );
        let off = Params {
            widen_link_heavy_share: None,
            ..Params::default()
        };
        let text = extract_text(&page, &off);
        assert!(
            text.contains("We translate birth") && !text.contains("second translator"),
            "{text}"
        );
    }

    #[test]
    fn a_wider_choice_that_repeats_the_text_or_brings_links_adds_nothing_clean() {
        let text = "Every translation is checked by a second translator before it is sent to you.";
        let adds_clean = |beside: &str| {
            let html = format!(
                "<html><body><div class=wider><div class=chosen><p>{text}</p></div>\
                 <div class=beside>{beside}</div></div></body></html>"
            );
            let page = Page::parse(&html);
            let params = Params::default();
            let segments = segments(&page, &params, false).segments;
            let tree = Subtrees::of(&page, &segments, false);
            let named = |class: &str| {
                (0..page.nodes.len() as NodeId)
                    .find(|&id| page.element(id).and_then(|e| page.class_and_id(e)) == Some(class))
                    .expect("an element of that class")
            };
            adds_clean_text(&tree, &segments, &[named("chosen")], named("wider"), 0.05)
        };
        assert!(adds_clean(
            "<p>Send us a scan of the document and get a quote within the hour.</p>"
        ));
        assert!(!adds_clean(&format!("<p>{text}</p>")), "a copy of the text");
        let links: String = (1..=8)
            .map(|i| format!("<a href=/o/{i}>Office {i}</a> "))
            .collect();
        assert!(
            !adds_clean(&format!(
                "<p>Send us a scan of the document and get a quote.</p><p>{links}</p>"
            )),
            "links"
        );
        assert!(!adds_clean(""), "no text");
    }

    /// Cards whose whole box is a link: a title and a paragraph describing the item.
    fn cards(prefix: &str, n: usize) -> String {
        (1..=n)
            .map(|i| {
                format!(
                    "<a class=card href=/{prefix}/{i}><div class=card-header><span>{prefix} {i}</span></div>\
                     <div class=card-content><p>A {prefix} that describes item {i}, with a comma, \
                     in a sentence of some length.</p></div></a>"
                )
            })
            .collect()
    }

    #[test]
    fn a_paragraph_inside_a_link_is_prose_where_the_text_is() {
        let html = format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/d>Docs</a></li></ul>\
             <main><h1>Layout widgets</h1><p>A catalog of the layout widgets, which arrange other \
             widgets in columns, rows and grids.</p><div class=grid>{}</div></main></body></html>",
            cards("widget", 6)
        );
        let text = extract_text(&Page::parse(&html), &Params::default());
        assert!(
            text.contains("A widget that describes item 6, with a comma"),
            "{text}"
        );
        assert!(!text.contains("Docs"), "{text}");
    }

    #[test]
    fn teasers_inside_links_do_not_move_the_choice() {
        // The teasers of other articles are as long as the article's paragraphs; as evidence
        // of where the text is they would widen the choice to the page around both.
        let paragraphs: String = (1..=3)
            .map(|i| {
                format!(
                    "<p>Paragraph {i} of the article, with a comma, and enough words in it to \
                     count as the text of a page.</p>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><div class=page><div class=story><h1>Title</h1>{paragraphs}</div>\
             <div class=more>{}</div></div></body></html>",
            cards("teaser", 8)
        );
        let text = extract_text(&Page::parse(&html), &Params::default());
        assert!(text.contains("Paragraph 3 of the article"), "{text}");
        assert!(!text.contains("teaser"), "{text}");
    }

    #[test]
    fn what_is_not_displayed_is_not_text() {
        let html = "<html><body><div style='DISPLAY : none;'>https://example.com/cache/script-1.js</div>\
            <div hidden id=S:0><p>Streamed by the page's script into place, with a comma.</p></div>\
            <div style='visibility:hidden'><p>A slider before its script runs, with a comma.</p></div>\
            <p>The text of the page, with a comma, long enough to count.</p></body></html>";
        let text = extract_text(&Page::parse(html), &Params::default());
        assert!(!text.contains("script-1.js"), "{text}");
        for shown in ["Streamed by", "A slider", "The text of the page"] {
            assert!(text.contains(shown), "{shown}: {text}");
        }
        // A body (or main) hidden until the page's script runs is still the page.
        let html = "<html><body style='display:none'><main style='display:none'><p>The text of \
            the page, with a comma, long enough to count.</p></main></body></html>";
        let text = extract_text(&Page::parse(html), &Params::default());
        assert_eq!(
            text,
            "The text of the page, with a comma, long enough to count."
        );
    }

    #[test]
    fn a_short_article_is_not_read_as_a_listing() {
        // Fewer titles than listing_min_titles (3) around a short post: no titles.
        let page = Page::parse(&topics(2).replace(
            "<p>Topics in this forum.</p>",
            "<p>A short post, with a comma, about a printer that will not print.</p>",
        ));
        let text = extract_text(&page, &Params::default());
        assert!(
            text.contains("A short post") && !text.contains("Topic number"),
            "{text}"
        );
        // With more titles than that, the same page is a listing.
        let more = Params {
            listing_min_titles: 2,
            ..Params::default()
        };
        assert!(extract_text(&page, &more).contains("Topic number 2 about printing parts"));
    }

    #[test]
    fn empty_odd_and_hostile_pages_give_text_or_nothing() {
        let extract = |html: &str| extract_text(&Page::parse(html), &Params::default());
        assert_eq!(extract(""), "");
        assert_eq!(
            extract("just text, no tags, but a sentence of some length here"),
            "just text, no tags, but a sentence of some length here"
        );
        assert_eq!(extract("<a href=/>only a link</a>"), "");
        // 100,000 nested elements (the parse closes those past max_depth) and 200,000 paragraphs:
        // one walk each, no recursion.
        let deep = format!(
            "{}deep text in the middle of it all{}",
            "<div>".repeat(100_000),
            "</div>".repeat(100_000)
        );
        assert_eq!(extract(&deep), "deep text in the middle of it all");
        let wide: String = (0..200_000)
            .map(|i| format!("<p>Paragraph {i}, with a comma, and enough words to count.</p>"))
            .collect();
        let text = extract(&format!("<body><div>{wide}</div></body>"));
        assert_eq!(text.lines().count(), 200_000);
    }

    #[test]
    fn markdown_keeps_text_that_markdown_would_read_as_syntax_text() {
        let markdown = |body: &str| {
            let params = Params {
                format: Format::Markdown,
                ..Params::default()
            };
            extract_text(
                &Page::parse(&format!("<body><div>{body}</div></body>")),
                &params,
            )
        };
        // "!" before a link would make it an image.
        assert_eq!(
            markdown(
                "<p>Thanks for the long post, it was useful, and I read it twice!<a href=/x>Buy</a></p>"
            ),
            "Thanks for the long post, it was useful, and I read it twice\\![Buy](/x)"
        );
        // A control character in a target would make the link text (found by the fuzz target).
        assert_eq!(
            markdown(
                "<p>Thanks for the long post, it was useful, and I read it twice <a href=\"/\u{1b}'x\">Buy</a></p>"
            ),
            "Thanks for the long post, it was useful, and I read it twice [Buy](/%1B'x)"
        );
        // A backslash would escape the `>` or `)` that ends the target (found by the fuzz target).
        assert_eq!(
            markdown(
                "<p>Thanks for the long post, it was useful, and I read it twice <a href=\"/a b\\\">Buy</a> \
                 <a href=\"/c\\\">it</a></p>"
            ),
            "Thanks for the long post, it was useful, and I read it twice [Buy](</a b%5C>) [it](/c%5C)"
        );
        // A link inside a link (the HTML5 tree nests them when the adoption agency gives up on
        // deep blocks between them; here `d`'s `<a>` inside `u`'s paragraph inside the first
        // link): Markdown's links do not nest, so the outer one holds and closes (the fuzz
        // target found a `[` left open).
        assert_eq!(
            markdown(
                "<a href=n><section> <article> <h1>\u{7f}<div>><div > <p><<div> l<section><p>u<a>d"
            ),
            "# [\\>](n)\n\n# [\\<](n)\n\n# [l](n)\n\n# [ud](n)"
        );
        // The first item of the ordered list is a link and is left out: its second item, numbered
        // 2, cannot go on the bullet list's line (it would be read as that item's text).
        assert_eq!(
            markdown(
                "<ul><li>A first list, with commas, and words enough to be text.</li></ul>\
                 <ol><li><a href=/a>Only a link here</a></li>\
                 <li>A second list, with commas, and words enough to be text.</li></ol>"
            ),
            "- A first list, with commas, and words enough to be text.\n\n\
             2. A second list, with commas, and words enough to be text."
        );
        // An item nested under a left-out item is written under the item above, not indented
        // past it (four columns more would read as its text).
        assert_eq!(
            markdown(
                "<ul><li>An item of the list, with commas, and words enough to be text.</li>\
                 <li><a href=/b>A link</a><ul><li><a href=/c>Another link</a><ul>\
                 <li>A deep item, with commas, and words enough to be text.</li></ul></li></ul></li></ul>"
            ),
            "- An item of the list, with commas, and words enough to be text.\n  \
             - A deep item, with commas, and words enough to be text."
        );
    }

    #[test]
    fn list_items_are_written_at_the_columns_of_the_items_that_hold_them() {
        use pulldown_cmark::{Event, Parser, Tag};
        // The second list's own items are links, left out: its item numbered 2 is nested two
        // columns in the page, inside the first list's item (whose text starts at column 3),
        // and its sublist's item four. Written at those columns, "  2." read as the first
        // item's sibling, its text at column 5, and "    - " after it as that text (the fuzz
        // target found a "-" among the words).
        let page = Page::parse(
            "<body><div><ol><li>A first list, with commas, and words enough to be text.</li></ol>\
             <ul><li><a href=/a>A link</a><ol><li><a href=/b>Only a link</a></li>\
             <li>A second list, with commas, and words enough to be text.</li></ol>\
             <ul><li><a href=/c>A link</a><ul>\
             <li>A deep item, with commas, and words enough to be text.</li></ul></li></ul>\
             </li></ul></div></body>",
        );
        let params = Params {
            format: Format::Markdown,
            ..Params::default()
        };
        let markdown = extract_text(&page, &params);
        assert_eq!(
            markdown,
            "1. A first list, with commas, and words enough to be text.\n\n   \
             2. A second list, with commas, and words enough to be text.\n      \
             - A deep item, with commas, and words enough to be text."
        );
        let items = Parser::new(&markdown)
            .filter(|e| matches!(e, Event::Start(Tag::Item)))
            .count();
        assert_eq!(items, 3, "{markdown}");
    }

    #[test]
    fn a_pipe_in_a_link_target_does_not_split_a_table_cell() {
        use pulldown_cmark::{Event, Options, Parser, Tag};
        let page = Page::parse(
            "<body><article><p>Bridges carry roads over rivers, and their history is long, older \
             than most of the cities that stand beside them today.</p>\
             <table><tr><th>Bridge</th><th>Main span (m)</th></tr>\
             <tr><td>Akashi Kaikyo, in Japan, the longest of them all \
             (<a href=\"/search?q=akashi|kaikyo\">photos</a>)</td><td>1,991</td></tr>\
             <tr><td>Humber</td><td>1,410</td></tr></table></article></body>",
        );
        let params = Params {
            format: Format::Markdown,
            ..Params::default()
        };
        let markdown = extract_text(&page, &params);
        // A table is cut into cells at every `|` before its links are read, so a raw pipe left the
        // link as text and the row one cell longer (the fuzz target found it).
        let targets: Vec<String> = Parser::new_ext(&markdown, Options::ENABLE_TABLES)
            .filter_map(|event| match event {
                Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.into_string()),
                _ => None,
            })
            .collect();
        assert_eq!(targets, ["/search?q=akashi%7Ckaikyo"], "{markdown}");
    }

    #[test]
    fn markdown_marks_bold_and_italics_where_commonmark_reads_them() {
        use pulldown_cmark::{Event, Parser, Tag, TagEnd};
        let sentence = "with a comma, and enough words to be the text";
        let markdown = |inline: &str| {
            let params = Params {
                format: Format::Markdown,
                ..Params::default()
            };
            let page = Page::parse(&format!(
                "<body><div><p>{inline} {sentence}.</p></div></body>"
            ));
            let md = extract_text(&page, &params);
            md.strip_suffix(&format!(" {sentence}."))
                .unwrap_or_else(|| panic!("{md}"))
                .to_owned()
        };
        // What pulldown-cmark reads: the text, with {} around strong and () around emphasis.
        let read = |md: &str| {
            let mut out = String::new();
            for event in Parser::new(md) {
                match event {
                    Event::Text(t) => out.push_str(&t),
                    Event::Start(Tag::Strong) | Event::End(TagEnd::Strong) => out.push('|'),
                    Event::Start(Tag::Emphasis) | Event::End(TagEnd::Emphasis) => out.push('/'),
                    _ => {}
                }
            }
            out
        };
        let cases = [
            (
                "A <b>bold</b> and <i>italic</i> word",
                "A **bold** and *italic* word",
                "A |bold| and /italic/ word",
            ),
            (
                "<strong>Strong</strong> and <em>em</em>",
                "**Strong** and *em*",
                "|Strong| and /em/",
            ),
            // Inside a word; spaces inside the element go outside the markers.
            ("un<b>believ</b>able", "un**believ**able", "un|believ|able"),
            (
                "A<b> spaced </b>word",
                "A **spaced** word",
                "A |spaced| word",
            ),
            // A closing marker after punctuation before a letter would be read as text: none.
            (
                "<b>Note:</b>text and <b>Note:</b> text",
                "Note:text and **Note:** text",
                "Note:text and |Note:| text",
            ),
            // Nested, with links, in either order.
            (
                "<b>one <b>two</b> three</b>",
                "**one two three**",
                "|one two three|",
            ),
            (
                "<b><a href=/x>link</a></b> and <a href=/y><i>link</i></a>",
                "**[link](/x)** and [*link*](/y)",
                "|link| and /link/",
            ),
            // Adjacent runs would merge: the second is not marked.
            ("<b>a</b><b>b</b>", "**a**b", "|a|b"),
            // Asterisks of the text stay escaped text.
            ("<i>*star*</i>", "*\\*star\\**", "/*star*/"),
        ];
        for (html, expected, read_back) in cases {
            let md = markdown(html);
            assert_eq!(md, expected, "{html}");
            assert_eq!(read(&md), read_back, "{html}");
        }
        // Headings are not marked.
        let params = Params {
            format: Format::Markdown,
            ..Params::default()
        };
        let page = Page::parse(&format!(
            "<body><div><h2><b>Title</b></h2><p>A paragraph {sentence}.</p></div></body>"
        ));
        assert!(extract_text(&page, &params).starts_with("## Title\n"));
    }

    #[test]
    fn markdown_of_deeply_nested_lists_and_quotations_stays_linear() {
        use crate::html::Limits;
        let depth = 3_000;
        let item = "<li>An item of a list, with a comma, and enough words to count as text.";
        let html = format!(
            "<body><div>{}{}</div></body>",
            format!("<ul>{item}").repeat(depth),
            "<blockquote>A quotation, with a comma, and enough words to count.".repeat(depth)
        );
        let limits = Limits {
            max_depth: 100_000,
            ..Limits::default()
        };
        let page = Page::parse_with(&html, &limits);
        let markdown = extract_text(
            &page,
            &Params {
                format: Format::Markdown,
                ..Params::default()
            },
        );
        let text = extract_text(&page, &Params::default());
        assert_eq!(
            text.lines().count(),
            2 * depth,
            "every item and quotation is kept"
        );
        // Indentation and prefixes stop growing at MAX_NESTING levels.
        let widest = markdown.lines().map(str::len).max().unwrap_or(0);
        assert!(widest < 120, "a line of {widest} bytes");
        assert_eq!(
            markdown
                .split_whitespace()
                .filter(|w| *w != "-" && *w != ">")
                .count(),
            text.split_whitespace().count()
        );
    }
}
