//! Bounds on what one page may cost, so a hostile page cannot stall or exhaust a long job.
//!
//! Parsing is linear in most of its input but not in two shapes a crawl does contain: the
//! duplicate-attribute check compares every attribute of a tag with all earlier ones (a tag with a
//! million attributes is 5·10¹¹ comparisons), and html5ever's scope checks walk the stack of open
//! elements (100,000 nested `<div>`s take minutes; jusText's libxml2 tree has no such walk). The tokenizer (src/html/tokenizer.rs) keeps at
//! most `max_attributes` per tag and the tree is kept within `max_depth` (src/html/dom.rs); the size
//! limit is applied by the callers, before a page is decoded. [`cap_attributes`] does the attribute
//! cut as a scan before html5ever's own tokenizer, for the reference parse the tokenizer is tested
//! against.

use std::borrow::Cow;

/// The limits of one call, settable through the SQL functions' `options` (the row policy's keys,
/// [`crate::options::RowKeys::Page`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Pages longer than this many bytes (UTF-8 length of a string, length of a binary) are not
    /// processed at all: their row is NULL. 0 means no limit.
    pub max_bytes: usize,
    /// Elements opened deeper than this are not built: their start and matching end tags are
    /// ignored, so their content joins the deepest element kept (as browsers flatten past 512).
    /// jusText's tree ends earlier, as libxml2's does: the page stops where a 257th element would
    /// open ([`super::libxml2::MAX_OPEN_ELEMENTS`]).
    pub max_depth: u32,
    /// Attributes of one tag after this many are dropped unread.
    pub max_attributes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 32 << 20,
            max_depth: 512,
            max_attributes: 1_000,
        }
    }
}

impl Limits {
    /// Whether a page of `len` bytes is over `max_bytes`.
    pub fn too_large(&self, len: usize) -> bool {
        self.max_bytes != 0 && len > self.max_bytes
    }
}

/// Elements whose content the tokenizer reads as text up to their end tag (scripting disabled).
fn is_raw_text_element(name: &[u8]) -> bool {
    const NAMES: &[&[u8]] = &[
        b"script",
        b"style",
        b"textarea",
        b"title",
        b"xmp",
        b"iframe",
        b"noembed",
        b"noframes",
    ];
    NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// HTML5's whitespace, which is also libxml2's blank set.
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Where in a tag a scanner is: the spec's attribute states (§13.2.5.32–40), shared by this scan
/// and the tokenizer.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TagState {
    BeforeAttributeName,
    AttributeName,
    AfterAttributeName,
    BeforeAttributeValue,
    Quoted(u8),
    Unquoted,
    AfterQuotedValue,
    SelfClosing,
}

/// A tag's attributes as the tokenizer splits them: the end of the tag (the index of its `>`, or
/// the input's length) and where attribute number `max + 1` starts, if there is one.
fn scan_tag(bytes: &[u8], mut i: usize, max: usize) -> (usize, Option<usize>) {
    use TagState::*;
    let mut state = BeforeAttributeName;
    let mut count = 0usize;
    let mut cut = None;
    while i < bytes.len() {
        let b = bytes[i];
        state = match (state, b) {
            (Quoted(q), _) if b == q => AfterQuotedValue,
            (Quoted(q), _) => Quoted(q),
            (BeforeAttributeValue, b'"' | b'\'') => Quoted(b),
            (_, b'>') => return (i, cut),
            (
                BeforeAttributeName | AfterAttributeName | AfterQuotedValue | Unquoted
                | SelfClosing,
                _,
            ) if is_space(b) => {
                if state == AfterAttributeName {
                    AfterAttributeName
                } else {
                    BeforeAttributeName
                }
            }
            (AttributeName, _) if is_space(b) => AfterAttributeName,
            (BeforeAttributeValue, _) if is_space(b) => BeforeAttributeValue,
            (
                AttributeName | AfterAttributeName | AfterQuotedValue | BeforeAttributeName
                | SelfClosing,
                b'/',
            ) => SelfClosing,
            (AttributeName | AfterAttributeName, b'=') => BeforeAttributeValue,
            (AttributeName, _) => AttributeName,
            (BeforeAttributeValue | Unquoted, _) => Unquoted,
            (BeforeAttributeName | AfterAttributeName | AfterQuotedValue | SelfClosing, _) => {
                count += 1;
                if count == max + 1 {
                    cut = Some(i);
                }
                AttributeName
            }
        };
        if let Quoted(q) = state {
            // A value's bytes cannot change the state: jump to its closing quote.
            match memchr::memchr(q, &bytes[i + 1..]) {
                Some(offset) => i += offset,
                None => return (bytes.len(), cut),
            }
        }
        i += 1;
    }
    (bytes.len(), cut)
}

/// The end of a raw text element's content: the start of `</name` (any case), or the end.
fn raw_text_end(bytes: &[u8], from: usize, name: &[u8]) -> usize {
    let mut i = from;
    while let Some(offset) = memchr::memmem::find(&bytes[i..], b"</") {
        let at = i + offset;
        let tail = &bytes[at + 2..];
        if tail.len() >= name.len() && tail[..name.len()].eq_ignore_ascii_case(name) {
            return at;
        }
        i = at + 2;
    }
    bytes.len()
}

/// The page with every tag's attributes after the first `max` removed; borrowed when no tag has
/// more. Comments, doctypes and raw text (`<script>`, `<style>`, ...) are skipped as the tokenizer
/// skips them, so only real tags are touched.
pub fn cap_attributes(html: &str, max: usize) -> Cow<'_, str> {
    let bytes = html.as_bytes();
    // Every attribute takes at least one byte.
    if bytes.len() <= max {
        return Cow::Borrowed(html);
    }
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while let Some(offset) = memchr::memchr(b'<', &bytes[i..]) {
        let open = i + offset;
        let rest = &bytes[open + 1..];
        i = open + 1;
        if rest.starts_with(b"!--") {
            // `<!-->` and `<!--->` are whole (empty) comments.
            let body = &rest[3..];
            let close = match body {
                [b'>', ..] => Some(0),
                [b'-', b'>', ..] => Some(1),
                _ => memchr::memmem::find(body, b"-->").map(|e| e + 2),
            };
            i = close.map_or(bytes.len(), |c| open + 4 + c + 1);
            continue;
        }
        let (is_end_tag, name_start) = match rest {
            [b'/', c, ..] if c.is_ascii_alphabetic() => (true, open + 2),
            [c, ..] if c.is_ascii_alphabetic() => (false, open + 1),
            [b'!' | b'?' | b'/', ..] => {
                i = memchr::memchr(b'>', rest).map_or(bytes.len(), |e| open + 1 + e + 1);
                continue;
            }
            _ => continue,
        };
        let name_end = bytes[name_start..]
            .iter()
            .position(|&b| is_space(b) || b == b'/' || b == b'>')
            .map_or(bytes.len(), |n| name_start + n);
        // Most tags end before any quote and are shorter than `max` bytes: each attribute takes
        // at least one byte, so they cannot have too many and need no state machine.
        let after_name = &bytes[name_end..];
        let (end, cut) = match memchr::memchr3(b'>', b'"', b'\'', after_name) {
            Some(k) if after_name[k] == b'>' && k <= max => (name_end + k, None),
            _ => scan_tag(bytes, name_end, max),
        };
        if let Some(cut) = cut {
            cuts.push((cut, end));
        }
        i = (end + 1).min(bytes.len());
        let name = &bytes[name_start..name_end];
        if !is_end_tag && is_raw_text_element(name) {
            i = raw_text_end(bytes, i, name);
        } else if !is_end_tag && name.eq_ignore_ascii_case(b"plaintext") {
            break;
        }
    }
    if cuts.is_empty() {
        return Cow::Borrowed(html);
    }
    let mut out = String::with_capacity(html.len());
    let mut kept_from = 0;
    for (start, end) in cuts {
        // Cuts start at an attribute name and end at `>` or the end: both ASCII, so char boundaries.
        out.push_str(&html[kept_from..start]);
        kept_from = end;
    }
    out.push_str(&html[kept_from..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_within_the_limit_are_borrowed() {
        let html = "<p a=1 b='2' c=\"3\" d>x</p><br/>";
        assert!(matches!(cap_attributes(html, 4), Cow::Borrowed(_)));
        assert!(matches!(cap_attributes(html, 0), Cow::Owned(_)));
    }

    #[test]
    fn attributes_past_the_limit_are_cut_up_to_the_tag_end() {
        assert_eq!(
            cap_attributes("<p a=1 b='x>y' c d=4>t</p>", 2),
            "<p a=1 b='x>y' >t</p>"
        );
        assert_eq!(cap_attributes("<p a b c>t", 1), "<p a >t");
        // `=` directly after the name begins the next attribute's value, not a new attribute.
        assert_eq!(cap_attributes("<p a = 1 b =2 c>", 2), "<p a = 1 b =2 >");
        // A quoted value followed by a name with no space is a new attribute.
        assert_eq!(cap_attributes("<p a='1'b=2>", 1), "<p a='1'>");
        // End tags are tokenized (and checked for duplicates) the same way.
        assert_eq!(cap_attributes("</p a b>", 1), "</p a >");
        // A tag that never ends is cut to the end of the page.
        assert_eq!(cap_attributes("<p a b c", 1), "<p a ");
    }

    #[test]
    fn comments_and_raw_text_are_not_tags() {
        let html = "<!-- <p a b c> --><script>if (a<b c d) x()</script><p a b>";
        assert_eq!(
            cap_attributes(html, 1),
            "<!-- <p a b c> --><script>if (a<b c d) x()</script><p a >"
        );
        let html = "<STYLE>a<b c d</style ><p a b>";
        assert_eq!(cap_attributes(html, 1), "<STYLE>a<b c d</style ><p a >");
    }

    #[test]
    fn a_million_attributes_are_cut_in_one_linear_pass() {
        let html = format!("<p {}>text</p>", "a ".repeat(1_000_000));
        let capped = cap_attributes(&html, 1_000);
        assert_eq!(capped.len(), "<p >text</p>".len() + 2 * 1_000);
        assert!(capped.ends_with("a >text</p>"));
    }
}
