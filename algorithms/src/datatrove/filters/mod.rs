//! The pre-training data filters of HuggingFace datatrove 0.10.1
//! (<https://github.com/huggingface/datatrove>), restated over the words of [`crate::words`]: each gives the
//! statistics its rules are computed from and the reason of the first rule that fails.

pub mod c4_quality;
mod constants;
pub mod fineweb2;
pub mod fineweb_quality;
pub mod gopher_quality;
pub mod gopher_repetition;
pub mod options;
mod python_text;

pub use c4_quality::{C4Quality, C4QualityParams, c4_quality};
pub(crate) use constants::PUNCTUATION_SET;
pub use fineweb_quality::{
    FineWebQuality, FineWebQualityParams, fineweb_quality, fineweb_quality_of_words,
};
pub use gopher_quality::{
    GopherQuality, GopherQualityParams, gopher_quality, gopher_quality_of_words,
};
pub use gopher_repetition::{
    GopherRepetition, GopherRepetitionParams, gopher_repetition, gopher_repetition_of_words,
};
pub use options::{
    C4_QUALITY_KEYS, FINEWEB_QUALITY_KEYS, GOPHER_QUALITY_KEYS, GOPHER_REPETITION_KEYS,
};
pub(crate) use python_text::{
    ASCII_PUNCTUATION, PythonLines, find_duplicates, is_simplify_punctuation, python_lines,
};
