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

use std::borrow::Cow;
use std::sync::LazyLock;

use crfs::{Attribute, Tagger};

use super::crf::{self, attribute};
use super::is_python_space;

/// The CRFsuite model inside khmer-nltk 1.6's `word_tokenize/sklearn_crf_ner_10000.sav`,
/// zstd-compressed.
const MODEL_ZST: &[u8] = include_bytes!("../../tokenizers/khmer_nltk_1.6_word.crfsuite.zst");
/// khmer-nltk 1.6's `mistokenized_dict`, as `[from, to]` pairs in its order.
const CORRECTIONS_JSON: &str = include_str!("../../tokenizers/khmer_nltk_1.6_corrections.json");

static TAGGER: LazyLock<Tagger<'static>> = LazyLock::new(|| {
    crf::tagger(
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
    let features: Vec<Vec<Attribute>> = (0..clusters.len())
        .map(|i| features(&clusters, i))
        .collect();
    // Tagging fails only on a model that does not read, which the tests would catch.
    let labels = TAGGER.tag(&features).unwrap_or_default();
    let mut words: Vec<String> = Vec::new();
    for (i, cluster) in clusters.iter().enumerate() {
        match words.last_mut() {
            Some(word) if labels.get(i) != Some(&"1") => word.push_str(cluster),
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

/// `kcc_type`: a one-character cluster's kind, or `K` and the cluster's length in characters.
fn cluster_kind(cluster: &str) -> Cow<'static, str> {
    let mut chars = cluster.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Cow::Borrowed(kind(c)),
        _ => Cow::Owned(format!("K{}", cluster.chars().count())),
    }
}

/// `is_no_space`: the cluster's first character is of kind `NS`.
fn no_space(cluster: &str) -> bool {
    cluster.chars().next().map(kind) == Some("NS")
}

/// khmer-nltk's `kcc_to_features` for cluster `i`, as python-crfsuite passes them to CRFsuite (a
/// string feature is `name:value`, a true flag `name`, a false one weighs nothing).
fn features(clusters: &[&str], i: usize) -> Vec<Attribute> {
    let n = clusters.len();
    let mut out = Vec::with_capacity(24);
    let mut text = |name: &str, parts: &[&str]| {
        let length = parts.iter().map(|p| p.len()).sum::<usize>();
        let mut feature = String::with_capacity(name.len() + 1 + length);
        feature.push_str(name);
        feature.push(':');
        parts.iter().for_each(|p| feature.push_str(p));
        out.push(attribute(feature));
    };
    let k = |j: usize| clusters[j];
    text("kcc", &[k(i)]);
    text("t", &[&cluster_kind(k(i))]);
    if i >= 1 {
        text("kcc[-1]", &[k(i - 1)]);
        text("kcc[-1]t", &[&cluster_kind(k(i - 1))]);
        text("kcc[-1:0]", &[k(i - 1), k(i)]);
    }
    if i >= 2 {
        text("kcc[-2]", &[k(i - 2)]);
        text("kcc[-2]t", &[&cluster_kind(k(i - 2))]);
        text("kcc[-2:-1]", &[k(i - 2), k(i - 1)]);
        text("kcc[-2:0]", &[k(i - 2), k(i - 1), k(i)]);
    }
    if i >= 3 {
        text("kcc[-3]", &[k(i - 3)]);
        text("kcc[-3]t", &[&cluster_kind(k(i - 3))]);
        text("kcc[-3:0]", &[k(i - 3), k(i - 2), k(i - 1), k(i)]);
        text("kcc[-3:-1]", &[k(i - 3), k(i - 2), k(i - 1)]);
        text("kcc[-3:-2]", &[k(i - 3), k(i - 2)]);
    }
    if i + 1 < n {
        text("kcc[+1]", &[k(i + 1)]);
        text("kcc[+1]t", &[&cluster_kind(k(i + 1))]);
        text("kcc[+1:0]", &[k(i), k(i + 1)]);
    }
    if i + 2 < n {
        text("kcc[+2]", &[k(i + 2)]);
        text("kcc[+2]t", &[&cluster_kind(k(i + 2))]);
        text("kcc[+1:+2]", &[k(i + 1), k(i + 2)]);
        text("kcc[0:+2]", &[k(i), k(i + 1), k(i + 2)]);
    }
    if i + 3 < n {
        text("kcc[+3]", &[k(i + 3)]);
        text("kcc[+3]t", &[&cluster_kind(k(i + 3))]);
        text("kcc[+2:+3]", &[k(i + 2), k(i + 3)]);
        text("kcc[+1:+3]", &[k(i + 1), k(i + 2), k(i + 3)]);
        text("kcc[0:+3]", &[k(i), k(i + 1), k(i + 2), k(i + 3)]);
    }
    let flags = [
        ("ns", no_space(k(i))),
        ("BOS", i == 0),
        ("ns-1", i >= 1 && no_space(k(i - 1))),
        ("EOS", i + 1 == n),
        ("ns+1", i + 1 < n && no_space(k(i + 1))),
        ("ns+2", i + 2 < n && no_space(k(i + 2))),
    ];
    out.extend((flags.iter().filter(|(_, on)| *on)).map(|(name, _)| attribute((*name).to_owned())));
    out
}
