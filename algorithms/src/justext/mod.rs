//! jusText 3.0.2: boilerplate removal by paragraph classification, faithful to the Python original
//! (see `specs/justext-3.0.2.md` of the shared references).
//!
//! ```
//! use webtext_algorithms::justext::{justext_html, Params};
//! use webtext_algorithms::stoplists::Stoplist;
//!
//! let english = Stoplist::by_name("english").unwrap();
//! let paragraphs = justext_html("<p>Too short to keep.</p>", english, &Params::default()).unwrap();
//! assert_eq!(paragraphs[0].class.as_str(), "bad");
//! ```

pub mod classify;
pub mod options;
pub mod paragraph;
pub mod root;
pub mod segment;

use std::fmt;

use crate::html::{DecodeError, Limits, Page, decode_html_with_hint};
use crate::stoplists::Stoplist;
pub use paragraph::{Paragraph, ParagraphClass, Params};
pub use segment::{Segment, SegmentError};

/// Why jusText produces nothing for a page (Python jusText raises for these).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JustextError {
    #[error("document is empty")]
    EmptyDocument,
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error(transparent)]
    Segment(#[from] SegmentError),
    #[error("the page has {bytes} bytes, over max_bytes={max_bytes}")]
    TooLarge { bytes: usize, max_bytes: usize },
}

fn check_size(len: usize, limits: &Limits) -> Result<(), JustextError> {
    if limits.too_large(len) {
        return Err(JustextError::TooLarge {
            bytes: len,
            max_bytes: limits.max_bytes,
        });
    }
    Ok(())
}

/// Classifies already segmented paragraphs.
pub fn classify(segments: Vec<Segment>, stoplist: &Stoplist, params: &Params) -> Vec<Paragraph> {
    let mut scratch = String::new();
    let mut paragraphs: Vec<Paragraph> = segments
        .into_iter()
        .map(|s| {
            let stopwords_count = classify::stopwords_count(&s.text, stoplist, &mut scratch);
            let heading = !params.no_headings && classify::is_heading_path(&s.dom_path);
            let mut p = Paragraph {
                text: s.text,
                length: s.length,
                words_count: s.words_count,
                chars_count_in_links: s.chars_count_in_links,
                stopwords_count,
                tags_count: s.tags_count,
                dom_path: s.dom_path,
                xpath: s.xpath,
                heading,
                cf_class: ParagraphClass::Bad,
                class: ParagraphClass::Bad,
            };
            p.cf_class = classify::context_free_class(&p, params);
            p
        })
        .collect();
    classify::revise(&mut paragraphs, params);
    paragraphs
}

/// Segments a decoded page into jusText's paragraphs (before classification).
pub fn segment_html(html: &str, limits: &Limits) -> Result<Vec<Segment>, JustextError> {
    check_size(html.len(), limits)?;
    if root::is_empty_document(html) {
        return Err(JustextError::EmptyDocument);
    }
    let page = Page::parse_as_libxml2(html, limits);
    segment_page(&page, html)
}

/// jusText over a page the caller parsed (within `params.limits`) from `decoded`: all
/// paragraphs, good and bad, in document order. Python jusText's output is that of
/// [`Page::parse_as_libxml2`]'s tree; another tree (html5ever's) gives jusText on that tree.
pub fn justext_parsed(
    decoded: &str,
    page: &Page,
    stoplist: &Stoplist,
    params: &Params,
) -> Result<Vec<Paragraph>, JustextError> {
    check_size(decoded.len(), &params.limits)?;
    if root::is_empty_document(decoded) {
        return Err(JustextError::EmptyDocument);
    }
    Ok(classify(segment_page(page, decoded)?, stoplist, params))
}

/// Segments a parsed page (see [`justext_parsed`] for which tree); `decoded` is the text it was
/// parsed from (the root choice reads it).
pub fn segment_page(page: &Page, decoded: &str) -> Result<Vec<Segment>, JustextError> {
    match root::choose_root(page, decoded) {
        Some(r) => Ok(segment::segment(page, &r)?),
        None => Err(JustextError::EmptyDocument),
    }
}

/// jusText over text: all paragraphs, good and bad, in document order.
pub fn justext_html(
    html: &str,
    stoplist: &Stoplist,
    params: &Params,
) -> Result<Vec<Paragraph>, JustextError> {
    Ok(classify(
        segment_html(html, &params.limits)?,
        stoplist,
        params,
    ))
}

/// Decodes raw page bytes the way jusText 3.0.2 does (see [`crate::html::decode`]), including
/// its XML-declaration fallback.
pub fn decode_for_justext(bytes: &[u8]) -> Result<std::borrow::Cow<'_, str>, JustextError> {
    decode_for_justext_with_hint(bytes, None)
}

/// [`decode_for_justext`] with a charset from outside the page, used when the page names none
/// (see [`crate::html::decode::decode_html_with_hint`]). Text the hint decoded is kept even
/// when it opens with an XML encoding declaration: that fallback is lxml's, not the page's.
pub fn decode_for_justext_with_hint<'a>(
    bytes: &'a [u8],
    charset: Option<&str>,
) -> Result<std::borrow::Cow<'a, str>, JustextError> {
    let (text, decoding) = decode_html_with_hint(bytes, charset)?;
    if !decoding.from_hint && starts_with_xml_encoding_declaration(&text) {
        // lxml refuses a str with an encoding declaration; jusText re-parses the raw bytes and
        // libxml2 2.14 reads them as UTF-8 whatever the declaration says.
        return Ok(String::from_utf8_lossy(bytes));
    }
    Ok(text)
}

/// jusText over raw page bytes.
pub fn justext_bytes(
    bytes: &[u8],
    stoplist: &Stoplist,
    params: &Params,
) -> Result<Vec<Paragraph>, JustextError> {
    check_size(bytes.len(), &params.limits)?;
    let text = decode_for_justext(bytes)?;
    justext_html(&text, stoplist, params)
}

/// lxml's `^(<\?xml[^>]+)\s+encoding\s*=\s*["'][^"']*["']`: only at the very first character.
fn starts_with_xml_encoding_declaration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("<?xml") else {
        return false;
    };
    let decl = &rest[..rest.find('>').unwrap_or(rest.len())];
    let mut from = 0;
    while let Some(i) = decl[from..].find("encoding").map(|i| i + from) {
        from = i + 1;
        let preceded_by_space = i > 0 && decl[..i].ends_with(|c: char| c.is_whitespace());
        if !preceded_by_space {
            continue;
        }
        let after = decl[i + "encoding".len()..].trim_start();
        if let Some(value) = after.strip_prefix('=') {
            let value = value.trim_start();
            if let Some(q) = value.chars().next().filter(|c| *c == '"' || *c == '\'') {
                if value[1..].contains(q) || rest[decl.len()..].contains(q) {
                    return true;
                }
            }
        }
    }
    false
}

/// The kept text: good paragraphs joined by `'\n'`.
pub fn kept_text(paragraphs: &[Paragraph]) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = write_kept_text(paragraphs, &mut out);
    out
}

/// The kept text written into `out` (an Arrow string builder takes it without a String per row).
pub fn write_kept_text(paragraphs: &[Paragraph], out: &mut impl fmt::Write) -> fmt::Result {
    for (i, p) in paragraphs.iter().filter(|p| p.is_good()).enumerate() {
        if i > 0 {
            out.write_char('\n')?;
        }
        out.write_str(&p.text)?;
    }
    Ok(())
}

/// What a page's paragraphs add up to, in characters of their text and in paragraphs.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PageTotals {
    pub kept_chars: usize,
    pub total_chars: usize,
    pub paragraphs: usize,
    pub good_paragraphs: usize,
}

impl PageTotals {
    pub fn of(paragraphs: &[Paragraph]) -> Self {
        let mut t = PageTotals {
            paragraphs: paragraphs.len(),
            ..PageTotals::default()
        };
        for p in paragraphs {
            t.total_chars += p.length;
            if p.is_good() {
                t.kept_chars += p.length;
                t.good_paragraphs += 1;
            }
        }
        t
    }

    /// `kept_chars / total_chars`; `None` for a page without paragraph text.
    pub fn kept_share(&self) -> Option<f64> {
        (self.total_chars > 0).then(|| self.kept_chars as f64 / self.total_chars as f64)
    }
}
