//! Exact-substring de-duplication as HuggingFace datatrove 0.10.1 drives it around the
//! suffix-array tool of Lee et al. (2022), "Deduplicating Training Data Makes Language Models
//! Better" (google-research/deduplicate-text-datasets):
//!
//! 1. every document becomes a byte sequence, a 12-byte separator (`ff ff`, the document's
//!    index in its task as a little-endian `u32`, `ff ff`, the task's rank as a `u32`) then its
//!    token ids as little-endian `u16`s (datatrove's `ESDatasetToSequence`; [`document_sequence`]),
//!    and a task's sequences are concatenated (`ESMergeSequences`);
//! 2. the reference tool's `self-similar` marks every byte position whose next
//!    `length_threshold` bytes occur at least twice in the whole sequence, and its `collect`
//!    merges the marked windows into byte ranges ([`duplicates`]);
//! 3. each document loses the text of the token ranges that fall in it, and is dropped when fewer
//!    than `min_doc_words` words remain (`ESRangeRemover`; [`RangeRemover`]).
//!
//! The ranges are the reference tool's, whose suffix array only ever serves to put equal windows
//! side by side; [`duplicates`] groups the windows by a rolling hash instead, compares the
//! candidates byte for byte, and spills to disk beyond the memory it is given.

mod duplicates;
mod remover;
mod sequence;

pub use duplicates::{DuplicateRanges, RANGES_HEADER, duplicate_ranges, write_collect_output};
pub use remover::{RangeRemover, TaskRanges, remove_texts, task_ranges};
pub use sequence::{
    DEFAULT_LENGTH_THRESHOLD, DEFAULT_MIN_DOC_WORDS, SEPARATOR_BYTES, document_sequence, token_ids,
};
