//! HTML bytes → `extract_content`'s text and Markdown, `extract_content_result`'s measures, and
//! `extract_metadata`. The Markdown, read back by a CommonMark parser, must hold the text's words;
//! the measures must count the text's characters, and no more than the page's.
#![no_main]

use datafusion_webtext::extract::{Format, Params, extract, extract_text};
use datafusion_webtext::html::{Limits, Page};
use datafusion_webtext::justext::decode_for_justext;
use datafusion_webtext::metadata::extract_metadata;
use libfuzzer_sys::fuzz_target;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

fn markdown_words(markdown: &str) -> Vec<String> {
    let mut text = String::new();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            // A link's ends are inside a word ("[shareholder](url),"); blocks end words.
            Event::Start(Tag::Link { .. } | Tag::Strong | Tag::Emphasis)
            | Event::End(TagEnd::Link | TagEnd::Strong | TagEnd::Emphasis) => {}
            _ => text.push(' '),
        }
    }
    text.split_whitespace().map(str::to_owned).collect()
}

/// Fails naming the first word where the Markdown and the text part, with a few words around it:
/// a whole page's word lists side by side hide the one that differs.
fn assert_same_words(markdown: &[String], text: &[String], whole: &str) {
    let Some(at) = (0..markdown.len().max(text.len())).find(|&i| markdown.get(i) != text.get(i))
    else {
        return;
    };
    let around = |words: &[String]| {
        words[at.saturating_sub(3).min(words.len())..(at + 4).min(words.len())].to_vec()
    };
    panic!(
        "word {at} differs: Markdown {:?}, text {:?}\n{whole}",
        around(markdown),
        around(text)
    );
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(html) = decode_for_justext(bytes) else {
        return;
    };
    let _ = extract_metadata(&html, &Limits::default());
    let shallow = Limits {
        max_bytes: 0,
        max_depth: 8,
        max_attributes: 3,
    };
    for limits in [Limits::default(), shallow] {
        let page = Page::parse_with(&html, &limits);
        let text = extract_text(&page, &Params::default());
        let markdown = extract_text(
            &page,
            &Params {
                format: Format::Markdown,
                ..Params::default()
            },
        );
        let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        assert_same_words(&markdown_words(&markdown), &words, &markdown);
        let measured = extract(&page, &Params::default());
        assert_eq!(measured.text, text);
        let line_feeds = measured.kept_segments.saturating_sub(1);
        assert_eq!(measured.kept_chars + line_feeds, text.chars().count(), "{text}");
        assert!(measured.kept_chars <= measured.total_chars);
        assert!(measured.kept_segments <= measured.segments);
    }
});
