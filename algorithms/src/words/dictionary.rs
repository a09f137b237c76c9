//! What the dictionary-based word tokenizers (PyThaiNLP's newmm for Thai, LaoNLP's maximal
//! matching for Lao) share: a character trie of a word list, as PyThaiNLP's `Trie` holds it, and a
//! text indexed by characters, as Python counts positions.

use std::io::Read;

use regex::Regex;

use super::is_python_space;

/// A gzipped word list bundled with the crate (a constant of the crate, checked by the tests:
/// never input data) as a trie; a byte-order mark at its start is not part of the first word.
pub(super) fn bundled(gzipped: &[u8], what: &str) -> Trie {
    let mut text = String::new();
    flate2::read::GzDecoder::new(gzipped)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("the embedded {what}: {e}"));
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    Trie::from_lines(text)
}

/// A character trie of a word list.
pub(super) struct Trie {
    nodes: Vec<TrieNode>,
}

#[derive(Default)]
struct TrieNode {
    /// Sorted by character.
    children: Vec<(char, u32)>,
    is_word: bool,
}

impl Trie {
    /// PyThaiNLP's `Trie(words)` of a list's lines: every non-empty line, `strip()`ped.
    pub(super) fn from_lines(text: &str) -> Trie {
        let mut trie = Trie {
            nodes: vec![TrieNode::default()],
        };
        for line in text.lines().filter(|l| !l.is_empty()) {
            let mut node = 0;
            for c in line.trim_matches(is_python_space).chars() {
                node = match trie.nodes[node]
                    .children
                    .binary_search_by_key(&c, |&(k, _)| k)
                {
                    Ok(i) => trie.nodes[node].children[i].1 as usize,
                    Err(i) => {
                        let child = trie.nodes.len();
                        trie.nodes.push(TrieNode::default());
                        trie.nodes[node].children.insert(i, (c, child as u32));
                        child
                    }
                };
            }
            trie.nodes[node].is_word = true;
        }
        trie
    }

    /// The lengths of the words that start at `chars[start]`, shortest first (`Trie.prefixes`).
    pub(super) fn prefix_lengths(&self, chars: &[char], start: usize, out: &mut Vec<usize>) {
        out.clear();
        let mut node = 0;
        for (i, c) in chars[start..].iter().enumerate() {
            let children = &self.nodes[node].children;
            match children.binary_search_by_key(c, |&(k, _)| k) {
                Ok(j) => node = children[j].1 as usize,
                Err(_) => return,
            }
            if self.nodes[node].is_word {
                out.push(i + 1);
            }
        }
    }
}

/// A text as characters, with each character's byte offset (and the length at the end).
pub(super) struct Chars<'a> {
    text: &'a str,
    pub(super) chars: Vec<char>,
    pub(super) offsets: Vec<usize>,
}

impl<'a> Chars<'a> {
    pub(super) fn new(text: &'a str) -> Chars<'a> {
        let (offsets, chars): (Vec<usize>, Vec<char>) = text.char_indices().unzip();
        let mut offsets = offsets;
        offsets.push(text.len());
        Chars {
            text,
            chars,
            offsets,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.chars.len()
    }

    pub(super) fn slice(&self, from: usize, to: usize) -> &'a str {
        &self.text[self.offsets[from]..self.offsets[to]]
    }

    /// The length in characters of a match of `pattern` at `at`, if any.
    pub(super) fn match_at(&self, pattern: &Regex, at: usize) -> Option<usize> {
        let found = pattern.find(self.rest(at))?;
        Some(found.as_str().chars().count())
    }

    /// The text from character `at` on.
    pub(super) fn rest(&self, at: usize) -> &'a str {
        &self.text[self.offsets[at]..]
    }
}

/// PyThaiNLP's safe mode (newmm's, and LaoNLP's copy of it) cuts a text of this many characters or
/// more in chunks, each cut made in `[SCAN_BEGIN, SCAN_END)` of what is left.
const SCAN_BEGIN: usize = 100;
const SCAN_END: usize = 140;

/// The safe mode's chunks of `text` (the text itself when it is short): each cut in the scan
/// window of what is left, after the window's last space, or else `cut_in_window(window)`
/// characters into the window.
pub(super) fn safe_chunks<'a>(
    text: &'a str,
    mut cut_in_window: impl FnMut(&str) -> usize,
) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = text;
    // The first SCAN_END characters of what is left hold the window; the rest is not read here
    // (reading it for each chunk would make a long text's chunking quadratic).
    while let Some((head_end, last)) = rest.char_indices().nth(SCAN_END - 1) {
        let head = Chars::new(&rest[..head_end + last.len_utf8()]);
        let window = head.slice(SCAN_BEGIN, SCAN_END);
        let cut = match window.chars().rev().position(|c| c == ' ') {
            Some(from_end) => SCAN_END - from_end,
            None => SCAN_BEGIN + cut_in_window(window),
        };
        let (chunk, after) = rest.split_at(head.offsets[cut]);
        out.push(chunk);
        rest = after;
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}
