//! spaCy's rule-based tokenizer (spec §2.2): the text cut into runs of whitespace and other
//! characters, each run split by a language's rules (with a per-thread cache of short runs), then
//! the phrase special cases; English's words and sentences on it.

use std::sync::LazyLock;

use super::rules::{self, Rules};
use super::token::Token;
use crate::html::text::is_py_space as is_python_space;

/// The phrase pass's special cases are matched as the tokens the rules without special cases give
/// them.
pub(super) fn rule_less_tokens(rules: &Rules, text: &str) -> Vec<String> {
    tokens_by_runs(rules, text, false)
        .iter()
        .map(|t| t.text.to_owned())
        .collect()
}

static RULES: LazyLock<Rules> = LazyLock::new(|| {
    // The tables are a constant of the crate, checked by the tests: never input data.
    rules::read_tables(rules::ENGLISH_TABLES)
        .and_then(|tables| Rules::load(&tables, true, rule_less_tokens))
        .unwrap_or_else(|e| panic!("the embedded spaCy tables: {e}"))
});

/// spaCy's English rules, loaded on first use.
pub(super) fn spacy_rules() -> &'static Rules {
    &RULES
}

/// The words of `text` as datatrove's `split_into_words(text, "eng")` gives them: spaCy's tokens,
/// each `strip()`ped, without the empty ones.
pub fn words(text: &str) -> Vec<&str> {
    words_of_tokens(&tokens(text))
}

/// [`words`] from the text's [`tokens`], for a caller that also needs its sentences.
pub fn words_of_tokens<'a>(tokens: &[Token<'a>]) -> Vec<&'a str> {
    tokens
        .iter()
        .map(|t| t.text.trim_matches(is_python_space))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The number of sentences spaCy's sentencizer finds (datatrove's `split_into_sentences` gives
/// that many pieces; 1 for a text without tokens): 1 + the tokens that start a sentence after a
/// sentence-ending punctuation character.
pub fn sentence_count(text: &str) -> usize {
    1 + sentence_starts(&tokens(text)).count()
}

/// The sentences of `text` as datatrove's `sent_tokenize` gives them for English: the texts of
/// the sentencizer's sentences ([`sentence_spans`]), each `strip()`ped, without the empty ones.
pub fn sentences(text: &str) -> Vec<&str> {
    sentences_of_tokens(text, &tokens(text))
}

/// [`sentences`] from the text's [`tokens`].
pub fn sentences_of_tokens<'a>(text: &'a str, tokens: &[Token<'_>]) -> Vec<&'a str> {
    sentence_spans_of_tokens(text, tokens)
        .into_iter()
        .map(|(start, end)| text[start..end].trim_matches(is_python_space))
        .filter(|sentence| !sentence.is_empty())
        .collect()
}

/// The sentencizer's sentences as datatrove's `span_tokenize` gives them for English: byte
/// ranges of `text` from a sentence's first token to the end of its last token's text (the
/// whitespace after it left out), every sentence, whitespace-only ones too; none for a text
/// without tokens.
pub fn sentence_spans(text: &str) -> Vec<(usize, usize)> {
    sentence_spans_of_tokens(text, &tokens(text))
}

/// [`sentence_spans`] from the text's [`tokens`].
pub fn sentence_spans_of_tokens(text: &str, tokens: &[Token<'_>]) -> Vec<(usize, usize)> {
    let base = text.as_ptr() as usize;
    // Tokens are slices of the text; one that were not could neither start nor end a span here.
    let start = |token: &Token<'_>| {
        (token.text.as_ptr() as usize)
            .checked_sub(base)
            .filter(|&at| at + token.text.len() <= text.len())
    };
    let mut firsts = vec![0];
    firsts.extend(sentence_starts(tokens));
    let mut spans = Vec::with_capacity(firsts.len());
    for (i, &first) in firsts.iter().enumerate() {
        let last = firsts.get(i + 1).map_or(tokens.len(), |&next| next);
        if first >= last {
            continue;
        }
        let (Some(begin), Some(end_start)) = (start(&tokens[first]), start(&tokens[last - 1]))
        else {
            continue;
        };
        spans.push((begin, end_start + tokens[last - 1].text.len()));
    }
    spans
}

/// The indices of the tokens that start a sentence (the first token aside): the sentencizer's
/// rule, a token after a sentence-ending punctuation character that is itself no punctuation.
fn sentence_starts<'t>(tokens: &'t [Token<'_>]) -> impl Iterator<Item = usize> + 't {
    let rules = spacy_rules();
    let mut seen_end = false;
    tokens.iter().enumerate().filter_map(move |(i, token)| {
        let is_punct_char = rules.is_sentence_punct(token.text);
        if seen_end && !is_punct_char && !is_punctuation(token.text) {
            seen_end = false;
            Some(i)
        } else {
            seen_end |= is_punct_char;
            None
        }
    })
}

/// spaCy's `is_punct`: every character's general category is P*.
fn is_punctuation(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| crate::unicode::PUNCTUATION.contains(c))
}

/// The tokens of `text` (spec §2.2, steps 1–5).
pub fn tokens(text: &str) -> Vec<Token<'_>> {
    tokens_by_rules(spacy_rules(), text)
}

/// The words of `text` as spaCy's tokenizer with `rules` gives them, `strip()`ped, without the
/// empty ones.
pub(super) fn words_by_rules<'a>(rules: &Rules, text: &'a str) -> Vec<&'a str> {
    tokens_by_rules(rules, text)
        .into_iter()
        .map(|t| t.text.trim_matches(is_python_space))
        .filter(|w| !w.is_empty())
        .collect()
}

/// spaCy's tokens of `text` under `rules`.
pub(super) fn tokens_by_rules<'a>(rules: &Rules, text: &'a str) -> Vec<Token<'a>> {
    let mut out = tokens_by_runs(rules, text, true);
    rules.apply_phrase_special_cases(text, &mut out);
    out
}

/// Steps 1–4: the text cut into maximal runs of whitespace and other characters, each run split
/// on its own. A single ' ' right after a run belongs to its last token, not to a run.
fn tokens_by_runs<'a>(rules: &Rules, text: &'a str, use_rules: bool) -> Vec<Token<'a>> {
    let mut out = Vec::new();
    let Some(first) = text.chars().next() else {
        return out;
    };
    let mut in_space = is_python_space(first);
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if is_python_space(c) == in_space {
            continue;
        }
        if start < i {
            split_run_cached(rules, &text[start..i], in_space, use_rules, &mut out);
        }
        if c == ' ' {
            if let Some(last) = out.last_mut() {
                last.space_after = true;
            }
            start = i + 1;
        } else {
            start = i;
        }
        in_space = !in_space;
    }
    if start < text.len() {
        split_run_cached(rules, &text[start..], in_space, use_rules, &mut out);
    }
    out
}

/// Runs longer than this are split every time (a cache entry per long run would hold memory for
/// text that seldom repeats).
const CACHED_RUN_BYTES: usize = 64;
/// Entries of a thread's cache before it starts afresh (about 100 bytes each: 2^18 holds the distinct
/// runs of the 20,000 de-duplication documents; 2^16 is 13% slower on them).
const CACHED_RUNS: usize = 1 << 18;

/// Run → the byte lengths of its tokens.
type RunCache = std::collections::HashMap<Box<str>, Box<[u8]>, ahash::RandomState>;

/// Languages whose run caches a thread keeps at once (a crawl's rows come in many languages, most
/// of them in a few).
const CACHED_LANGUAGES: usize = 4;

thread_local! {
    /// Per language's rules (by address), run → the byte lengths of its tokens. Words repeat, and
    /// a run's tokens depend on the run alone (spaCy keeps the same cache); the affix patterns are
    /// most of the time of a text.
    static RUN_CACHES: std::cell::RefCell<Vec<(usize, RunCache)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `f` over the thread's run cache of `rules`, made when missing (the oldest language's dropped).
fn with_run_cache<T>(rules: &Rules, f: impl FnOnce(&mut RunCache) -> T) -> T {
    let id = rules as *const Rules as usize;
    RUN_CACHES.with(|caches| {
        let mut caches = caches.borrow_mut();
        let index = match caches.iter().position(|(key, _)| *key == id) {
            Some(index) => index,
            None => {
                if caches.len() >= CACHED_LANGUAGES {
                    caches.remove(0);
                }
                caches.push((id, RunCache::default()));
                caches.len() - 1
            }
        };
        f(&mut caches[index].1)
    })
}

/// [`split_run`] through the thread's cache of short runs.
fn split_run_cached<'a>(
    rules: &Rules,
    run: &'a str,
    is_space: bool,
    use_rules: bool,
    out: &mut Vec<Token<'a>>,
) {
    if !use_rules || run.len() > CACHED_RUN_BYTES {
        return split_run(rules, run, is_space, use_rules, out);
    }
    let found = with_run_cache(rules, |cache| {
        let Some(lengths) = cache.get(run) else {
            return false;
        };
        let mut start = 0;
        for &len in lengths.iter() {
            let end = start + usize::from(len);
            out.push(Token {
                text: &run[start..end],
                is_space,
                space_after: false,
            });
            start = end;
        }
        true
    });
    if found {
        return;
    }
    let first = out.len();
    split_run(rules, run, is_space, use_rules, out);
    // The tokens of a run are consecutive slices covering it, each at most 64 bytes here.
    let lengths: Box<[u8]> = out[first..].iter().map(|t| t.text.len() as u8).collect();
    with_run_cache(rules, |cache| {
        if cache.len() >= CACHED_RUNS {
            cache.clear();
        }
        cache.insert(run.into(), lengths);
    });
}

/// Steps 2–4 for one run: special cases, the affix loop, then the URL match or the infixes.
fn split_run<'a>(
    rules: &Rules,
    run: &'a str,
    is_space: bool,
    use_rules: bool,
    out: &mut Vec<Token<'a>>,
) {
    let push = |out: &mut Vec<Token<'a>>, text: &'a str| {
        out.push(Token {
            text,
            is_space,
            space_after: false,
        })
    };
    if use_rules && rules.push_special_case(run, is_space, out) {
        return;
    }
    if rules.knows_inert_runs() && is_inert(run) {
        return push(out, run);
    }
    let mut rest = run;
    let mut prefixes: Vec<&'a str> = Vec::new();
    let mut suffixes: Vec<&'a str> = Vec::new();
    let mut last_len = usize::MAX;
    while !rest.is_empty() && rest.len() != last_len {
        if rules.is_token_match(rest) {
            break;
        }
        last_len = rest.len();
        if use_rules && rules.is_special_case(rest) {
            break;
        }
        let pre = rules.prefix_len(rest);
        if pre > 0 && use_rules && rules.is_special_case(&rest[pre..]) {
            prefixes.push(&rest[..pre]);
            rest = &rest[pre..];
            break;
        }
        let suf = rules.suffix_len(&rest[pre..]);
        if suf > 0 && use_rules && rules.is_special_case(&rest[..rest.len() - suf]) {
            suffixes.push(&rest[rest.len() - suf..]);
            rest = &rest[..rest.len() - suf];
            break;
        }
        if pre > 0 && suf > 0 && pre + suf <= rest.len() {
            prefixes.push(&rest[..pre]);
            suffixes.push(&rest[rest.len() - suf..]);
            rest = &rest[pre..rest.len() - suf];
        } else if pre > 0 {
            prefixes.push(&rest[..pre]);
            rest = &rest[pre..];
        } else if suf > 0 {
            suffixes.push(&rest[rest.len() - suf..]);
            rest = &rest[..rest.len() - suf];
        }
    }
    for prefix in prefixes {
        push(out, prefix);
    }
    if !rest.is_empty() {
        if use_rules && rules.push_special_case(rest, is_space, out) {
            // Its pieces are out.
        } else if rules.is_token_match(rest) || rules.is_url(rest) {
            push(out, rest);
        } else {
            let mut start = 0;
            for (infix_start, infix_end) in rules.infixes(rest) {
                if infix_start == 0 {
                    continue;
                }
                if infix_start != start {
                    push(out, &rest[start..infix_start]);
                }
                if infix_start != infix_end {
                    push(out, &rest[infix_start..infix_end]);
                }
                start = infix_end;
            }
            if start < rest.len() {
                push(out, &rest[start..]);
            }
        }
    }
    for suffix in suffixes.into_iter().rev() {
        push(out, suffix);
    }
}

/// Whether no prefix, suffix, infix or URL pattern can match in `run`: all its characters are
/// letters (L*), or all are ASCII digits. Every alternative of those patterns consumes a
/// character that is neither (punctuation, a symbol, a quote, '$' of "US$", '.' of a host name),
/// or letters only after a digit (the units, "10km"); so such a run is one token, as the affix
/// loop would find after trying every pattern. Most runs of prose are words.
fn is_inert(run: &str) -> bool {
    run.bytes().all(|b| b.is_ascii_digit())
        || run.chars().all(|c| {
            c.is_ascii_alphabetic() || (!c.is_ascii() && crate::unicode::LETTER.contains(c))
        })
}
