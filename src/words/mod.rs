//! English words and sentences as datatrove 0.10.1 gets them: spaCy 3.8.18's blank English
//! tokenizer and its rule-based sentencizer (datatrove's `split_into_words` and
//! `split_into_sentences`, <https://github.com/huggingface/datatrove>), restated over spaCy's own rule tables
//! (`tokenizers/spacy_en_3.8.18.json.gz`, MIT, see `tokenizers/README.md`).
//!
//! The prefix, suffix, infix and URL patterns are Python `re` patterns with look-around, run here
//! by fancy-regex (Python's `re` and fancy-regex are both leftmost-first backtracking engines).

mod rules;
mod token;

use std::sync::LazyLock;

use rules::Rules;
pub use token::Token;

static RULES: LazyLock<Rules> = LazyLock::new(|| {
    // The phrase pass's special cases are matched as the tokens the rules without special cases
    // give them; the tables are a constant of the crate, checked by the tests: never input data.
    let rule_less_tokens = |rules: &Rules, text: &str| -> Vec<String> {
        tokens_by_runs(rules, text, false)
            .iter()
            .map(|t| t.text.to_owned())
            .collect()
    };
    Rules::load(rule_less_tokens).unwrap_or_else(|e| panic!("the embedded spaCy tables: {e}"))
});

/// spaCy's English rules, loaded on first use.
fn spacy_rules() -> &'static Rules {
    &RULES
}

/// Python's `str.isspace`: Unicode White_Space and U+001C–U+001F.
pub fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The words of `text` as datatrove's `split_into_words(text, "eng")` gives them: spaCy's tokens,
/// each `strip()`ped, without the empty ones.
pub fn words(text: &str) -> Vec<&str> {
    tokens(text)
        .into_iter()
        .map(|t| t.text.trim_matches(is_python_space))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The number of sentences spaCy's sentencizer finds (datatrove's `split_into_sentences` gives
/// that many pieces; 1 for a text without tokens): 1 + the tokens that start a sentence after a
/// sentence-ending punctuation character.
pub fn sentence_count(text: &str) -> usize {
    let rules = spacy_rules();
    let mut count = 1;
    let mut seen_end = false;
    for token in tokens(text) {
        let is_punct_char = rules.is_sentence_punct(token.text);
        if seen_end && !is_punct_char && !is_punctuation(token.text) {
            count += 1;
            seen_end = false;
        } else if is_punct_char {
            seen_end = true;
        }
    }
    count
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
    let rules = spacy_rules();
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

thread_local! {
    /// Run → the byte lengths of its tokens. Words repeat, and a run's tokens depend on the run
    /// alone (spaCy keeps the same cache); the affix patterns are most of the time of a text.
    static RUN_CACHE: std::cell::RefCell<RunCache> = std::cell::RefCell::new(RunCache::default());
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
    let found = RUN_CACHE.with(|cache| {
        let cache = cache.borrow();
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
    RUN_CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
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
    if is_inert(run) {
        return push(out, run);
    }
    let mut rest = run;
    let mut prefixes: Vec<&'a str> = Vec::new();
    let mut suffixes: Vec<&'a str> = Vec::new();
    let mut last_len = usize::MAX;
    while !rest.is_empty() && rest.len() != last_len {
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
        } else if rules.is_url(rest) {
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

#[cfg(test)]
mod tests;
