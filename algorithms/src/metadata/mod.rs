//! A page's metadata from the places publishers declare it: `<meta>` tags (HTML's own, Open
//! Graph, Twitter, Dublin Core and the common news-site ones), `<link rel="canonical">`,
//! `<html lang>`, `<title>`, `<time datetime>` and JSON-LD (`schema.org` Article, WebSite,
//! Organization).
//!
//! Metadata lives in tags and attributes, not in the tree, so the page is read by html5ever's
//! tokenizer alone (ours keeps only the attributes the tree builders need): one pass, no tree,
//! every attribute. Values are returned as declared (whitespace collapsed), not interpreted: a
//! date is the declared string, which SQL's `to_timestamp` reads; a relative URL stays relative.

mod json_ld;
mod tidy;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, EndTag, StartTag, Tag, TagToken, Token, TokenSink, TokenSinkResult, Tokenizer,
    TokenizerOpts,
};
use html5ever::{TokenizerResult, local_name};

use crate::html::limits::{Limits, cap_attributes};
use tidy::tidy;

/// What [`extract_metadata`] finds; `None` where the page declares nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    pub title: Option<String>,
    pub author: Option<String>,
    pub date: Option<String>,
    pub site_name: Option<String>,
    pub language: Option<String>,
    pub canonical_url: Option<String>,
}

/// The `<meta>` keys read for each field, in order of preference after the field's first source
/// (see [`extract_metadata`]).
const TITLE_KEYS: &[&str] = &["og:title", "twitter:title", "dc.title", "dcterms.title"];
const AUTHOR_KEYS: &[&str] = &[
    "author",
    "article:author",
    "dc.creator",
    "dcterms.creator",
    "parsely-author",
    "sailthru.author",
    "byl",
];
const DATE_KEYS: &[&str] = &[
    "article:published_time",
    "og:published_time",
    "datepublished",
    "parsely-pub-date",
    "sailthru.date",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "date",
    "dc.date",
    "dc.date.issued",
    "dcterms.date",
    "dcterms.issued",
];
const SITE_KEYS: &[&str] = &["og:site_name", "application-name"];

/// Reads a page's metadata (the page as text; see [`crate::html::decode_html`] for bytes).
///
/// Each field is the first of its sources the page has, in this order:
/// - title: `og:title`, `twitter:title`, Dublin Core's title, JSON-LD `headline` (or `name`) of
///   an article, the first `<title>`;
/// - author: `<meta name="author">`, `article:author` (not a URL), Dublin Core's creator,
///   `parsely-author`, `sailthru.author`, `byl` (without "By "), then JSON-LD `author` (names
///   joined by "; ");
/// - date: `article:published_time`, `og:published_time`, `itemprop="datePublished"`, and the
///   other common publication-date meta names, then JSON-LD `datePublished`, then a `<time
///   datetime>` marked `pubdate` or `itemprop="datePublished"`, then the first `<time datetime>`;
/// - site_name: `og:site_name`, `application-name`, JSON-LD `publisher.name`, a JSON-LD
///   WebSite's `name`;
/// - language: `<html lang>`, `<meta http-equiv="content-language">`, `og:locale`, JSON-LD
///   `inLanguage`;
/// - canonical_url: `<link rel="canonical">`, `og:url`, JSON-LD `url` of an article.
pub fn extract_metadata(html: &str, limits: &Limits) -> Metadata {
    let found = scan(html, limits);
    let ld = json_ld::Facts::from_scripts(&found.json_ld);
    let meta = |keys: &[&str]| keys.iter().find_map(|k| found.meta.get(*k).cloned());
    Metadata {
        title: meta(TITLE_KEYS)
            .or_else(|| ld.headline.clone())
            .or_else(|| found.title.clone()),
        author: AUTHOR_KEYS
            .iter()
            .find_map(|k| found.meta.get(*k).and_then(|v| author_name(v)))
            .or_else(|| ld.author.as_deref().and_then(author_name)),
        date: meta(DATE_KEYS)
            .or_else(|| ld.date_published.clone())
            .or_else(|| found.marked_time.clone())
            .or_else(|| found.first_time.clone()),
        site_name: meta(SITE_KEYS)
            .or_else(|| ld.publisher.clone())
            .or_else(|| ld.website.clone()),
        language: found
            .html_lang
            .clone()
            .or_else(|| found.content_language.clone())
            .or_else(|| meta(&["og:locale"]))
            .or_else(|| ld.language.clone()),
        canonical_url: found
            .canonical
            .clone()
            .or_else(|| meta(&["og:url"]))
            .or_else(|| ld.url.clone()),
    }
}

/// An author value as a name: a URL (a profile page, as `article:author` often is) is none, and
/// a by-line loses its "By ".
fn author_name(value: &str) -> Option<String> {
    if value.starts_with("http://") || value.starts_with("https://") || value.starts_with('/') {
        return None;
    }
    let name = value
        .strip_prefix("By ")
        .or_else(|| value.strip_prefix("by "))
        .unwrap_or(value);
    tidy(name)
}

/// What the tokens of a page declare, before the fields are chosen.
#[derive(Debug, Default)]
struct Found {
    /// `<meta>` content by its lower-cased name, property or itemprop; the first one of a key.
    meta: HashMap<String, String>,
    html_lang: Option<String>,
    content_language: Option<String>,
    title: Option<String>,
    canonical: Option<String>,
    marked_time: Option<String>,
    first_time: Option<String>,
    json_ld: Vec<String>,
}

/// Where the text tokens go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Capture {
    Nothing,
    Title,
    JsonLd,
}

struct Scanner {
    found: RefCell<Found>,
    capture: Cell<Capture>,
    text: RefCell<String>,
    /// Open `<svg>` elements: their `<title>` is a drawing's, not the page's.
    svg_depth: Cell<usize>,
    /// JSON-LD is read up to this many bytes per page, so a page of megabytes of it costs no more.
    json_ld_budget: Cell<usize>,
}

/// JSON-LD a page may hold and still be read.
const JSON_LD_BYTES: usize = 4 << 20;

fn scan(html: &str, limits: &Limits) -> Found {
    let html = cap_attributes(html, limits.max_attributes);
    let scanner = Scanner {
        found: RefCell::new(Found::default()),
        capture: Cell::new(Capture::Nothing),
        text: RefCell::new(String::new()),
        svg_depth: Cell::new(0),
        json_ld_budget: Cell::new(JSON_LD_BYTES),
    };
    let tokenizer = Tokenizer::new(scanner, TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(&html));
    while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
    tokenizer.end();
    tokenizer.sink.found.into_inner()
}

fn attribute<'a>(tag: &'a Tag, name: &str) -> Option<&'a str> {
    tag.attrs
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| a.value.as_ref())
}

impl Scanner {
    fn start_tag(&self, tag: &Tag) -> TokenSinkResult<()> {
        let mut found = self.found.borrow_mut();
        match tag.name {
            local_name!("html") if found.html_lang.is_none() => {
                found.html_lang = attribute(tag, "lang").and_then(tidy);
            }
            local_name!("svg") if !tag.self_closing => {
                self.svg_depth.set(self.svg_depth.get() + 1);
            }
            local_name!("title") if found.title.is_none() && self.svg_depth.get() == 0 => {
                self.begin(Capture::Title);
                return TokenSinkResult::RawData(RawKind::Rcdata);
            }
            local_name!("meta") => read_meta(&mut found, tag),
            local_name!("link") if found.canonical.is_none() => {
                let canonical = attribute(tag, "rel").is_some_and(|rel| {
                    rel.split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("canonical"))
                });
                if canonical {
                    found.canonical = attribute(tag, "href").and_then(tidy);
                }
            }
            local_name!("time") => read_time(&mut found, tag),
            local_name!("script") => {
                let json_ld = attribute(tag, "type")
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"));
                if json_ld {
                    self.begin(Capture::JsonLd);
                }
                return TokenSinkResult::RawData(RawKind::ScriptData);
            }
            local_name!("textarea") => return TokenSinkResult::RawData(RawKind::Rcdata),
            local_name!("style")
            | local_name!("xmp")
            | local_name!("iframe")
            | local_name!("noembed")
            | local_name!("noframes")
            | local_name!("noscript") => return TokenSinkResult::RawData(RawKind::Rawtext),
            local_name!("plaintext") => return TokenSinkResult::Plaintext,
            _ => {}
        }
        TokenSinkResult::Continue
    }

    fn begin(&self, capture: Capture) {
        self.capture.set(capture);
        self.text.borrow_mut().clear();
    }

    fn end_tag(&self, tag: &Tag) {
        if tag.name == local_name!("svg") {
            self.svg_depth.set(self.svg_depth.get().saturating_sub(1));
        }
        let capture = self.capture.get();
        let ends = match tag.name {
            local_name!("title") => capture == Capture::Title,
            local_name!("script") => capture == Capture::JsonLd,
            _ => false,
        };
        if !ends {
            return;
        }
        self.capture.set(Capture::Nothing);
        let text = std::mem::take(&mut *self.text.borrow_mut());
        let mut found = self.found.borrow_mut();
        match capture {
            Capture::Title => found.title = tidy(&text),
            Capture::JsonLd => found.json_ld.push(text),
            Capture::Nothing => {}
        }
    }

    fn text(&self, text: &str) {
        match self.capture.get() {
            Capture::Nothing => {}
            Capture::Title => self.text.borrow_mut().push_str(text),
            Capture::JsonLd => {
                let budget = self.json_ld_budget.get();
                if text.len() <= budget {
                    self.json_ld_budget.set(budget - text.len());
                    self.text.borrow_mut().push_str(text);
                } else {
                    // Over the budget: this script is dropped, not read half.
                    self.json_ld_budget.set(0);
                    self.capture.set(Capture::Nothing);
                }
            }
        }
    }
}

fn read_meta(found: &mut Found, tag: &Tag) {
    let Some(content) = attribute(tag, "content").and_then(tidy) else {
        return;
    };
    if attribute(tag, "http-equiv")
        .is_some_and(|h| h.trim().eq_ignore_ascii_case("content-language"))
    {
        found.content_language.get_or_insert(content);
        return;
    }
    for key in ["property", "name", "itemprop"] {
        if let Some(key) = attribute(tag, key) {
            let key = key.trim().to_ascii_lowercase();
            if !key.is_empty() {
                found.meta.entry(key).or_insert_with(|| content.clone());
            }
        }
    }
}

fn read_time(found: &mut Found, tag: &Tag) {
    let Some(datetime) = attribute(tag, "datetime").and_then(tidy) else {
        return;
    };
    let marked = attribute(tag, "pubdate").is_some()
        || attribute(tag, "itemprop")
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("datePublished"));
    if marked && found.marked_time.is_none() {
        found.marked_time = Some(datetime.clone());
    }
    found.first_time.get_or_insert(datetime);
}

impl TokenSink for Scanner {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        match token {
            TagToken(tag) if tag.kind == StartTag => return self.start_tag(&tag),
            TagToken(tag) if tag.kind == EndTag => self.end_tag(&tag),
            Token::CharacterTokens(text) => self.text(&text),
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

#[cfg(test)]
mod tests;
