//! The de-duplication tokenizer: the one that turns text into onion 1.2's vertical input (one
//! token per line) in the project's evaluation of onion, so a paragraph's tokens here are exactly
//! the token lines onion reads.
//!
//! ```text
//! token := WORD+ | OTHER
//! WORD  := a character of general category L*, M*, N* or Pc
//! OTHER := one character that is neither WORD nor whitespace
//! ```
//!
//! Whitespace is Python's (`str.isspace`), as in the reference's `\s`. The general categories come
//! from the regex crate's Unicode tables (Unicode 16); the reference used Python 3.11's (Unicode
//! 14.0), which classify every character assigned in 14.0 the same way.

use crate::html::text::is_py_space;
use crate::stoplists::Stoplist;

/// How text becomes the tokens that are hashed. The default is onion parity: every token as is.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokenOptions {
    /// Compare tokens lower-cased (full Unicode lower-casing).
    pub lowercase: bool,
    /// Drop one-character OTHER tokens (punctuation and symbols).
    pub skip_punctuation: bool,
    /// Drop tokens whose lower-cased form is in this stoplist.
    pub stopwords: Option<&'static Stoplist>,
}

fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    crate::unicode::WORD_CHARACTER.contains(c)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CharClass {
    Word,
    Space,
    Other,
}

const fn ascii_classes() -> [CharClass; 128] {
    let mut table = [CharClass::Other; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = if c.is_ascii_alphanumeric() || c == b'_' {
            CharClass::Word
        } else if matches!(c, 0x09..=0x0d | 0x1c..=0x20) {
            CharClass::Space
        } else {
            CharClass::Other
        };
        b += 1;
    }
    table
}

static ASCII_CLASS: [CharClass; 128] = ascii_classes();

fn class_of(c: char) -> CharClass {
    if c.is_ascii() {
        ASCII_CLASS[c as usize]
    } else if is_word_char(c) {
        CharClass::Word
    } else if is_py_space(c) {
        CharClass::Space
    } else {
        CharClass::Other
    }
}

/// Calls `f` with every token of `text`, in order (no options applied).
pub fn for_each_token<'a>(text: &'a str, mut f: impl FnMut(&'a str)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    // Start of the WORD run being read.
    let mut word_start: Option<usize> = None;
    while i < bytes.len() {
        let (class, width) = if bytes[i] < 0x80 {
            (ASCII_CLASS[bytes[i] as usize], 1)
        } else {
            // `i` is at a char boundary: runs only end at boundaries.
            let c = text[i..].chars().next().unwrap_or(' ');
            (class_of(c), c.len_utf8())
        };
        if class == CharClass::Word {
            word_start.get_or_insert(i);
        } else {
            if let Some(start) = word_start.take() {
                f(&text[start..i]);
            }
            if class == CharClass::Other {
                f(&text[i..i + width]);
            }
        }
        i += width;
    }
    if let Some(start) = word_start {
        f(&text[start..]);
    }
}

/// The tokens of `text`, for tests and small callers.
pub fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for_each_token(text, |t| out.push(t));
    out
}

/// A token is punctuation when it is a single OTHER character.
fn is_punctuation(token: &str) -> bool {
    let mut chars = token.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if class_of(c) == CharClass::Other)
}

impl TokenOptions {
    /// Calls `f` with the hash of every token of `text` these options keep.
    pub fn for_each_token_hash(&self, text: &str, scratch: &mut String, mut f: impl FnMut(u64)) {
        for_each_token(text, |token| {
            if self.skip_punctuation && is_punctuation(token) {
                return;
            }
            if let Some(stoplist) = self.stopwords
                && stoplist.contains_lowercased(token, scratch)
            {
                return;
            }
            f(if self.lowercase {
                super::hash::token_hash_lowercase(token, scratch)
            } else {
                super::hash::token_hash(token.as_bytes())
            })
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_single_other_characters() {
        assert_eq!(
            tokens("Hello, world! It's 4,499.00 $ snake_case"),
            [
                "Hello",
                ",",
                "world",
                "!",
                "It",
                "'",
                "s",
                "4",
                ",",
                "499",
                ".",
                "00",
                "$",
                "snake_case"
            ]
        );
    }

    #[test]
    fn unicode_letters_marks_and_numbers_are_word_characters() {
        // é (L), combining acute (M), Arabic-Indic digit (N), ‿ U+203F (Pc) join the word; the
        // em dash (Pd) and the euro sign (Sc) are OTHER; U+3000 is whitespace.
        assert_eq!(
            tokens("café e\u{301}t\u{663}a\u{203f}b—€\u{3000}ok"),
            ["café", "e\u{301}t\u{663}a\u{203f}b", "—", "€", "ok"]
        );
    }

    #[test]
    fn python_whitespace_separates_tokens() {
        // U+001C..U+001F are whitespace for Python's \s; U+00A0 too.
        assert_eq!(tokens("a\u{1c}b\u{a0}c\td\n"), ["a", "b", "c", "d"]);
        assert!(tokens(" \n\t ").is_empty());
    }

    #[test]
    fn options_drop_punctuation_and_stopwords() {
        let mut scratch = String::new();
        let english = Stoplist::by_name("English");
        let count = |o: TokenOptions, text: &str| {
            let mut n = 0;
            o.for_each_token_hash(text, &mut scratch.clone(), |_| n += 1);
            n
        };
        let text = "The cat , sat on the mat .";
        assert_eq!(count(TokenOptions::default(), text), 8);
        let no_punct = TokenOptions {
            skip_punctuation: true,
            ..Default::default()
        };
        assert_eq!(count(no_punct, text), 6);
        let no_stop = TokenOptions {
            stopwords: english,
            skip_punctuation: true,
            ..Default::default()
        };
        // the, on, the are English stopwords.
        assert_eq!(count(no_stop, text), 3);
        scratch.clear();
    }
}
