//! # webtext-algorithms
//!
//! The algorithms of `datafusion-webtext` as plain Rust over `&str`, byte
//! slices and small structs: HTML decoding and parsing ([`html`]), jusText ([`justext`]),
//! boilerpipe ([`boilerpipe`]), trafilatura ([`trafilatura`]), the project's own extractor
//! ([`extract`]) and page metadata ([`metadata`]), onion's paragraph de-duplication ([`dedup`]),
//! MinHash ([`minhash`]), ftfy ([`ftfy`]), datatrove's filters and blocks ([`datatrove`]) with the
//! words they count ([`words`]), the embedded stoplists ([`stoplists`]), fastText's language
//! identification (`langid`), WARC records ([`warc`]) and the options every function parses
//! ([`options`]).
//!
//! DataFusion is not a dependency of this crate: `datafusion-webtext` turns Arrow arrays into
//! calls of these functions, and the command line and the Python package sit on that.
//!
//! The module docs ([`justext`], [`trafilatura`], [`warc`]) show each in use.

pub mod boilerpipe;
pub mod charset;
pub mod datatrove;
pub mod dedup;
pub mod extract;
pub mod ftfy;
pub mod html;
pub mod justext;
#[cfg(feature = "langid")]
pub mod langid;
pub mod metadata;
pub mod minhash;
pub mod options;
pub mod stoplists;
pub mod trafilatura;
mod unicode;
pub mod warc;
pub mod words;
