//! The CRFsuite models some word tokenizers label characters or syllables with (pyvi's,
//! pyidaungsu's, khmer-nltk's), bundled compressed in `tokenizers/` and tagged by the `crfs` crate,
//! a Rust implementation of CRFsuite's tagger. Their features reach CRFsuite as python-crfsuite
//! hands them over: a string feature is the attribute `name:value`, a flag the attribute `name`,
//! each weighing 1.

use std::io::Read;

use crfs::{Attribute, Model, Tagger};

/// A bundled model's file, unzipped: a constant of the crate, read by its tests, never input data.
pub(super) fn gunzip(bytes: &[u8], what: &str) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("the embedded {what}: {e}"));
    out
}

/// A bundled model's zstd-compressed file, decompressed.
pub(super) fn unzstd(bytes: &[u8], what: &str) -> Vec<u8> {
    zstd::decode_all(bytes).unwrap_or_else(|e| panic!("the embedded {what}: {e}"))
}

/// The model of the CRFsuite file `file`, kept for the life of the process (the tokenizers load
/// each model once, into a static).
pub(super) fn model(file: Vec<u8>, what: &str) -> &'static Model<'static> {
    let bytes: &'static [u8] = Box::leak(file.into_boxed_slice());
    let model = Model::new(bytes).unwrap_or_else(|e| panic!("the embedded {what}: {e}"));
    Box::leak(Box::new(model))
}

/// A tagger of the CRFsuite file `file` (the tagger holds the model's transition scores).
pub(super) fn tagger(file: Vec<u8>, what: &str) -> Tagger<'static> {
    model(file, what)
        .tagger()
        .unwrap_or_else(|e| panic!("the embedded {what}: {e}"))
}

/// The attribute `name` of weight 1. CRFsuite keeps attribute names as C strings: a name ends at
/// its first NUL, as it does when python-crfsuite hands a feature over.
pub(super) fn attribute(mut name: String) -> Attribute {
    if let Some(nul) = name.find('\0') {
        name.truncate(nul);
    }
    Attribute::new(name, 1.0)
}
