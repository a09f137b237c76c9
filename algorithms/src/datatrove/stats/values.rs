//! What the statistics blocks measure with: a measure's value and the blocks' parameters.

use crate::options::{Keys, counts, flag, key, non_empty, tokenizer_name, word_list};
use crate::words::WordTokenizer;

/// datatrove's `TokenStats` default tokenizer, GPT-2's.
pub const DEFAULT_STATS_TOKENIZER: &str = "gpt2";

/// LangStats' default model here: the bundled lid.176.ftz (datatrove's FT176LID downloads
/// lid.176.bin, whose scores differ; give its path to have them).
pub const DEFAULT_LID_MODEL: &str = "lid.176.ftz";

/// A measure's value: an integer for counts (written without ".0"), a float for shares and
/// means, as Python's `int` and `float` in datatrove's dicts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stat {
    Int(i64),
    Float(f64),
}

impl Stat {
    pub fn as_f64(self) -> f64 {
        match self {
            Stat::Int(i) => i as f64,
            Stat::Float(f) => f,
        }
    }
}

/// datatrove's `_safe_divide`: the quotient, 0.0 where the denominator is 0.
pub(super) fn safe_divide(numerator: usize, denominator: usize) -> Stat {
    if denominator == 0 {
        Stat::Float(0.0)
    } else {
        Stat::Float(numerator as f64 / denominator as f64)
    }
}

/// The blocks' parameters, with datatrove's defaults.
#[derive(Debug, Clone)]
pub struct StatsParams {
    /// `LineStats(max_k_chars_per_line_tresholds=...)`: `short_line_ratio_chars_{t}`.
    pub short_line_chars: Vec<usize>,
    /// `LineStats(min_k_chars_per_line_thresholds=...)`: `long_line_ratio_chars_{t}`.
    pub long_line_chars: Vec<usize>,
    /// `LineStats(ignore_empty_lines=...)`: blank lines left out of every share (not the count).
    pub ignore_empty_lines: bool,
    pub short_paragraph_chars: Vec<usize>,
    pub long_paragraph_chars: Vec<usize>,
    pub short_word_chars: Vec<usize>,
    pub long_word_chars: Vec<usize>,
    pub short_sentence_chars: Vec<usize>,
    pub long_sentence_chars: Vec<usize>,
    /// `WordStats(stop_words=...)`: Gopher's English stop words by default.
    pub stop_words: Vec<String>,
    /// `WordStats(language=...)`'s word tokenizer.
    pub tokenizer: WordTokenizer,
    /// `WordsContaminationStats(words=...)`: none by default (datatrove requires one).
    pub contamination_words: Vec<String>,
    /// `TokenStats(tokenizer_name_or_path=...)`: the tokenizer's name, which the caller loads
    /// into `token_counter` (the block measures nothing without it).
    pub tokenizer_name_or_path: String,
    #[cfg(feature = "tokens")]
    pub token_counter: Option<std::sync::Arc<crate::datatrove::tokens::TokenCounter>>,
    /// `LangStats(language=...)`: none by default (datatrove requires one).
    pub language: String,
    /// LangStats' fastText model: the bundled lid.176.ftz by default (datatrove downloads
    /// lid.176.bin), which the caller loads into `language_model`.
    pub lid_model: String,
    #[cfg(feature = "langid")]
    pub language_model: Option<std::sync::Arc<crate::langid::LanguageModel>>,
}

impl Default for StatsParams {
    fn default() -> Self {
        StatsParams {
            short_line_chars: vec![10, 30],
            long_line_chars: vec![2000, 10000],
            ignore_empty_lines: false,
            short_paragraph_chars: vec![100],
            long_paragraph_chars: vec![1000],
            short_word_chars: vec![3],
            long_word_chars: vec![7],
            short_sentence_chars: vec![20],
            long_sentence_chars: vec![75],
            stop_words: ["the", "be", "to", "of", "and", "that", "have", "with"]
                .map(str::to_owned)
                .to_vec(),
            tokenizer: WordTokenizer::English,
            contamination_words: Vec::new(),
            tokenizer_name_or_path: DEFAULT_STATS_TOKENIZER.to_owned(),
            #[cfg(feature = "tokens")]
            token_counter: None,
            language: String::new(),
            lid_model: DEFAULT_LID_MODEL.to_owned(),
            #[cfg(feature = "langid")]
            language_model: None,
        }
    }
}

/// The blocks' parameters as options, by the names of datatrove's constructor arguments
/// (`max_k_chars_per_line_tresholds` [sic]); lists separated by `|`.
pub const STATS_KEYS: Keys<StatsParams> = &[
    key!(
        "max_k_chars_per_line_tresholds",
        [short_line_chars],
        counts,
        "LineStats: short_line_ratio_chars_{n}"
    ),
    key!(
        "min_k_chars_per_line_thresholds",
        [long_line_chars],
        counts,
        "LineStats: long_line_ratio_chars_{n}"
    ),
    key!(
        "ignore_empty_lines",
        [ignore_empty_lines],
        flag,
        "LineStats: blank lines left out of the shares"
    ),
    key!(
        "short_paragraph_max_chars_threshold",
        [short_paragraph_chars],
        counts,
        "ParagraphStats"
    ),
    key!(
        "long_paragraph_max_chars_threshold",
        [long_paragraph_chars],
        counts,
        "ParagraphStats"
    ),
    key!(
        "short_word_max_chars_threshold",
        [short_word_chars],
        counts,
        "WordStats"
    ),
    key!(
        "long_word_max_chars_threshold",
        [long_word_chars],
        counts,
        "WordStats"
    ),
    key!("stop_words", [stop_words], word_list, "WordStats; Gopher's"),
    key!(
        "short_sentence_max_chars_threshold",
        [short_sentence_chars],
        counts,
        "SentenceStats"
    ),
    key!(
        "long_sentence_max_chars_threshold",
        [long_sentence_chars],
        counts,
        "SentenceStats"
    ),
    key!(
        "contamination_words",
        [contamination_words],
        word_list,
        "WordsContaminationStats' words (the contamination block, which needs one): \
         words_contamination_{first word}, the share of the simplified text's words that are one \
         of them"
    ),
    key!(
        "tokenizer_name_or_path",
        [tokenizer_name_or_path],
        tokenizer_name,
        "TokenStats' tokenizer (the token block): a tokenizer.json, a folder holding one, or a \
         Hugging Face Hub model found in the Hub's local cache"
    ),
    key!(
        "language",
        [language],
        non_empty,
        "LangStats' language (the lang block, which needs one): fasttext_{language}, the \
         model's probability of that label"
    ),
    key!(
        "lid_model",
        [lid_model],
        non_empty,
        "LangStats' fastText model (the lang block): the bundled lid.176.ftz, or the path of a \
         model file such as datatrove's lid.176.bin"
    ),
];
