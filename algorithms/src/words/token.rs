//! A token of a text, as spaCy's tokenizer gives it.

/// A token of the text: a slice of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    pub text: &'a str,
    /// A whitespace token (spaCy keeps whitespace other than one space after a token as tokens).
    pub is_space: bool,
    /// Followed by one space that belongs to it (spaCy's `whitespace_`).
    pub space_after: bool,
}
