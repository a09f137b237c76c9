//! C4's bad-words filter as HuggingFace datatrove 0.10.1's `C4BadWordsFilter` applies it
//! (`pipeline/filters/c4_filters.py`): a document is removed when its lower-cased text holds an
//! entry of the LDNOOBW list ("List of Dirty, Naughty, Obscene, and Otherwise Bad Words") of its
//! language, bounded on both sides by a character that is not a Python word character (for
//! Japanese, Thai and Chinese, anywhere).
//!
//! datatrove searches one regex, `(?:\W|^)(word|word|…)(?:\W|$)`; here an Aho-Corasick automaton
//! finds every occurrence, overlapping ones included, and the boundaries are checked with
//! Python's word characters (letters, numbers of any kind and `_`), which differ from the regex
//! crate's `\w` on combining marks, joiners and numbers such as `½`. The lists are the files
//! datatrove downloads, compiled in (`lists/ldnoobw`, CC-BY-4.0).

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};

use crate::options::{Keys, flag, key};
use crate::unicode::is_python_word;
use crate::words::is_python_space;

/// The LDNOOBW language keys datatrove accepts in a document's `language`, exactly (sorted).
pub const BADWORDS_LANGUAGES: [&str; 28] = [
    "ar",
    "cs",
    "da",
    "de",
    "en",
    "eo",
    "es",
    "fa",
    "fi",
    "fil",
    "fr",
    "fr-CA-u-sd-caqc",
    "hi",
    "hu",
    "it",
    "ja",
    "kab",
    "ko",
    "nl",
    "no",
    "pl",
    "pt",
    "ru",
    "sv",
    "th",
    "tlh",
    "tr",
    "zh",
];

/// The list files, in the order of [`BADWORDS_LANGUAGES`]: `en` from LDNOOBW's commit 25e679f
/// (2016), the others from 5faf2ba (2020), the commits datatrove's URLs name.
const LIST_FILES: [&str; 28] = [
    include_str!("../../../lists/ldnoobw/ar"),
    include_str!("../../../lists/ldnoobw/cs"),
    include_str!("../../../lists/ldnoobw/da"),
    include_str!("../../../lists/ldnoobw/de"),
    include_str!("../../../lists/ldnoobw/en"),
    include_str!("../../../lists/ldnoobw/eo"),
    include_str!("../../../lists/ldnoobw/es"),
    include_str!("../../../lists/ldnoobw/fa"),
    include_str!("../../../lists/ldnoobw/fi"),
    include_str!("../../../lists/ldnoobw/fil"),
    include_str!("../../../lists/ldnoobw/fr"),
    include_str!("../../../lists/ldnoobw/fr-CA-u-sd-caqc"),
    include_str!("../../../lists/ldnoobw/hi"),
    include_str!("../../../lists/ldnoobw/hu"),
    include_str!("../../../lists/ldnoobw/it"),
    include_str!("../../../lists/ldnoobw/ja"),
    include_str!("../../../lists/ldnoobw/kab"),
    include_str!("../../../lists/ldnoobw/ko"),
    include_str!("../../../lists/ldnoobw/nl"),
    include_str!("../../../lists/ldnoobw/no"),
    include_str!("../../../lists/ldnoobw/pl"),
    include_str!("../../../lists/ldnoobw/pt"),
    include_str!("../../../lists/ldnoobw/ru"),
    include_str!("../../../lists/ldnoobw/sv"),
    include_str!("../../../lists/ldnoobw/th"),
    include_str!("../../../lists/ldnoobw/tlh"),
    include_str!("../../../lists/ldnoobw/tr"),
    include_str!("../../../lists/ldnoobw/zh"),
];

/// Entries datatrove removes from every language's list.
const ALLOWED: [&str; 4] = ["sm", "グロ", "女の子", "性"];

/// The languages whose words match anywhere, without boundaries.
const UNBOUNDED: [&str; 3] = ["ja", "th", "zh"];

/// The reason of a removed document, datatrove's.
pub const BADWORDS_REASON: &str = "document_removed_with_badwords";

/// A language's words and their automaton.
struct WordList {
    words: Vec<&'static str>,
    automaton: Option<AhoCorasick>,
    bounded: bool,
}

static WORD_LISTS: [OnceLock<WordList>; 28] = [const { OnceLock::new() }; 28];

/// The list of a language of [`BADWORDS_LANGUAGES`], built on first use.
fn word_list(index: usize) -> &'static WordList {
    WORD_LISTS[index].get_or_init(|| {
        let mut words: Vec<&'static str> = LIST_FILES[index]
            .lines()
            .map(|line| line.trim_matches(is_python_space))
            .filter(|w| !w.is_empty() && !ALLOWED.contains(w))
            .collect();
        words.sort_unstable();
        words.dedup();
        WordList {
            // The words are valid UTF-8 and few; building cannot fail but for a size limit
            // hundreds of times theirs, and no automaton finds nothing. A DFA (a few hundred
            // kilobytes for a list): the overlapping search runs over every text, twice as fast
            // as through the default automaton.
            automaton: AhoCorasick::builder()
                .kind(Some(AhoCorasickKind::DFA))
                .build(&words)
                .ok(),
            words,
            bounded: !UNBOUNDED.contains(&BADWORDS_LANGUAGES[index]),
        }
    })
}

/// The index of a language key in [`BADWORDS_LANGUAGES`] (exact, case-sensitive).
pub fn badwords_language(language: &str) -> Option<usize> {
    BADWORDS_LANGUAGES.iter().position(|l| *l == language)
}

/// An entry found in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadWord {
    /// The entry: of the occurrences the regex could match first, the earliest, then the longest
    /// (datatrove's regex picks among them in its set's order, which varies between runs).
    pub word: &'static str,
    /// Where datatrove's regex match starts in the lower-cased text, in code points: the
    /// character before the word (the start of the text for a word at its start); the word's
    /// own start for Japanese, Thai and Chinese.
    pub match_start: usize,
}

/// The entry of the list of language `index` that datatrove's regex finds in `text`, if any.
pub fn find_badword(text: &str, index: usize) -> Option<BadWord> {
    let list = word_list(index);
    let automaton = list.automaton.as_ref()?;
    let low = text.to_lowercase();
    let mut best: Option<(usize, usize, usize)> = None; // (regex start, word start, pattern)
    for m in automaton.find_overlapping_iter(&low) {
        let (start, end) = (m.start(), m.end());
        let before = low[..start].chars().next_back();
        let regex_start = if list.bounded {
            let after = low[end..].chars().next();
            if before.is_some_and(is_python_word) || after.is_some_and(is_python_word) {
                continue;
            }
            before.map_or(0, |c| start - c.len_utf8())
        } else {
            start
        };
        let pattern = m.pattern().as_usize();
        let better = match best {
            None => true,
            Some((s, w, p)) => {
                (regex_start, start) < (s, w)
                    || ((regex_start, start) == (s, w)
                        && list.words[pattern].len() > list.words[p].len())
            }
        };
        if better {
            best = Some((regex_start, start, pattern));
        }
    }
    best.map(|(regex_start, _, pattern)| BadWord {
        word: list.words[pattern],
        match_start: low[..regex_start].chars().count(),
    })
}

/// `C4BadWordsFilter`'s parameters, with its defaults but the seed's (see [`BadwordsFilter`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BadwordsParams {
    /// The share of documents with a bad word kept at random.
    pub keep_fraction: f64,
    /// numpy's `default_rng(seed)`; `None` draws from the operating system's entropy.
    pub seed: Option<u64>,
    /// Whether a language without a list is an error (datatrove's ValueError) or keeps the document.
    pub fail_on_missing_language: bool,
    /// The language of a document that has none.
    pub default_language: String,
}

impl Default for BadwordsParams {
    fn default() -> Self {
        BadwordsParams {
            keep_fraction: 0.0,
            seed: None,
            fail_on_missing_language: true,
            default_language: "en".to_owned(),
        }
    }
}

fn language_key(value: &str) -> Result<String, &'static str> {
    badwords_language(value)
        .map(|i| BADWORDS_LANGUAGES[i].to_owned())
        .ok_or("one of ar cs da de en eo es fa fi fil fr fr-CA-u-sd-caqc hi hu it ja kab ko nl no pl pt ru sv th tlh tr zh")
}

/// The parameters the SQL function takes (the random keep of a share is not one: its draws
/// follow the order of the whole stream, which a function of one row does not see).
pub const BADWORDS_KEYS: Keys<BadwordsParams> = &[
    key!(
        "fail_on_missing_language",
        [fail_on_missing_language],
        flag,
        "false keeps a document whose language has no list, as datatrove does"
    ),
    key!(
        "default_language",
        [default_language],
        language_key,
        "the language of a row whose language is NULL"
    ),
];

/// What the filter decided for a document.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BadwordsDecision {
    pub passed: bool,
    /// The entry found, whether the document was removed or kept by the draw.
    pub found: Option<BadWord>,
    /// The uniform draw a document with a bad word consumed when `keep_fraction` > 0.
    pub draw: Option<f64>,
    /// The language had no list and `fail_on_missing_language` is false.
    pub missing_language: bool,
}

/// The filter as datatrove's instance runs: one generator, advanced in document order by the
/// documents with a bad word when `keep_fraction` > 0.
pub struct BadwordsFilter {
    params: BadwordsParams,
    generator: Option<Pcg64>,
}

impl BadwordsFilter {
    pub fn new(params: BadwordsParams) -> Self {
        let generator = (params.keep_fraction > 0.0).then(|| {
            let seed = params.seed.unwrap_or_else(entropy_seed);
            Pcg64::numpy_default_rng(seed)
        });
        BadwordsFilter { params, generator }
    }

    /// The decision on a document of `language` (`None`: the default language); an error for a
    /// language without a list when `fail_on_missing_language`, worded as datatrove's.
    pub fn filter(
        &mut self,
        text: &str,
        language: Option<&str>,
    ) -> Result<BadwordsDecision, String> {
        let language = language.unwrap_or(&self.params.default_language);
        let Some(index) = badwords_language(language) else {
            if self.params.fail_on_missing_language {
                return Err(format!(
                    "There is not badwords list available for \"{language}\". Set \
                     fail_on_missing_language=False to continue anyway."
                ));
            }
            return Ok(BadwordsDecision {
                passed: true,
                found: None,
                draw: None,
                missing_language: true,
            });
        };
        let found = find_badword(text, index);
        let draw = match (found, self.generator.as_mut()) {
            (Some(_), Some(generator)) => Some(generator.uniform()),
            _ => None,
        };
        let kept = draw.is_some_and(|d| d < self.params.keep_fraction);
        Ok(BadwordsDecision {
            passed: found.is_none() || kept,
            found,
            draw,
            missing_language: false,
        })
    }
}

/// A seed from the standard library's per-process random keys, for `seed=None`.
fn entropy_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(std::time::SystemTime::now())
}

/// numpy's PCG64 (XSL-RR 128/64) as `numpy.random.default_rng(seed)` seeds it, through numpy's
/// `SeedSequence`, and its `uniform()` draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pcg64 {
    state: u128,
    increment: u128,
}

const PCG_MULTIPLIER: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

impl Pcg64 {
    /// `default_rng(seed)`: the seed's 32-bit words mixed by `SeedSequence` into four 64-bit
    /// words, the state and the stream of PCG's `srandom`.
    pub fn numpy_default_rng(seed: u64) -> Pcg64 {
        let words = seed_sequence_state(seed);
        let seed = (u128::from(words[0]) << 64) | u128::from(words[1]);
        let stream = (u128::from(words[2]) << 64) | u128::from(words[3]);
        let mut pcg = Pcg64 {
            state: 0,
            increment: (stream << 1) | 1,
        };
        pcg.step();
        pcg.state = pcg.state.wrapping_add(seed);
        pcg.step();
        pcg
    }

    fn step(&mut self) {
        self.state = self
            .state
            .wrapping_mul(PCG_MULTIPLIER)
            .wrapping_add(self.increment);
    }

    /// `next_uint64`: step, then the output of the new state.
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        let high = (self.state >> 64) as u64;
        let low = self.state as u64;
        (high ^ low).rotate_right((high >> 58) as u32)
    }

    /// `Generator.uniform()`: a double in [0, 1) from the top 53 bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }
}

/// numpy's `SeedSequence(seed).generate_state(4, uint64)` with its pool of four 32-bit words.
fn seed_sequence_state(seed: u64) -> [u64; 4] {
    const INIT_A: u32 = 0x43b0_d7e5;
    const MULT_A: u32 = 0x931e_8875;
    const INIT_B: u32 = 0x8b51_f9dd;
    const MULT_B: u32 = 0x58f3_8ded;
    const MIX_MULT_L: u32 = 0xca01_f9dd;
    const MIX_MULT_R: u32 = 0x4973_f715;
    let entropy: Vec<u32> = if seed >> 32 == 0 {
        vec![seed as u32]
    } else {
        vec![seed as u32, (seed >> 32) as u32]
    };
    let mut hash_const = INIT_A;
    let mut hashmix = |value: u32| {
        let mut value = value ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_A);
        value = value.wrapping_mul(hash_const);
        value ^ (value >> 16)
    };
    let mix = |x: u32, y: u32| {
        let r = MIX_MULT_L
            .wrapping_mul(x)
            .wrapping_sub(MIX_MULT_R.wrapping_mul(y));
        r ^ (r >> 16)
    };
    let mut pool = [0u32; 4];
    for (i, slot) in pool.iter_mut().enumerate() {
        *slot = hashmix(entropy.get(i).copied().unwrap_or(0));
    }
    for source in 0..4 {
        for destination in 0..4 {
            if source != destination {
                let mixed = hashmix(pool[source]);
                pool[destination] = mix(pool[destination], mixed);
            }
        }
    }
    let mut hash_const = INIT_B;
    let mut words = [0u32; 8];
    for (i, word) in words.iter_mut().enumerate() {
        let mut value = pool[i % 4] ^ hash_const;
        hash_const = hash_const.wrapping_mul(MULT_B);
        value = value.wrapping_mul(hash_const);
        *word = value ^ (value >> 16);
    }
    std::array::from_fn(|i| u64::from(words[2 * i]) | (u64::from(words[2 * i + 1]) << 32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str, language: &str) -> Option<&'static str> {
        find_badword(text, badwords_language(language).unwrap()).map(|b| b.word)
    }

    /// numpy 2.4's `default_rng(42)`: its internal state and first draws.
    #[test]
    fn numpy_generator_is_reproduced() {
        let mut generator = Pcg64::numpy_default_rng(42);
        assert_eq!(
            generator.state,
            274_674_114_334_540_486_603_088_602_300_644_985_544
        );
        assert_eq!(
            generator.increment,
            332_724_090_758_049_132_448_979_897_138_935_081_983
        );
        assert_eq!(generator.uniform(), 0.7739560485559633);
        assert_eq!(generator.uniform(), 0.4388784397520523);
        assert_eq!(Pcg64::numpy_default_rng(0).uniform(), 0.6369616873214543);
    }

    #[test]
    fn words_match_between_python_non_word_characters() {
        assert_eq!(found("what the fuck.", "en"), Some("fuck"));
        assert_eq!(found("FUCK", "en"), Some("fuck"));
        // A combining mark and a joiner are not word characters in Python's `re`.
        assert_eq!(found("fuck\u{301}", "en"), Some("fuck"));
        assert_eq!(found("\u{200d}fuck\u{200d}", "en"), Some("fuck"));
        assert_eq!(found("fucks", "en"), None);
        assert_eq!(found("_fuck", "en"), None);
        assert_eq!(found("a 2 girls 1 cup b", "en"), Some("2 girls 1 cup"));
    }

    #[test]
    fn japanese_thai_and_chinese_words_match_anywhere_and_allowed_entries_never() {
        assert_eq!(found("これはエロティズムです", "ja"), Some("エロティズム"));
        assert_eq!(found("女の子", "ja"), None);
        assert_eq!(found("sm", "en"), None);
    }

    #[test]
    fn match_start_is_the_regex_match_start_in_code_points() {
        let en = badwords_language("en").unwrap();
        assert_eq!(find_badword("fuck", en).map(|b| b.match_start), Some(0));
        assert_eq!(find_badword("é fuck", en).map(|b| b.match_start), Some(1));
    }

    #[test]
    fn a_language_without_a_list_is_an_error_or_keeps_the_document() {
        let mut strict = BadwordsFilter::new(BadwordsParams::default());
        assert!(strict.filter("fuck", Some("EN")).is_err());
        assert!(!strict.filter("fuck", None).unwrap().passed);
        let mut lenient = BadwordsFilter::new(BadwordsParams {
            fail_on_missing_language: false,
            ..BadwordsParams::default()
        });
        let decision = lenient.filter("fuck", Some("eng")).unwrap();
        assert!(decision.passed && decision.missing_language);
    }

    #[test]
    fn documents_with_a_bad_word_draw_in_order() {
        let mut filter = BadwordsFilter::new(BadwordsParams {
            keep_fraction: 0.5,
            seed: Some(42),
            ..BadwordsParams::default()
        });
        assert_eq!(filter.filter("clean", None).unwrap().draw, None);
        let first = filter.filter("fuck", None).unwrap();
        assert_eq!(
            (first.draw, first.passed),
            (Some(0.7739560485559633), false)
        );
        let second = filter.filter("fuck", None).unwrap();
        assert_eq!(
            (second.draw, second.passed),
            (Some(0.4388784397520523), true)
        );
    }
}
