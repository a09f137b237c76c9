//! The pre-training data filters as functions of the text: language identification,
//! datatrove's quality filters, URL filter, bad words, PII, symbol lines, token counts, the
//! statistics blocks' measures and n-gram decontamination.

pub mod c4_badwords;
pub mod c4_quality;
pub mod datatrove_stats;
#[cfg(feature = "langid")]
pub mod detect_language;
#[cfg(feature = "langid")]
pub mod fasttext_predict;
pub mod fineweb2_languages;
pub mod fineweb_quality;
pub mod ftfy;
pub mod gopher_quality;
pub mod gopher_repetition;
pub mod ngram_decontamination;
pub mod pii_redact;
pub mod pii_redact_in_order;
pub mod remove_symbol_lines;
#[cfg(feature = "tokens")]
pub mod token_count;
pub mod url_filter;
