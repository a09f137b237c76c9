//! Khmer words as datatrove 0.10.1's `KhmerTokenizer` gets them: khmer-nltk 1.6's
//! `word_tokenize(text, return_tokens=True)`, then `strip_strings`.
//!
//! The text is cleaned first (`cleanup_str`: ends stripped, a double space made single, each
//! space wrapped in zero-width spaces (U+200B), khmer-nltk's corrections of known mis-segmented
//! words applied in its order, line feeds, line separators and hair spaces taken out), then cut
//! into Khmer character clusters (`seg_kcc`: at zero-width spaces, around non-Khmer runs, numbers
//! kept whole, a cluster ending before the next consonant, independent vowel, sign or number that
//! does not follow a subscript mark). A conditional random field (a CRFsuite model over each
//! cluster, its kind and its neighbours up to three on either side) labels each cluster as
//! beginning a word (`1`) or not; a word is its clusters put together (a space cluster among
//! them), stripped. A word is therefore not always a slice of the text.
//!
//! The model and the corrections are khmer-nltk's (Apache-2.0), in `tokenizers/`.

use std::fmt::Write;
use std::sync::LazyLock;

use super::crf::{self, ItemScores, StreamingCrf};
use super::is_python_space;

/// The CRFsuite model inside khmer-nltk 1.6's `word_tokenize/sklearn_crf_ner_10000.sav`,
/// zstd-compressed.
const MODEL_ZST: &[u8] = include_bytes!("../../../tokenizers/khmer_nltk_1.6_word.crfsuite.zst");
/// khmer-nltk 1.6's `mistokenized_dict`, as `[from, to]` pairs in its order.
const CORRECTIONS_JSON: &str = include_str!("../../../tokenizers/khmer_nltk_1.6_corrections.json");

static CRF: LazyLock<StreamingCrf> = LazyLock::new(|| {
    StreamingCrf::new(
        crf::unzstd(MODEL_ZST, "khmer-nltk model"),
        "khmer-nltk model",
    )
});

// A constant of the crate, read by its tests: never input data.
static CORRECTIONS: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    serde_json::from_str(CORRECTIONS_JSON)
        .unwrap_or_else(|e| panic!("the embedded khmer-nltk corrections: {e}"))
});

/// khmer-nltk's separator of clusters, the zero-width space.
const SEPARATOR: char = '\u{200b}';

/// The words of `text`, in order.
pub(super) fn words(text: &str) -> Vec<String> {
    let text = cleanup(text);
    let clusters = clusters(&text);
    let labels = CRF.tag(clusters.len(), |i, scores| features(&clusters, i, scores));
    let begins = CRF.label("1");
    let mut words: Vec<String> = Vec::new();
    for (i, cluster) in clusters.iter().enumerate() {
        match words.last_mut() {
            Some(word) if labels.get(i).copied() != begins => word.push_str(cluster),
            _ => words.push((*cluster).to_owned()),
        }
    }
    words
        .into_iter()
        .map(|w| w.trim_matches(is_python_space).to_owned())
        .filter(|w| !w.is_empty())
        .collect()
}

/// `cleanup_str`.
fn cleanup(text: &str) -> String {
    let mut text = text
        .trim_matches(SEPARATOR)
        .trim_matches(is_python_space)
        .replace("  ", " ")
        .replace(' ', "\u{200b} \u{200b}")
        .replace("\u{200b}\u{200b}", "\u{200b}")
        .replace("\u{200b}\u{200b}", "\u{200b}");
    for (from, to) in CORRECTIONS.iter() {
        if text.contains(from.as_str()) {
            text = text.replace(from.as_str(), to);
        }
    }
    text.replace(['\u{2028}', '\u{200a}'], "")
        .trim_matches(is_python_space)
        .replace('\n', "")
        .replace("  ", " ")
}

/// `is_khmer_char`: the Khmer block, the symbols khmer-nltk counts as Khmer (among them `,`, `.`,
/// `?` and the space) and the lunar date signs.
fn is_khmer(c: char) -> bool {
    matches!(c, '\u{1780}'..='\u{17ff}' | ',' | '.' | '?' | ' ' | '\u{19e0}'..='\u{19ff}')
}

/// khmer-nltk's `KHNUMBER`: Khmer and ASCII digits.
fn is_number(c: char) -> bool {
    matches!(c, '0'..='9' | '\u{17e0}'..='\u{17e9}')
}

/// khmer-nltk's `KHCONST`: consonants and independent vowels.
fn is_consonant(c: char) -> bool {
    matches!(c, '\u{1780}'..='\u{17b3}')
}

/// khmer-nltk's `KHSUB`: the subscript mark (coeng).
const SUBSCRIPT: char = '\u{17d2}';

/// `is_start_of_kcc`: a Khmer consonant, symbol, number or lunar sign, or any non-Khmer character.
fn starts_a_cluster(c: char) -> bool {
    !is_khmer(c)
        || is_consonant(c)
        || matches!(
            c,
            ',' | '.' | '?' | ' ' | '\u{17d4}' | '\u{17d5}' | '\u{17d7}'..='\u{17db}'
        )
        || is_number(c)
        || ('\u{19e0}'..='\u{19ff}').contains(&c)
}

/// `seg_kcc`: the Khmer character clusters of a cleaned text (slices of it).
fn clusters(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for part in text.split(SEPARATOR) {
        let mut start = 0;
        let mut chars = part.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let next = chars.peek().map(|&(_, n)| n);
            let ends = match next {
                None => true,
                // Non-Khmer characters cluster together; so do numbers.
                Some(n) if !is_khmer(c) && n != ' ' && !is_khmer(n) => false,
                Some(n) if is_number(c) && is_number(n) => false,
                Some(' ') => true,
                Some(_) if !is_khmer(c) => true,
                Some(n) => starts_a_cluster(n) && c != SUBSCRIPT,
            };
            if ends {
                let end = at + c.len_utf8();
                out.push(&part[start..end]);
                start = end;
            }
        }
    }
    out
}

/// `get_type`: `NS` (no space: a Latin letter or digit, a number, anything else), `C`
/// (consonant), `W` (vowel sign), `S` (subscript) or `D` (diacritic).
fn kind(c: char) -> &'static str {
    let mut lower = c.to_lowercase();
    let latin = matches!(
        (lower.next(), lower.next()),
        (Some('a'..='z' | '0'..='9'), None)
    );
    match c {
        _ if latin => "NS",
        _ if is_consonant(c) => "C",
        '\u{17b4}'..='\u{17c8}' => "W",
        _ if is_number(c) => "NS",
        SUBSCRIPT => "S",
        '\u{17c9}'..='\u{17d0}' => "D",
        _ => "NS",
    }
}

/// `kcc_type`, written to `out`: a one-character cluster's kind, or `K` and the cluster's length
/// in characters.
fn write_cluster_kind(out: &mut String, cluster: &str) {
    let mut chars = cluster.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => out.push_str(kind(c)),
        _ => {
            let _ = write!(out, "K{}", cluster.chars().count());
        }
    }
}

/// `is_no_space`: the cluster's first character is of kind `NS`.
fn no_space(cluster: &str) -> bool {
    cluster.chars().next().map(kind) == Some("NS")
}

/// A feature of khmer-nltk's: a string (`name:value`, the value the clusters put together or
/// the kind of one), or a flag (weighing 1 if true, nothing if false).
enum Feature<'a> {
    Clusters(&'a [usize]),
    Kind(usize),
    Flag(bool),
}

/// khmer-nltk's `kcc_to_features` for cluster `i`, in its dictionary's order, as python-crfsuite
/// passes them to CRFsuite.
fn features(clusters: &[&str], i: usize, scores: &mut ItemScores<'_>) {
    use Feature::{Clusters, Flag, Kind};
    let n = clusters.len();
    let mut add = |name: &str, feature: Feature<'_>| match feature {
        Flag(false) => {}
        Flag(true) => scores.add(|out| out.push_str(name)),
        Clusters(which) => scores.add(|out| {
            out.push_str(name);
            out.push(':');
            which.iter().for_each(|&j| out.push_str(clusters[j]));
        }),
        Kind(j) => scores.add(|out| {
            out.push_str(name);
            out.push(':');
            write_cluster_kind(out, clusters[j]);
        }),
    };
    let ns = |j: usize| no_space(clusters[j]);
    add("kcc", Clusters(&[i]));
    add("t", Kind(i));
    add("ns", Flag(ns(i)));
    if i >= 1 {
        add("kcc[-1]", Clusters(&[i - 1]));
        add("kcc[-1]t", Kind(i - 1));
        add("kcc[-1:0]", Clusters(&[i - 1, i]));
        add("ns-1", Flag(ns(i - 1)));
    } else {
        add("BOS", Flag(true));
    }
    if i >= 2 {
        add("kcc[-2]", Clusters(&[i - 2]));
        add("kcc[-2]t", Kind(i - 2));
        add("kcc[-2:-1]", Clusters(&[i - 2, i - 1]));
        add("kcc[-2:0]", Clusters(&[i - 2, i - 1, i]));
    }
    if i >= 3 {
        add("kcc[-3]", Clusters(&[i - 3]));
        add("kcc[-3]t", Kind(i - 3));
        add("kcc[-3:0]", Clusters(&[i - 3, i - 2, i - 1, i]));
        add("kcc[-3:-1]", Clusters(&[i - 3, i - 2, i - 1]));
        add("kcc[-3:-2]", Clusters(&[i - 3, i - 2]));
    }
    if i + 1 < n {
        add("kcc[+1]", Clusters(&[i + 1]));
        add("kcc[+1]t", Kind(i + 1));
        add("kcc[+1:0]", Clusters(&[i, i + 1]));
        add("ns+1", Flag(ns(i + 1)));
    } else {
        add("EOS", Flag(true));
    }
    if i + 2 < n {
        add("kcc[+2]", Clusters(&[i + 2]));
        add("kcc[+2]t", Kind(i + 2));
        add("kcc[+1:+2]", Clusters(&[i + 1, i + 2]));
        add("kcc[0:+2]", Clusters(&[i, i + 1, i + 2]));
        add("ns+2", Flag(ns(i + 2)));
    }
    if i + 3 < n {
        add("kcc[+3]", Clusters(&[i + 3]));
        add("kcc[+3]t", Kind(i + 3));
        add("kcc[+2:+3]", Clusters(&[i + 2, i + 3]));
        add("kcc[+1:+3]", Clusters(&[i + 1, i + 2, i + 3]));
        add("kcc[0:+3]", Clusters(&[i, i + 1, i + 2, i + 3]));
    }
}
