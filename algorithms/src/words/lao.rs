//! Lao words as datatrove 0.10.1's `LaoTokenizer` gets them: LaoNLP 1.3.0's
//! `word_tokenize(text)`, its maximal matching (a copy of PyThaiNLP's older `multi_cut`) in safe
//! mode, then `strip_strings`.
//!
//! The text is read left to right over LaoNLP's word list (bundled): at each ambiguous point every
//! word of the list that starts there is kept, and once every path meets at one position, the span
//! up to it is cut into the fewest words (the first such cut in the order that tries shorter words
//! first). Where no word of the list starts, a run of Latin letters, a number, spaces or a
//! newline is one word, and anything else runs up to the next place where a word of the list or
//! such a run starts; such a run loses its slashes (`a/b` gives `a` and `b`), as LaoNLP splits
//! its cuts at `/`. A text of 140 characters or more is cut in chunks first (PyThaiNLP's safe
//! mode), each segmented alone. Positions are counted in characters, as Python does.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::dictionary::{self, Chars, Trie};
use super::is_python_space;

/// LaoNLP 1.3.0's `lao_words()`: the union of its four word lists, gzipped.
const WORD_LIST: &[u8] = include_bytes!("../../../tokenizers/laonlp_1.3.0_words_lo.txt.gz");

static WORDS: LazyLock<Trie> = LazyLock::new(|| dictionary::bundled(WORD_LIST, "Lao word list"));

/// `_PAT_NONLAO`: Latin letters, a number, spaces, a newline.
static NON_LAO: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\A(?:[-a-zA-Z]+|\d+(?:[,.]\d+)*|[ \t]+|\r?\n)").expect("a valid pattern")
});

/// The words of `text` (slices of it).
pub(super) fn words(text: &str) -> Vec<&str> {
    let mut segments = Vec::with_capacity(text.len() / 6);
    let chunks = dictionary::safe_chunks(text, |window| {
        let mut window_words = Vec::new();
        maximal_matching(window, &mut window_words);
        let lengths: Vec<usize> = window_words.iter().map(|w| w.chars().count()).collect();
        lengths[..first_longest(&lengths)].iter().sum()
    });
    for chunk in chunks {
        maximal_matching(chunk, &mut segments);
    }
    segments
        .into_iter()
        .map(|w| w.trim_matches(is_python_space))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The index of the first of the longest lengths (0 when there are none).
fn first_longest(lengths: &[usize]) -> usize {
    let mut best = 0;
    for (i, &length) in lengths.iter().enumerate() {
        if length > lengths[best] {
            best = i;
        }
    }
    best
}

/// `mmcut`: the words of one text (a chunk), in order, covering it.
fn maximal_matching<'a>(text: &'a str, words: &mut Vec<&'a str>) {
    let text = Chars::new(text);
    // The lengths of the list's words that start at each position read, shortest first.
    let mut words_at: Vec<Vec<usize>> = vec![Vec::new(); text.len() + 1];
    let mut pending = BTreeSet::from([0]);
    let mut last = 0;
    while let Some(&position) = pending.first()
        && position < text.len()
    {
        pending.pop_first();
        WORDS.prefix_lengths(&text.chars, position, &mut words_at[position]);
        pending.extend(words_at[position].iter().map(|length| position + length));
        match pending.len() {
            1 => {
                let meet = *pending.first().unwrap_or(&text.len());
                for end in fewest_words(&words_at, last, meet) {
                    words.push(text.slice(last, end));
                    last = end;
                }
            }
            0 => {
                let end = skip_end(&text, position);
                // LaoNLP joins a span's words with `/` and splits them again, so a run outside
                // the list is split at its slashes, which are lost.
                words.extend(text.slice(position, end).split('/'));
                last = end;
                pending.insert(end);
            }
            _ => {}
        }
    }
}

/// The ends of the words of the first cut of `[start, goal)` into the fewest words of the list,
/// in the order LaoNLP lists the cuts (shorter words first at each position). Every position
/// pending is reached by a word, so a cut exists; if none did, the span is one word.
fn fewest_words(words_at: &[Vec<usize>], start: usize, goal: usize) -> Vec<usize> {
    // fewest[p]: the fewest words from p to the goal (None: the goal is out of reach).
    let mut fewest: Vec<Option<usize>> = vec![None; goal - start + 1];
    fewest[goal - start] = Some(0);
    for position in (start..goal).rev() {
        fewest[position - start] = words_at[position]
            .iter()
            .filter(|&&length| position + length <= goal)
            .filter_map(|&length| fewest[position + length - start])
            .min()
            .map(|n| n + 1);
    }
    let mut ends = Vec::new();
    let mut position = start;
    while let Some(Some(remaining)) = fewest.get(position - start)
        && *remaining > 0
    {
        let Some(&length) = words_at[position].iter().find(|&&length| {
            position + length <= goal && fewest[position + length - start] == Some(remaining - 1)
        }) else {
            break;
        };
        position += length;
        ends.push(position);
    }
    if position != goal {
        ends.push(goal);
    }
    ends
}

/// Where a run no word of the list covers ends: after a non-Lao match, or at the next position
/// where a word of the list or a non-Lao run starts.
fn skip_end(text: &Chars, begin: usize) -> usize {
    if let Some(length) = text.match_at(&NON_LAO, begin) {
        return begin + length;
    }
    let mut lengths = Vec::new();
    for at in begin + 1..text.len() {
        WORDS.prefix_lengths(&text.chars, at, &mut lengths);
        if !lengths.is_empty() || text.match_at(&NON_LAO, at).is_some() {
            return at;
        }
    }
    text.len()
}
