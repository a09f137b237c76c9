//! datatrove 0.10.1's steps, as its pipelines run them on a document's text: the quality filters
//! (Gopher, C4, FineWeb and FineWeb-2's per-language settings), the URL filter, C4's bad words,
//! PII formatting, FineWeb-2's symbol lines, the token counter, the statistics blocks, n-gram
//! decontamination, exact and sentence de-duplication, the Bloom filter, and the text its WARC
//! reader makes of a record's payload ([`warc_text`]) with the MIME type it asks libmagic for
//! ([`libmagic`]). Each is plain Rust over `&str`
//! with datatrove's decisions and reasons; the words they count come from [`crate::words`] and
//! MinHash de-duplication is [`crate::minhash`].

pub mod badwords;
pub mod bloom_filter;
pub mod decont;
pub mod exact_dedup;
pub mod exact_substrings;
pub mod filters;
pub mod hashing;
pub mod libmagic;
pub mod pii;
pub mod sentence_dedup;
pub mod stats;
pub mod symbol_lines;
#[cfg(feature = "tokens")]
pub mod tokens;
pub mod url_filter;
pub mod warc_text;
