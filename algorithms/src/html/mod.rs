//! Page input: bytes or text in, one parsed tree out, shared by every algorithm of the crate.
//!
//! From the bottom up: the tree (`dom`) and the page's limits; the crate's tokenizer; the two
//! tree builders it feeds, HTML5's (`html5_tree`, over html5ever's tree builder) and
//! libxml2's (`libxml2`); and `parse` on top, which drives them.

pub mod decode;
pub mod dom;
mod html5_tree;
pub mod libxml2;
pub mod limits;
mod parse;
pub(crate) mod python_codecs;
pub mod text;
mod tokenizer;

pub use decode::{DecodeError, Decoding, decode_html, decode_html_with_hint};
pub use dom::{NodeId, NodeKind, Page};
pub use limits::Limits;
