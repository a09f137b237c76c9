//! Chinese words as datatrove 0.10.1's `SpaCyTokenizer("zh")` gives them: spaCy's
//! `ChineseTokenizer` with the jieba segmenter, that is jieba 0.42.1's precise mode
//! (`jieba.cut(text, cut_all=False)`, HMM on), whitespace tokens dropped.
//!
//! jieba first cuts the text into blocks of its "Han" class, `[\u4E00-\u9FD5a-zA-Z0-9+#&._%-]`,
//! and everything else. The blocks go through the dictionary DAG, the most probable route and the
//! HMM for runs of unknown single characters, which `jieba-rs` implements with jieba's own
//! dictionary and HMM tables. jieba-rs's Han class is wider (all of U+4E00–U+9FFF and the CJK
//! extensions), so the blocks are cut here with jieba's narrower class and handed to jieba-rs
//! one by one: a character past U+9FD5 or from an extension is a word of its own, as in jieba.
//! The text between blocks is yielded one character at a time by jieba, so each character that
//! is not whitespace is a word.

use std::sync::LazyLock;

use jieba_rs::Jieba;

use super::is_python_space;

/// jieba's dictionary as jieba 0.42.1's `dict.txt` has it. jieba-rs's bundled copy lacks one of
/// its entries; the total frequency, and so every route's probability, depends on it.
static JIEBA: LazyLock<Jieba> = LazyLock::new(|| {
    let mut jieba = Jieba::new();
    jieba.add_word("B超", Some(3), Some("n"));
    jieba
});

/// jieba's `re_han_default` class.
fn is_jieba_han(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FD5}' | 'a'..='z' | 'A'..='Z' | '0'..='9' | '+' | '#' | '&' | '.' | '_' | '%' | '-')
}

/// The words of `text` (slices of it) as datatrove's Chinese tokenizer gives them.
pub(super) fn words(text: &str) -> Vec<&str> {
    let jieba = &*JIEBA;
    let mut out = Vec::with_capacity(text.len() / 4);
    let mut rest = text;
    while let Some(first) = rest.chars().next() {
        let in_block = is_jieba_han(first);
        let end = rest
            .char_indices()
            .find(|&(_, c)| is_jieba_han(c) != in_block)
            .map_or(rest.len(), |(i, _)| i);
        let (run, after) = rest.split_at(end);
        if in_block {
            for token in jieba.cut(run, true) {
                push_as_jieba(jieba, token.word, &mut out);
            }
        } else {
            out.extend(
                run.char_indices()
                    .filter(|&(_, c)| !is_python_space(c))
                    .map(|(i, c)| &run[i..i + c.len_utf8()]),
            );
        }
        rest = after;
    }
    out
}

/// A word jieba-rs gives, as jieba gives it. The HMM's unknown runs keep Latin letters and digits
/// whole, and there jieba-rs's pattern joins runs over `.`, `_` and `-`
/// (`[a-zA-Z0-9]+(?:[._-][a-zA-Z0-9]+)*%?`) where jieba's `re_skip` takes one run and a decimal part
/// only (`[a-zA-Z0-9]+(?:\.\d+)?%?`): `www.example.com` is `www . example . com` in jieba, and
/// `192.168.0.1` is `192.168 . 0.1`. Every match of jieba's pattern lies inside one of
/// jieba-rs's, so re-cutting such a word alone gives jieba's pieces. A dictionary word is a step
/// of the most probable route, never cut.
fn push_as_jieba<'a>(jieba: &Jieba, word: &'a str, out: &mut Vec<&'a str>) {
    let joined_over_connector = word.is_ascii()
        && word.bytes().any(|b| matches!(b, b'.' | b'_' | b'-'))
        && !jieba.has_word(word);
    if !joined_over_connector {
        out.push(word);
        return;
    }
    let bytes = word.as_bytes();
    let run_end = |mut i: usize, digits_only: bool| {
        while i < bytes.len()
            && (bytes[i].is_ascii_digit() || !digits_only && bytes[i].is_ascii_alphanumeric())
        {
            i += 1;
        }
        i
    };
    let mut start = 0;
    while start < bytes.len() {
        let end = if bytes[start].is_ascii_alphanumeric() {
            let mut end = run_end(start, false);
            if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
                end = run_end(end + 1, true);
            }
            if bytes.get(end) == Some(&b'%') {
                end += 1;
            }
            end
        } else {
            (start..bytes.len())
                .find(|&i| bytes[i].is_ascii_alphanumeric())
                .unwrap_or(bytes.len())
        };
        out.push(&word[start..end]);
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// jieba 0.42.1's own results (`jieba.lcut(text)`), and the spec's consequences: a character
    /// outside jieba's class is a word of its own, URLs split at `:` and `/`, and
    /// the HMM's unknown runs at `.` between letters.
    #[test]
    fn cuts_as_jieba_does() {
        assert_eq!(
            words("我来到北京清华大学"),
            ["我", "来到", "北京", "清华大学"]
        );
        assert_eq!(
            words("他来到了网易杭研大厦"),
            ["他", "来到", "了", "网易", "杭研", "大厦"]
        );
        assert_eq!(words("café 很好"), ["caf", "é", "很", "好"]);
        assert_eq!(
            words("https://www.example.com/x"),
            [
                "https", ":", "/", "/", "www", ".", "example", ".", "com", "/", "x"
            ]
        );
        assert_eq!(words("中文，标点。"), ["中文", "，", "标点", "。"]);
        assert_eq!(
            words("IP 192.168.0.1 和 a.b-c 及 x_1.5% 与 1979-11-01"),
            [
                "IP", "192.168", ".", "0.1", "和", "a", ".", "b", "-", "c", "及", "x", "_", "1.5%",
                "与", "1979", "-", "11", "-", "01"
            ]
        );
        // U+9FD6 and Extension A's U+3400 are outside jieba's class.
        assert_eq!(words("\u{9FD6}\u{3400}"), ["\u{9FD6}", "\u{3400}"]);
        assert!(words(" \n\t\u{1c}").is_empty());
    }
}
