//! Words as datatrove 0.10.1 gets them (<https://github.com/huggingface/datatrove>): English's
//! `split_into_words` and `split_into_sentences` (spaCy 3.8.18's blank English tokenizer and its
//! rule-based sentencizer), and the word tokenizer `load_word_tokenizer` picks for another language
//! ([`WordTokenizer`]): spaCy's rule-based tokenizer of that language, Indic NLP's trivial one,
//! jieba's precise mode (Chinese, through jieba-rs), PyThaiNLP's newmm (Thai), pyvi's CRF
//! (Vietnamese), pyidaungsu's CRF (the Myanmar script), LaoNLP's maximal matching (Lao),
//! khmer-nltk's CRF (Khmer), Kiwi (Korean) or Sudachi (Japanese), the last two libraries loaded at
//! run time.
//! spaCy's tokenizer is restated once over spaCy's own rule tables (`tokenizers/`, MIT, see
//! `tokenizers/README.md`), one table per language.
//!
//! The prefix, suffix, infix, URL and token-match patterns are Python `re` patterns with
//! look-around, run here by fancy-regex (Python's `re` and fancy-regex are both leftmost-first
//! backtracking engines).

mod burmese;
mod chinese;
mod crf;
mod dictionary;
mod indic;
pub mod japanese;
mod khmer;
pub mod korean;
mod languages;
mod lao;
pub(crate) mod loaded;
mod rules;
mod spacy;
mod thai;
mod token;
mod vietnamese;

use std::borrow::Cow;

/// Python's `str.isspace`, which datatrove's `strip()`s and `split()`s use.
pub use crate::html::text::is_py_space as is_python_space;
pub use languages::{WordTokenizer, spacy_languages};
use spacy::words_by_rules;
pub use spacy::{
    sentence_count, sentence_spans, sentence_spans_of_tokens, sentences, sentences_of_tokens,
    tokens, words, words_of_tokens,
};
pub use token::Token;

/// The words of `text` as `tokenizer` gives them: slices of the text, but where a tokenizer puts
/// pieces together (Indic NLP's numbers, pyidaungsu's and khmer-nltk's words across spaces).
pub fn words_in<'a>(tokenizer: WordTokenizer, text: &'a str) -> Vec<Cow<'a, str>> {
    let slices = match tokenizer {
        WordTokenizer::English => words(text),
        WordTokenizer::Spacy(language) => words_by_rules(language.rules(), text),
        WordTokenizer::Jieba => chinese::words(text),
        WordTokenizer::Thai => thai::words(text),
        WordTokenizer::Pyvi => vietnamese::words(text),
        WordTokenizer::Lao => lao::words(text),
        WordTokenizer::Kiwi(kiwi) => korean::words(kiwi, text),
        WordTokenizer::Sudachi(sudachi) => japanese::words(sudachi, text),
        WordTokenizer::Burmese => {
            return burmese::words(text).into_iter().map(Cow::Owned).collect();
        }
        WordTokenizer::Khmer => {
            return khmer::words(text).into_iter().map(Cow::Owned).collect();
        }
        WordTokenizer::IndicNlp { urdu } => {
            return indic::words(text, urdu)
                .into_iter()
                .map(Cow::Owned)
                .collect();
        }
    };
    slices.into_iter().map(Cow::Borrowed).collect()
}

#[cfg(test)]
mod tests;
