//! FineWeb's URL filter as HuggingFace datatrove 0.10.1's `URLFilter` applies it
//! (`pipeline/filters/url_filter.py`), the first step of FineWeb's chain: a document is removed
//! when its URL's registered domain, its host or the URL itself is on the block list, or the URL
//! holds a banned word, two soft-banned words, or a banned sub-word once its separators are gone.
//!
//! The host is split as tldextract 5.4.0 splits it ([`tldextract`]); every comparison is exact
//! and case-sensitive, as datatrove's are. The word lists datatrove ships are compiled in
//! (`lists/datatrove_url_filter`, Apache-2.0); the block list of 4.6 million domains is read
//! from the archive datatrove ships ([`block_list`]).

pub mod block_list;
pub mod tldextract;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use ahash::AHashMap;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

pub use block_list::{BLOCK_LIST_ARCHIVE, BlockList, StringSet, list_entries, load_block_list};
pub use tldextract::{HostParts, extract};

const BANNED_WORDS: &str = include_str!("../../../../lists/datatrove_url_filter/banned_words.txt");
const SOFT_BANNED_WORDS: &str =
    include_str!("../../../../lists/datatrove_url_filter/soft_banned_words.txt");
const BANNED_SUBWORDS: &str =
    include_str!("../../../../lists/datatrove_url_filter/banned_subwords.txt");

/// datatrove's `normalize`: the ASCII letters and digits of a string, lower-cased.
pub fn normalize(text: &str) -> String {
    // Bytewise: the bytes of a character beyond ASCII are none of them ASCII.
    let mut kept = Vec::with_capacity(text.len());
    kept.extend(
        text.bytes()
            .filter(u8::is_ascii_alphanumeric)
            .map(|b| b.to_ascii_lowercase()),
    );
    // ASCII only: always valid.
    String::from_utf8(kept).unwrap_or_default()
}

/// The words of a URL as datatrove's `re.split("[^a-zA-Z0-9]+", url)` gives them: its maximal
/// runs of ASCII letters and digits, with their case, and the empty word when the URL starts or
/// ends with another character (an empty word can be listed: a word of separators normalises to
/// it).
fn url_words(url: &str) -> impl Iterator<Item = &str> {
    let bytes = url.as_bytes();
    let edge = |b: Option<&u8>| !b.is_some_and(u8::is_ascii_alphanumeric);
    let empty = (edge(bytes.first()) || edge(bytes.last())).then_some("");
    let mut at = 0;
    let runs = std::iter::from_fn(move || {
        while at < bytes.len() && !bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        // Both ends are character boundaries: an ASCII byte, the byte after one, or the end.
        (at > start).then(|| &url[start..at])
    });
    empty.into_iter().chain(runs)
}

/// The banned and soft-banned words in one table, each word's kinds beside it, with the
/// lengths it holds: a URL's word is ruled out by its length or found by one hash.
#[derive(Debug, Default)]
struct WordTable {
    kinds: AHashMap<String, u8>,
    /// Bit `n` for a word of `n` bytes (bit 63: 63 or more).
    lengths: u64,
}

const BANNED: u8 = 1;
const SOFT_BANNED: u8 = 2;

impl WordTable {
    fn new(banned: BTreeSet<String>, soft_banned: BTreeSet<String>) -> WordTable {
        let mut table = WordTable::default();
        for (words, kind) in [(banned, BANNED), (soft_banned, SOFT_BANNED)] {
            for word in words {
                table.lengths |= length_bit(&word);
                *table.kinds.entry(word).or_default() |= kind;
            }
        }
        table
    }

    /// The kinds of a word (0: neither).
    fn kinds(&self, word: &str) -> u8 {
        if self.lengths & length_bit(word) == 0 {
            return 0;
        }
        self.kinds.get(word).copied().unwrap_or(0)
    }

    #[cfg(test)]
    fn count(&self, kind: u8) -> usize {
        self.kinds.values().filter(|k| *k & kind != 0).count()
    }
}

fn length_bit(word: &str) -> u64 {
    1 << word.len().min(63)
}

/// Words of a list as datatrove's `parse_list` normalises them (lines starting with `#` left out).
fn word_set<'a>(lines: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    lines
        .into_iter()
        .filter(|line| !line.starts_with('#'))
        .map(normalize)
        .collect()
}

/// `URLFilter`'s constructor arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct UrlFilterParams {
    pub soft_word_threshold: usize,
    pub extra_domains: Vec<String>,
    pub extra_urls: Vec<String>,
    pub banned_words: Vec<String>,
    pub banned_subwords: Vec<String>,
    pub soft_banned_words: Vec<String>,
    /// Add datatrove's own lists: its words, and the domains and URLs of [`Self::block_list`].
    pub use_integrated_lists: bool,
    /// Where the integrated domain and URL list is read from (`None`: not used).
    pub block_list: Option<PathBuf>,
}

impl Default for UrlFilterParams {
    fn default() -> Self {
        UrlFilterParams {
            soft_word_threshold: 2,
            extra_domains: Vec::new(),
            extra_urls: Vec::new(),
            banned_words: Vec::new(),
            banned_subwords: Vec::new(),
            soft_banned_words: Vec::new(),
            use_integrated_lists: true,
            block_list: None,
        }
    }
}

/// The reasons, in the order datatrove checks them.
pub const URL_FILTER_REASONS: [&str; 6] = [
    "domain",
    "subdomain",
    "url",
    "hard_blacklisted",
    "soft_blacklisted",
    "blacklisted_subword",
];

/// What the filter decided for a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlDecision {
    pub reason: Option<&'static str>,
    /// What matched: the listed domain, host or URL; the banned word; the soft-banned words
    /// (sorted, space-separated); the banned sub-word.
    pub matched: Option<String>,
    pub host: HostParts,
    /// [`HostParts::registered_domain`] and [`HostParts::fqdn`] of the host, built once.
    pub registered_domain: String,
    pub fqdn: String,
}

impl UrlDecision {
    pub fn passed(&self) -> bool {
        self.reason.is_none()
    }
}

/// The filter with its lists built.
pub struct UrlFilter {
    block_list: Arc<BlockList>,
    // Hashed: every word of every URL is looked up.
    words: WordTable,
    subwords: Vec<String>,
    subword_automaton: Option<AhoCorasick>,
    soft_word_threshold: usize,
}

impl UrlFilter {
    /// Builds the lists as datatrove's constructor and first call do: the arguments' lists,
    /// then, with `use_integrated_lists`, datatrove's.
    pub fn new(params: &UrlFilterParams) -> Result<UrlFilter, String> {
        let mut banned_words = word_set(params.banned_words.iter().map(String::as_str));
        let mut soft_banned_words = word_set(params.soft_banned_words.iter().map(String::as_str));
        let mut subwords = word_set(params.banned_subwords.iter().map(String::as_str));
        let extra_domains: Vec<String> = own_entries(&params.extra_domains);
        let extra_urls: Vec<String> = own_entries(&params.extra_urls);
        let mut block_list = Arc::new(BlockList::default());
        if params.use_integrated_lists {
            banned_words.extend(word_set(list_entries_raw(BANNED_WORDS)));
            soft_banned_words.extend(word_set(list_entries_raw(SOFT_BANNED_WORDS)));
            subwords.extend(word_set(list_entries_raw(BANNED_SUBWORDS)));
            if let Some(path) = &params.block_list {
                block_list = load_block_list(path)?;
            }
        }
        if !extra_domains.is_empty() || !extra_urls.is_empty() {
            block_list = Arc::new(BlockList {
                domains: block_list.domains.with(&extra_domains)?,
                urls: block_list.urls.with(&extra_urls)?,
            });
        }
        // pyahocorasick does not add an empty word.
        let subwords: Vec<String> = subwords.into_iter().filter(|w| !w.is_empty()).collect();
        let subword_automaton = if subwords.is_empty() {
            None
        } else {
            // A DFA: a few hundred kilobytes for datatrove's 134 sub-words, and twice as fast
            // as the default automaton over every URL.
            AhoCorasickBuilder::new()
                .match_kind(MatchKind::LeftmostFirst)
                .kind(Some(AhoCorasickKind::DFA))
                .build(&subwords)
                .ok()
        };
        Ok(UrlFilter {
            block_list,
            words: WordTable::new(banned_words, soft_banned_words),
            subwords,
            subword_automaton,
            soft_word_threshold: params.soft_word_threshold,
        })
    }

    /// The entries of the domain list (the integrated and the extra ones).
    pub fn listed_domains(&self) -> usize {
        self.block_list.domains.len()
    }

    /// `URLFilter.filter` on a URL; an error for an empty URL (datatrove's AssertionError).
    pub fn filter(&self, url: &str) -> Result<UrlDecision, String> {
        if url.is_empty() {
            return Err("Document does not have url in its metadata".to_owned());
        }
        let host = extract(url);
        let registered_domain = host.registered_domain();
        let fqdn = host.fqdn();
        let (reason, matched) = self.first_rule(url, &registered_domain, &fqdn).unzip();
        Ok(UrlDecision {
            reason,
            matched,
            host,
            registered_domain,
            fqdn,
        })
    }

    fn first_rule(
        &self,
        url: &str,
        registered: &str,
        fqdn: &str,
    ) -> Option<(&'static str, String)> {
        if self.block_list.domains.contains(registered) {
            return Some(("domain", registered.to_owned()));
        }
        if self.block_list.domains.contains(fqdn) {
            return Some(("subdomain", fqdn.to_owned()));
        }
        if self.block_list.urls.contains(url) {
            return Some(("url", url.to_owned()));
        }
        // One pass: the first banned word decides; the soft words count only without one.
        let mut soft = BTreeSet::new();
        for word in url_words(url) {
            let kinds = self.words.kinds(word);
            if kinds & BANNED != 0 {
                return Some(("hard_blacklisted", word.to_owned()));
            }
            if kinds & SOFT_BANNED != 0 {
                soft.insert(word);
            }
        }
        if soft.len() >= self.soft_word_threshold {
            return Some((
                "soft_blacklisted",
                soft.into_iter().collect::<Vec<_>>().join(" "),
            ));
        }
        let automaton = self.subword_automaton.as_ref()?;
        let found = automaton.find(&normalize(url))?;
        Some((
            "blacklisted_subword",
            self.subwords[found.pattern().as_usize()].clone(),
        ))
    }
}

/// The lines of a bundled word file (no final newline).
fn list_entries_raw(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.lines()
}

/// A constructor's domain or URL list as `parse_list` reads it: comments out, entries stripped.
fn own_entries(entries: &[String]) -> Vec<String> {
    entries
        .iter()
        .filter(|e| !e.starts_with('#'))
        .map(|e| e.trim_matches(crate::words::is_python_space).to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_only() -> UrlFilter {
        UrlFilter::new(&UrlFilterParams::default()).unwrap()
    }

    #[test]
    fn the_bundled_word_lists_have_datatroves_sizes() {
        let filter = words_only();
        assert_eq!(filter.words.count(BANNED), 203);
        assert_eq!(filter.words.count(SOFT_BANNED), 87);
        assert_eq!(filter.subwords.len(), 134);
    }

    #[test]
    fn words_are_compared_with_their_case_and_sub_words_without_separators() {
        let filter = words_only();
        let reason = |url: &str| filter.filter(url).unwrap().reason;
        assert_eq!(
            reason("http://example.com/porn/x"),
            Some("hard_blacklisted")
        );
        assert_eq!(reason("http://example.com/news/today"), None);
        assert_eq!(reason("HTTP://PORNHUB.COM/"), Some("blacklisted_subword"));
        assert!(filter.filter("").is_err());
    }

    #[test]
    fn url_words_are_pythons_split_on_runs_of_other_characters() {
        let words = |url| url_words(url).collect::<Vec<_>>();
        assert_eq!(words("http://a.com/x-Y"), ["http", "a", "com", "x", "Y"]);
        assert_eq!(words("/a--b/"), ["", "a", "b"]);
        assert_eq!(words("a—b"), ["a", "b"]);
        assert_eq!(words("é"), [""]);
        assert_eq!(normalize("Ab-ç/9"), "ab9");
    }

    #[test]
    fn a_word_of_separators_bans_the_urls_that_start_or_end_with_one() {
        // "---" normalises to the empty word, which re.split gives only at the URL's ends.
        let filter = UrlFilter::new(&UrlFilterParams {
            banned_words: vec!["---".into()],
            use_integrated_lists: false,
            ..UrlFilterParams::default()
        })
        .unwrap();
        let reason = |url: &str| filter.filter(url).unwrap().reason;
        assert_eq!(reason("http://example.com/a"), None);
        assert_eq!(reason("http://example.com/a/"), Some("hard_blacklisted"));
        assert_eq!(reason("//example.com/a"), Some("hard_blacklisted"));
    }

    #[test]
    fn listed_domains_catch_their_hosts_and_listed_hosts_only_themselves() {
        let filter = UrlFilter::new(&UrlFilterParams {
            extra_domains: vec![
                "blocked.com".into(),
                "a.example.org".into(),
                "#c.com".into(),
            ],
            use_integrated_lists: false,
            ..UrlFilterParams::default()
        })
        .unwrap();
        let decision = filter.filter("https://www.blocked.com/x").unwrap();
        assert_eq!(decision.reason, Some("domain"));
        assert_eq!(decision.matched.as_deref(), Some("blocked.com"));
        let reason = |url: &str| filter.filter(url).unwrap().reason;
        assert_eq!(reason("http://a.example.org/"), Some("subdomain"));
        assert_eq!(reason("http://www.a.example.org/"), None);
        assert_eq!(reason("http://BLOCKED.com/"), None);
        assert_eq!(reason("http://c.com/"), None);
    }
}
