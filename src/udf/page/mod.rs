//! The page functions: text, paragraphs, blocks and metadata from a page's HTML (jusText,
//! boilerpipe, trafilatura, the crate's own extractor), and its decoding.

pub mod boilerpipe;
pub mod boilerpipe_blocks;
pub(super) mod boilerpipe_common;
pub mod byte_length;
pub mod datatrove_decode;
pub mod decode_html;
pub(super) mod extract_common;
pub mod extract_content;
pub mod extract_content_result;
pub mod extract_metadata;
pub mod html_title;
pub mod justext;
pub(super) mod justext_common;
pub mod justext_extract;
pub mod justext_paragraphs;
pub mod libmagic_mime;
pub mod stopword_density;
pub mod trafilatura;
pub mod trafilatura_in_order;
