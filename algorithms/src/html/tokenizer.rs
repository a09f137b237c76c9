//! An HTML5 tokenizer that feeds html5ever's tree builder, written for the one thing the crate
//! does with a page: read it whole, once.
//!
//! html5ever's own tokenizer is built for streamed input: it takes one character at a time from a
//! queue of buffers and copies every tag name, attribute and text run into a growing string. That
//! was two thirds of a page's parse. Here the page is one buffer: text is handed to the tree
//! builder as slices of it (shared, not copied), tags are cut with byte searches, and attributes
//! are built only for the elements whose attributes can change the tree or what the algorithms
//! read (see [`keeps_attributes`]). The states and their transitions are the WHATWG tokenizer's
//! (§13.2.5), so the tokens, and the tree the builder makes of them, are the same as html5ever's;
//! `tests/integration/tokenizer.rs` and the `tokenizer_differential` example check that on generated pages and
//! on every evaluation page. DOCTYPE tokens (one per page, with their quirks-mode rules) are
//! still read by html5ever's tokenizer.

use std::borrow::Cow;
use std::cell::RefCell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, CharacterTokens, CommentToken, Doctype, DoctypeToken, EOFToken, EndTag,
    ParseError, StartTag, Tag, TagKind, TagToken, Token, TokenSink, TokenSinkResult,
    Tokenizer as Html5everTokenizer, TokenizerOpts,
};
use html5ever::{Attribute, LocalName, QualName, local_name, ns};

use super::dom::is_formatting;
use super::limits::TagState;
use raw_text::{comment_end, is_end_tag_of, is_space, script_data_end};
use references::decode_character_reference;

mod raw_text;
mod references;

/// What the tokenizer reads next, as the tree builder sets it after a start tag.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Content {
    Data,
    /// `<title>`, `<textarea>`: text with character references, up to the end tag.
    Rcdata,
    /// `<style>`, `<xmp>`, `<iframe>`, ...: text up to the end tag.
    Rawtext,
    /// `<script>`: text up to the end tag, with the spec's escaping rules.
    ScriptData,
    /// `<plaintext>`: the rest of the page is text.
    Plaintext,
}

/// Which attributes a start tag keeps: those the tree builders need ([`keeps_attributes`]) in
/// every case, and more on request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeptAttributes {
    /// Only the tree builders' own.
    Structural,
    /// Also every element's `class`, `id` and `style` and a link's `href` (what the extractor
    /// and boilerpipe read).
    Named,
    /// All of them (trafilatura's XPaths test any attribute).
    All,
}

/// Text waiting to be handed to the tree builder as one token.
enum PendingText {
    None,
    /// A run of the page itself.
    Span(usize, usize),
    /// Text with decoded character references.
    Owned(StrTendril),
}

/// Tokenizes `html` (without U+0000 and with line breaks normalised to `\n`, as the spec's input
/// stream preprocessing leaves it) into `sink`, then ends it. `max_attributes` caps the attributes
/// kept per tag; `kept` says which attributes a start tag keeps.
pub fn tokenize<S: TokenSink>(html: &str, sink: &S, max_attributes: usize, kept: KeptAttributes) {
    let page = StrTendril::from_slice(html);
    let start = if html.starts_with('\u{FEFF}') { 3 } else { 0 };
    let mut tokenizer = Tokenizer {
        html,
        bytes: html.as_bytes(),
        page,
        sink,
        pending: PendingText::None,
        last_start_tag: local_name!(""),
        max_attributes,
        kept,
    };
    tokenizer.run(start);
    tokenizer.flush_text();
    let _ = sink.process_token(EOFToken, 0);
    sink.end();
}

struct Tokenizer<'a, S: TokenSink> {
    html: &'a str,
    bytes: &'a [u8],
    /// The page as one shared buffer, which text tokens are slices of.
    page: StrTendril,
    sink: &'a S,
    pending: PendingText,
    /// For the "appropriate end tag" of raw text content.
    last_start_tag: LocalName,
    max_attributes: usize,
    kept: KeptAttributes,
}

/// Whether the tree builder, or what the crate reads of the tree, can depend on this element's
/// attributes: the formatting elements (the "Noah's Ark" clause compares them), `<input>`
/// (`type=hidden` in tables), `<font>` in foreign content, `<link>` (jusText's stylesheet rule)
/// and `<template>` (`shadowrootmode`). Other elements' attributes are tokenized and dropped.
fn keeps_attributes(name: &LocalName) -> bool {
    is_formatting(name)
        || matches!(
            *name,
            local_name!("input") | local_name!("link") | local_name!("template")
        )
}

/// Whether the attribute `attribute` (as written) of the element `element` is one `names` keeps.
/// (`style` says whether the element is rendered.)
fn is_named_attribute(element: &LocalName, attribute: &[u8]) -> bool {
    attribute.eq_ignore_ascii_case(b"class")
        || attribute.eq_ignore_ascii_case(b"id")
        || attribute.eq_ignore_ascii_case(b"style")
        || (*element == local_name!("a") && attribute.eq_ignore_ascii_case(b"href"))
}

/// A name as the tokenizer builds it: ASCII upper case lowered.
fn lowered(name: &str) -> LocalName {
    if name.bytes().any(|b| b.is_ascii_uppercase()) {
        return LocalName::from(name.to_ascii_lowercase());
    }
    common_name(name).unwrap_or_else(|| LocalName::from(name))
}

/// The most frequent element and attribute names, matched without hashing (an atom lookup
/// hashes the name).
fn common_name(name: &str) -> Option<LocalName> {
    Some(match name {
        "a" => local_name!("a"),
        "abbr" => local_name!("abbr"),
        "article" => local_name!("article"),
        "aside" => local_name!("aside"),
        "b" => local_name!("b"),
        "big" => local_name!("big"),
        "blockquote" => local_name!("blockquote"),
        "body" => local_name!("body"),
        "br" => local_name!("br"),
        "button" => local_name!("button"),
        "center" => local_name!("center"),
        "code" => local_name!("code"),
        "dd" => local_name!("dd"),
        "div" => local_name!("div"),
        "dl" => local_name!("dl"),
        "dt" => local_name!("dt"),
        "em" => local_name!("em"),
        "font" => local_name!("font"),
        "footer" => local_name!("footer"),
        "form" => local_name!("form"),
        "h1" => local_name!("h1"),
        "h2" => local_name!("h2"),
        "h3" => local_name!("h3"),
        "h4" => local_name!("h4"),
        "h5" => local_name!("h5"),
        "h6" => local_name!("h6"),
        "head" => local_name!("head"),
        "header" => local_name!("header"),
        "hr" => local_name!("hr"),
        "html" => local_name!("html"),
        "i" => local_name!("i"),
        "iframe" => local_name!("iframe"),
        "img" => local_name!("img"),
        "input" => local_name!("input"),
        "label" => local_name!("label"),
        "li" => local_name!("li"),
        "link" => local_name!("link"),
        "main" => local_name!("main"),
        "meta" => local_name!("meta"),
        "nav" => local_name!("nav"),
        "noscript" => local_name!("noscript"),
        "ol" => local_name!("ol"),
        "option" => local_name!("option"),
        "p" => local_name!("p"),
        "path" => local_name!("path"),
        "pre" => local_name!("pre"),
        "s" => local_name!("s"),
        "script" => local_name!("script"),
        "section" => local_name!("section"),
        "select" => local_name!("select"),
        "small" => local_name!("small"),
        "span" => local_name!("span"),
        "strong" => local_name!("strong"),
        "style" => local_name!("style"),
        "sup" => local_name!("sup"),
        "svg" => local_name!("svg"),
        "table" => local_name!("table"),
        "tbody" => local_name!("tbody"),
        "td" => local_name!("td"),
        "textarea" => local_name!("textarea"),
        "th" => local_name!("th"),
        "thead" => local_name!("thead"),
        "title" => local_name!("title"),
        "tr" => local_name!("tr"),
        "tt" => local_name!("tt"),
        "u" => local_name!("u"),
        "ul" => local_name!("ul"),
        "class" => local_name!("class"),
        "href" => local_name!("href"),
        "id" => local_name!("id"),
        "rel" => local_name!("rel"),
        "target" => local_name!("target"),
        "type" => local_name!("type"),
        _ => return None,
    })
}

/// Where an attribute's name and value are in the page.
#[derive(Clone, Copy)]
struct AttributeSpan {
    name: (usize, usize),
    value: (usize, usize),
}

impl<'a, S: TokenSink> Tokenizer<'a, S> {
    fn run(&mut self, mut at: usize) {
        let mut content = Content::Data;
        while at < self.bytes.len() {
            at = match content {
                Content::Data => self.data(at, &mut content),
                Content::Rcdata | Content::Rawtext => self.raw_text(at, content, &mut content),
                Content::ScriptData => {
                    let end = script_data_end(self.bytes, at);
                    self.push_text(at, end);
                    self.end_of_raw_text(end, &mut content)
                }
                Content::Plaintext => {
                    self.push_text(at, self.bytes.len());
                    self.bytes.len()
                }
            };
        }
    }

    /// The data state from `at` to the next tag or the end; returns where to go on.
    fn data(&mut self, at: usize, content: &mut Content) -> usize {
        let Some(offset) = memchr::memchr2(b'<', b'&', &self.bytes[at..]) else {
            self.push_text(at, self.bytes.len());
            return self.bytes.len();
        };
        let special = at + offset;
        self.push_text(at, special);
        if self.bytes[special] == b'&' {
            return self.character_reference(special);
        }
        self.tag_open(special, content)
    }

    /// Text of `<title>`-like (RCDATA, with character references) or `<style>`-like (RAWTEXT)
    /// elements up to their end tag.
    fn raw_text(&mut self, at: usize, kind: Content, content: &mut Content) -> usize {
        let found = if kind == Content::Rcdata {
            memchr::memchr2(b'<', b'&', &self.bytes[at..])
        } else {
            memchr::memchr(b'<', &self.bytes[at..])
        };
        let Some(offset) = found else {
            self.push_text(at, self.bytes.len());
            return self.bytes.len();
        };
        let special = at + offset;
        self.push_text(at, special);
        if self.bytes[special] == b'&' {
            return self.character_reference(special);
        }
        if is_end_tag_of(self.bytes, special, &self.last_start_tag) {
            return self.end_of_raw_text(special, content);
        }
        self.push_text(special, special + 1);
        special + 1
    }

    /// At the `</` that ends raw text (or the end of the page): the end tag.
    fn end_of_raw_text(&mut self, at: usize, content: &mut Content) -> usize {
        if at >= self.bytes.len() {
            return at;
        }
        self.tag(at + 2, EndTag, content)
    }

    /// At a `<` in the data state (§13.2.5.6).
    fn tag_open(&mut self, at: usize, content: &mut Content) -> usize {
        let next = at + 1;
        match self.bytes.get(next) {
            Some(b'!') => self.markup_declaration(next + 1),
            Some(b'/') => match self.bytes.get(next + 1) {
                Some(b) if b.is_ascii_alphabetic() => self.tag(next + 1, EndTag, content),
                Some(b'>') => {
                    // `</>` builds nothing, but html5ever reports it to the tree builder, which
                    // ends the "ignore a newline after <pre>" rule: `<pre></>\nx` keeps its
                    // newline.
                    let _ = self.emit(ParseError(Cow::Borrowed("Missing end tag name")));
                    next + 2
                }
                Some(_) => self.bogus_comment(next + 1),
                None => {
                    self.push_text(at, self.bytes.len());
                    self.bytes.len()
                }
            },
            Some(b) if b.is_ascii_alphabetic() => self.tag(next, StartTag, content),
            Some(b'?') => self.bogus_comment(next),
            _ => {
                self.push_text(at, next);
                next
            }
        }
    }

    /// After `<!` (§13.2.5.42).
    fn markup_declaration(&mut self, at: usize) -> usize {
        let rest = &self.bytes[at..];
        if rest.starts_with(b"--") {
            return self.comment(at + 2);
        }
        if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            return self.doctype(at + 7);
        }
        if rest.starts_with(b"[CDATA[")
            && self
                .sink
                .adjusted_current_node_present_but_not_in_html_namespace()
        {
            let start = at + 7;
            let (text_end, next) = match memchr::memmem::find(&self.bytes[start..], b"]]>") {
                Some(offset) => (start + offset, start + offset + 3),
                None => (self.bytes.len(), self.bytes.len()),
            };
            self.push_text(start, text_end);
            return next;
        }
        self.bogus_comment(at)
    }

    /// After `<!--`: the comment ends at `-->` or `--!>` (or at once for `<!-->` and `<!--->`);
    /// what it says is not kept.
    fn comment(&mut self, at: usize) -> usize {
        let rest = &self.bytes[at..];
        let end = if rest.starts_with(b">") {
            at + 1
        } else if rest.starts_with(b"->") {
            at + 2
        } else {
            comment_end(rest).map_or(self.bytes.len(), |e| at + e)
        };
        let _ = self.emit(CommentToken(StrTendril::new()));
        end
    }

    /// A bogus comment from `at` to the next `>`.
    fn bogus_comment(&mut self, at: usize) -> usize {
        let end = memchr::memchr(b'>', &self.bytes[at..]).map_or(self.bytes.len(), |e| at + e + 1);
        let _ = self.emit(CommentToken(StrTendril::new()));
        end
    }

    /// After `<!DOCTYPE`: every DOCTYPE state ends at the next `>`, so that much is handed to
    /// html5ever's tokenizer, whose token (name, identifiers, force-quirks) the tree builder's
    /// quirks-mode rules read.
    fn doctype(&mut self, at: usize) -> usize {
        let end = memchr::memchr(b'>', &self.bytes[at..]).map_or(self.bytes.len(), |e| at + e + 1);
        let mut source = String::with_capacity(end - at + 9);
        source.push_str("<!DOCTYPE");
        source.push_str(&self.html[at..end]);
        let tokenizer =
            Html5everTokenizer::new(DoctypeCapture::default(), TokenizerOpts::default());
        let input = BufferQueue::default();
        input.push_back(StrTendril::from_slice(&source));
        let _ = tokenizer.feed(&input);
        tokenizer.end();
        let doctype = tokenizer.sink.doctype.take().unwrap_or_else(|| Doctype {
            force_quirks: true,
            ..Doctype::default()
        });
        let _ = self.emit(DoctypeToken(doctype));
        end
    }

    /// At `&` in text: appends what the character reference stands for (or the `&` itself);
    /// returns where text goes on.
    fn character_reference(&mut self, at: usize) -> usize {
        let Some(reference) = decode_character_reference(self.bytes, at, false) else {
            self.push_text(at, at + 1);
            return at + 1;
        };
        if reference.is_error {
            // html5ever reports the error to the tree builder before the characters, which
            // ends the "ignore a newline after <pre>" rule: `<pre>&#10x` keeps its newline.
            let _ = self.emit(ParseError(Cow::Borrowed("Invalid character reference")));
        }
        for c in reference.chars.into_iter().flatten() {
            self.push_char(c);
        }
        reference.end
    }

    /// A start or end tag whose name starts at `name_start`; emits it unless the page ends inside
    /// it, and returns where the data state goes on.
    fn tag(&mut self, name_start: usize, kind: TagKind, content: &mut Content) -> usize {
        let bytes = self.bytes;
        let name_end = name_start
            + bytes[name_start..]
                .iter()
                .position(|&b| is_space(b) || b == b'/' || b == b'>')
                .unwrap_or(bytes.len() - name_start);
        if name_end >= bytes.len() {
            return bytes.len();
        }
        let name = lowered(&self.html[name_start..name_end]);
        let keep =
            kind == StartTag && (self.kept == KeptAttributes::All || keeps_attributes(&name));
        let keep_names = kind == StartTag && self.kept == KeptAttributes::Named;
        // Whether the attribute being read is kept.
        let mut recording = false;
        let mut spans: Vec<AttributeSpan> = Vec::new();
        let mut started = 0usize;
        let mut self_closing = false;
        let mut state = TagState::BeforeAttributeName;
        let mut name_from = 0;
        let mut i = name_end;
        // The byte that ended the name is read again in the before-attribute-name state, where a
        // space is skipped, `/` and `>` act as in the tag-name state.
        let end = loop {
            let Some(&b) = bytes.get(i) else {
                return bytes.len();
            };
            use TagState::*;
            match state {
                BeforeAttributeName => match b {
                    _ if is_space(b) => i += 1,
                    b'/' => {
                        state = SelfClosing;
                        i += 1;
                    }
                    b'>' => break i + 1,
                    _ => {
                        // `=` here starts a name that begins with it.
                        name_from = i;
                        started += 1;
                        state = AttributeName;
                        i += 1;
                    }
                },
                AttributeName => {
                    let stop = bytes[i..]
                        .iter()
                        .position(|&b| is_space(b) || b == b'/' || b == b'>' || b == b'=')
                        .map_or(bytes.len(), |p| i + p);
                    if stop >= bytes.len() {
                        return bytes.len();
                    }
                    recording = started <= self.max_attributes
                        && (keep
                            || (keep_names && is_named_attribute(&name, &bytes[name_from..stop])));
                    if recording {
                        spans.push(AttributeSpan {
                            name: (name_from, stop),
                            value: (stop, stop),
                        });
                    }
                    i = stop;
                    state = if bytes[stop] == b'=' {
                        i += 1;
                        BeforeAttributeValue
                    } else {
                        AfterAttributeName
                    };
                }
                AfterAttributeName => match b {
                    _ if is_space(b) => i += 1,
                    b'/' => {
                        state = SelfClosing;
                        i += 1;
                    }
                    b'=' => {
                        state = BeforeAttributeValue;
                        i += 1;
                    }
                    b'>' => break i + 1,
                    _ => {
                        name_from = i;
                        started += 1;
                        state = AttributeName;
                        i += 1;
                    }
                },
                BeforeAttributeValue => match b {
                    _ if is_space(b) => i += 1,
                    b'"' | b'\'' => {
                        state = Quoted(b);
                        i += 1;
                    }
                    b'>' => break i + 1,
                    _ => state = Unquoted,
                },
                Quoted(quote) => {
                    let Some(offset) = memchr::memchr(quote, &bytes[i..]) else {
                        return bytes.len();
                    };
                    self.set_value(&mut spans, recording, i, i + offset);
                    i += offset + 1;
                    state = AfterQuotedValue;
                }
                Unquoted => {
                    let stop = bytes[i..]
                        .iter()
                        .position(|&b| is_space(b) || b == b'>')
                        .map_or(bytes.len(), |p| i + p);
                    if stop >= bytes.len() {
                        return bytes.len();
                    }
                    self.set_value(&mut spans, recording, i, stop);
                    i = stop;
                    state = BeforeAttributeName;
                }
                AfterQuotedValue => match b {
                    _ if is_space(b) => {
                        state = BeforeAttributeName;
                        i += 1;
                    }
                    b'/' => {
                        state = SelfClosing;
                        i += 1;
                    }
                    b'>' => break i + 1,
                    _ => state = BeforeAttributeName,
                },
                SelfClosing => match b {
                    b'>' => {
                        self_closing = true;
                        break i + 1;
                    }
                    _ => state = BeforeAttributeName,
                },
            }
        };
        let (attrs, had_duplicate_attributes) = self.attributes(&spans);
        let tag = Tag {
            kind,
            name,
            self_closing,
            attrs,
            had_duplicate_attributes,
        };
        self.emit_tag(tag, content);
        end
    }

    /// Records the value of the attribute just named.
    fn set_value(&self, spans: &mut [AttributeSpan], kept: bool, start: usize, end: usize) {
        if let (true, Some(last)) = (kept, spans.last_mut()) {
            last.value = (start, end);
        }
    }

    /// The attributes of a kept tag, the first of each name only (as the spec says), values with
    /// their character references decoded.
    fn attributes(&self, spans: &[AttributeSpan]) -> (Vec<Attribute>, bool) {
        let mut attrs: Vec<Attribute> = Vec::with_capacity(spans.len());
        let mut duplicate = false;
        // Past a few attributes a set keeps the check linear (up to `max_attributes` per tag).
        let mut seen: Option<ahash::AHashSet<LocalName>> = None;
        for span in spans {
            let name = lowered(&self.html[span.name.0..span.name.1]);
            let repeated = if spans.len() <= 16 {
                attrs.iter().any(|a| a.name.local == name)
            } else {
                !seen
                    .get_or_insert_with(ahash::AHashSet::new)
                    .insert(name.clone())
            };
            if repeated {
                duplicate = true;
                continue;
            }
            attrs.push(Attribute {
                name: QualName::new(None, ns!(), name),
                value: self.attribute_value(span.value.0, span.value.1),
            });
        }
        (attrs, duplicate)
    }

    fn attribute_value(&self, start: usize, end: usize) -> StrTendril {
        let raw = &self.bytes[start..end];
        if !raw.contains(&b'&') {
            return StrTendril::from_slice(&self.html[start..end]);
        }
        let mut value = StrTendril::new();
        let mut i = start;
        while let Some(offset) = memchr::memchr(b'&', &self.bytes[i..end]) {
            let amp = i + offset;
            value.push_slice(&self.html[i..amp]);
            // A reference cannot run past the value: its name is letters, digits and `;`.
            match decode_character_reference(&self.bytes[..end], amp, true) {
                Some(reference) => {
                    for c in reference.chars.into_iter().flatten() {
                        value.push_char(c);
                    }
                    i = reference.end;
                }
                None => {
                    value.push_char('&');
                    i = amp + 1;
                }
            }
        }
        value.push_slice(&self.html[i..end]);
        value
    }

    fn emit_tag(&mut self, tag: Tag, content: &mut Content) {
        if tag.kind == StartTag {
            self.last_start_tag = tag.name.clone();
        }
        *content = match self.emit(TagToken(tag)) {
            TokenSinkResult::RawData(RawKind::Rcdata) => Content::Rcdata,
            TokenSinkResult::RawData(RawKind::Rawtext) => Content::Rawtext,
            TokenSinkResult::RawData(_) => Content::ScriptData,
            TokenSinkResult::Plaintext => Content::Plaintext,
            _ => Content::Data,
        };
    }

    /// Hands a token to the tree builder, after the text before it.
    fn emit(&mut self, token: Token) -> TokenSinkResult<S::Handle> {
        self.flush_text();
        self.sink.process_token(token, 0)
    }

    fn push_text(&mut self, start: usize, end: usize) {
        if start >= end {
            return;
        }
        match &mut self.pending {
            PendingText::None => self.pending = PendingText::Span(start, end),
            PendingText::Span(_, e) if *e == start => *e = end,
            PendingText::Span(..) => {
                let mut owned = self.take_pending();
                owned.push_slice(&self.html[start..end]);
                self.pending = PendingText::Owned(owned);
            }
            PendingText::Owned(text) => text.push_slice(&self.html[start..end]),
        }
    }

    fn push_char(&mut self, c: char) {
        let mut owned = self.take_pending();
        owned.push_char(c);
        self.pending = PendingText::Owned(owned);
    }

    /// The pending text as a tendril (empty if none), leaving none.
    fn take_pending(&mut self) -> StrTendril {
        match std::mem::replace(&mut self.pending, PendingText::None) {
            PendingText::None => StrTendril::new(),
            PendingText::Span(start, end) => self.slice(start, end),
            PendingText::Owned(text) => text,
        }
    }

    /// A slice of the page sharing its buffer.
    fn slice(&self, start: usize, end: usize) -> StrTendril {
        // The caller makes sure the page fits a tendril's u32 lengths.
        self.page.subtendril(start as u32, (end - start) as u32)
    }

    fn flush_text(&mut self) {
        if matches!(self.pending, PendingText::None) {
            return;
        }
        let text = self.take_pending();
        let _ = self.sink.process_token(CharacterTokens(text), 0);
    }
}

/// Keeps the DOCTYPE token html5ever's tokenizer makes of a `<!DOCTYPE ...>`.
#[derive(Default)]
struct DoctypeCapture {
    doctype: RefCell<Option<Doctype>>,
}

impl TokenSink for DoctypeCapture {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        if let DoctypeToken(doctype) = token {
            self.doctype.borrow_mut().get_or_insert(doctype);
        }
        TokenSinkResult::Continue
    }
}
