//! spaCy 3.8.18's English tokenizer tables (`tokenizers/spacy_en_3.8.18.json.gz`): the affix and
//! URL patterns, the special cases and those the phrase pass applies, the sentencizer's characters.

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::sync::LazyLock;

use fancy_regex::Regex;
use serde_json::Value;

use super::{Token, tokens_by_runs};

const TABLES: &[u8] = include_bytes!("../../tokenizers/spacy_en_3.8.18.json.gz");

pub(super) struct Rules {
    /// Special case → the byte lengths of its pieces (which concatenate to it).
    special_cases: HashMap<String, Vec<usize>>,
    prefix: Regex,
    suffix: Regex,
    infix: Regex,
    url: Regex,
    /// The phrase pass's special cases: first token → the token sequences starting with it.
    phrases: HashMap<String, Vec<Vec<String>>>,
    sentence_punct: HashSet<String>,
}

static RULES: LazyLock<Rules> = LazyLock::new(|| {
    // The tables are a constant of the crate, checked by the tests: never input data.
    Rules::load().unwrap_or_else(|e| panic!("the embedded spaCy tables: {e}"))
});

impl Rules {
    pub(super) fn get() -> &'static Rules {
        &RULES
    }

    fn load() -> Result<Rules, String> {
        let mut json = String::new();
        flate2::read::GzDecoder::new(TABLES)
            .read_to_string(&mut json)
            .map_err(|e| e.to_string())?;
        let tables: Value = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        let pattern = |key: &str| -> Result<Regex, String> {
            let source = tables[key].as_str().ok_or(format!("no {key}"))?;
            Regex::new(&python_to_rust(source)).map_err(|e| format!("{key}: {e}"))
        };
        let strings = |value: &Value| -> Vec<String> {
            value
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        let special_cases = tables["special_cases"]
            .as_object()
            .ok_or("no special_cases")?
            .iter()
            .map(|(key, pieces)| {
                (
                    key.clone(),
                    strings(pieces).iter().map(String::len).collect(),
                )
            })
            .collect();
        let mut rules = Rules {
            special_cases,
            prefix: pattern("prefix_pattern")?,
            suffix: pattern("suffix_pattern")?,
            infix: pattern("infix_pattern")?,
            url: pattern("url_match_pattern")?,
            phrases: HashMap::new(),
            sentence_punct: strings(&tables["sentencizer_default_punct_chars_in_order"])
                .into_iter()
                .collect(),
        };
        // Each phrase special case is matched as the tokens the rules without special cases
        // give it.
        let mut phrases: HashMap<String, Vec<Vec<String>>> = HashMap::new();
        for key in strings(&tables["special_cases_in_phrase_matcher"]) {
            let sequence: Vec<String> = tokens_by_runs(&rules, &key, false)
                .iter()
                .map(|t| t.text.to_owned())
                .collect();
            if let Some(first) = sequence.first() {
                phrases.entry(first.clone()).or_default().push(sequence);
            }
        }
        rules.phrases = phrases;
        Ok(rules)
    }

    pub(super) fn is_special_case(&self, text: &str) -> bool {
        !text.is_empty() && self.special_cases.contains_key(text)
    }

    /// Pushes the pieces of `text` if it is a special case.
    pub(super) fn push_special_case<'a>(
        &self,
        text: &'a str,
        is_space: bool,
        out: &mut Vec<Token<'a>>,
    ) -> bool {
        let Some(lengths) = self.special_cases.get(text) else {
            return false;
        };
        let mut start = 0;
        for &len in lengths {
            out.push(Token {
                text: &text[start..start + len],
                is_space,
                space_after: false,
            });
            start += len;
        }
        true
    }

    /// The length of the prefix `prefix_search` finds (its alternatives are anchored with `^`).
    pub(super) fn prefix_len(&self, text: &str) -> usize {
        match self.prefix.find(text) {
            Ok(Some(m)) if m.start() == 0 => m.end(),
            _ => 0,
        }
    }

    /// The length of the suffix `suffix_search` finds (its alternatives are anchored with `$`).
    pub(super) fn suffix_len(&self, text: &str) -> usize {
        match self.suffix.find(text) {
            Ok(Some(m)) => m.end() - m.start(),
            _ => 0,
        }
    }

    pub(super) fn is_url(&self, text: &str) -> bool {
        matches!(self.url.find(text), Ok(Some(m)) if m.start() == 0)
    }

    /// The (start, end) of each infix match, left to right.
    pub(super) fn infixes(&self, text: &str) -> Vec<(usize, usize)> {
        self.infix
            .find_iter(text)
            .map_while(Result::ok)
            .map(|m| (m.start(), m.end()))
            .collect()
    }

    pub(super) fn is_sentence_punct(&self, text: &str) -> bool {
        self.sentence_punct.contains(text)
    }

    /// Step 5: special cases that contain an affix, matched over consecutive tokens; longest
    /// first, then earliest; a match whose first or last token an earlier match covered is left
    /// out; an accepted match whose text is a special case becomes its pieces.
    pub(super) fn apply_phrase_special_cases<'a>(
        &self,
        text: &'a str,
        tokens: &mut Vec<Token<'a>>,
    ) {
        let mut matches: Vec<(usize, usize)> = Vec::new();
        for (start, token) in tokens.iter().enumerate() {
            for sequence in self.phrases.get(token.text).into_iter().flatten() {
                let end = start + sequence.len();
                if end <= tokens.len()
                    && tokens[start..end]
                        .iter()
                        .zip(sequence)
                        .all(|(t, s)| t.text == s)
                {
                    matches.push((start, sequence.len()));
                }
            }
        }
        if matches.is_empty() {
            return;
        }
        matches.sort_by_key(|&(start, len)| (std::cmp::Reverse(len), start));
        let mut covered = vec![false; tokens.len()];
        let mut accepted = Vec::new();
        for (start, len) in matches {
            if !covered[start] && !covered[start + len - 1] {
                accepted.push((start, len));
            }
            covered[start..start + len]
                .iter_mut()
                .for_each(|c| *c = true);
        }
        accepted.sort_by_key(|&(start, _)| std::cmp::Reverse(start));
        for (start, len) in accepted {
            let first = tokens[start];
            let last = tokens[start + len - 1];
            let begin = offset(text, first.text);
            let span = &text[begin..offset(text, last.text) + last.text.len()];
            let mut pieces = Vec::new();
            if self.push_special_case(span, first.is_space, &mut pieces) {
                if let Some(piece) = pieces.last_mut() {
                    piece.space_after = last.space_after;
                }
                tokens.splice(start..start + len, pieces);
            }
        }
    }
}

/// Where a slice of `text` starts in it.
fn offset(text: &str, slice: &str) -> usize {
    slice.as_ptr() as usize - text.as_ptr() as usize
}

/// A Python `re` pattern as fancy-regex reads it the same way: Python's `\w` (`isalnum()` or
/// `_`), `\d` (Nd) and `\s` (with U+001C–U+001F) as explicit classes, and in a character class
/// the characters the regex crate would read as nesting or set operations escaped.
fn python_to_rust(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut in_class = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push('\\');
                    break;
                };
                let class = match next {
                    'w' => Some(r"\p{L}\p{N}_"),
                    'd' => Some(r"\p{Nd}"),
                    's' => Some(r"\s\x{1c}-\x{1f}"),
                    _ => None,
                };
                match (class, in_class) {
                    (Some(class), true) => out.push_str(class),
                    (Some(class), false) => {
                        out.push('[');
                        out.push_str(class);
                        out.push(']');
                    }
                    (None, _) if next == 'S' => out.push_str(if in_class {
                        r"\S"
                    } else {
                        r"[^\s\x{1c}-\x{1f}]"
                    }),
                    (None, _) => {
                        out.push('\\');
                        out.push(next);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                // A leading '^' and a leading ']' keep their Python meaning.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str(r"\]");
                    chars.next();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '[' | '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}
