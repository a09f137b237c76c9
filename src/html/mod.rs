//! Page input: bytes or text in, one parsed tree out, shared by every algorithm of the crate.

pub mod decode;
pub mod dom;
pub mod libxml2;
pub mod limits;
mod python_codecs;
pub mod text;
mod tokenizer;

pub use decode::{DecodeError, Decoding, decode_html, decode_html_with_hint};
pub use dom::{NodeId, NodeKind, Page};
pub use limits::Limits;
