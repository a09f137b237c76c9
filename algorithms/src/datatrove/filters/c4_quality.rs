//! datatrove's C4QualityFilter (spec §6; Raffel et al. 2020): line filters that also rewrite the
//! text of the documents they keep.

use super::python_text::{python_lines, python_strip};
use crate::unicode::DECIMAL_DIGIT;
use crate::words::is_python_space;

/// The rules (datatrove's defaults; FineWeb ran it with `filter_no_terminal_punct` off).
#[derive(Debug, Clone, PartialEq)]
pub struct C4QualityParams {
    pub remove_citations: bool,
    pub filter_no_terminal_punct: bool,
    pub min_num_sentences: usize,
    pub min_words_per_line: usize,
    pub max_word_length: usize,
    pub filter_lorem_ipsum: bool,
    pub filter_javascript: bool,
    pub filter_curly_bracket: bool,
    pub filter_policy: bool,
}

impl Default for C4QualityParams {
    fn default() -> Self {
        C4QualityParams {
            remove_citations: true,
            filter_no_terminal_punct: true,
            min_num_sentences: 5,
            min_words_per_line: 3,
            max_word_length: 1000,
            filter_lorem_ipsum: true,
            filter_javascript: true,
            filter_curly_bracket: true,
            filter_policy: true,
        }
    }
}

const END_PUNCTUATION: [char; 5] = ['.', '?', '!', '"', '\''];
const POLICY_SUBSTRINGS: [&str; 6] = [
    "terms of use",
    "privacy policy",
    "cookie policy",
    "uses cookies",
    "use of cookies",
    "use cookies",
];

/// What C4 did with each line, the sentences it counted, the text it keeps, and the reason it
/// drops the document (None: kept, with `text` as its new text).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct C4Quality {
    /// One character per line of `splitlines()`: K kept; W a word too long; P no terminal
    /// punctuation; F too few words; J javascript; Y a policy line; L lorem ipsum and C a curly
    /// bracket (both stop the document); `-` never examined.
    pub line_codes: String,
    /// The sentences of each kept line.
    pub sentences: Vec<usize>,
    pub num_sentences: usize,
    /// The kept lines joined by '\n', stripped.
    pub text: String,
    pub reason: Option<&'static str>,
}

/// C4's line filtering of `text` under `params`.
pub fn c4_quality(text: &str, params: &C4QualityParams) -> C4Quality {
    let lines = python_lines(text);
    let mut result = C4Quality::default();
    let mut kept: Vec<String> = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        let (code, stop) = judge_line(raw, params, &mut kept, &mut result);
        result.line_codes.push(code);
        if let Some(reason) = stop {
            result
                .line_codes
                .extend(std::iter::repeat_n('-', lines.len() - i - 1));
            result.reason = Some(reason);
            break;
        }
    }
    result.text = python_strip(&kept.join("\n")).to_owned();
    if result.reason.is_none() && result.num_sentences < params.min_num_sentences {
        result.reason = Some("too_few_sentences");
    }
    result
}

/// One line's code, and the reason when it stops the document.
fn judge_line(
    raw: &str,
    p: &C4QualityParams,
    kept: &mut Vec<String>,
    result: &mut C4Quality,
) -> (char, Option<&'static str>) {
    let line = python_strip(raw);
    let words: Vec<&str> = line
        .split(is_python_space)
        .filter(|w| !w.is_empty())
        .collect();
    if words.iter().any(|w| w.chars().count() > p.max_word_length) {
        return ('W', None);
    }
    let line = if p.remove_citations {
        remove_citations(line)
    } else {
        line.to_owned()
    };
    if p.filter_no_terminal_punct && (!line.ends_with(END_PUNCTUATION) || line.ends_with("...")) {
        return ('P', None);
    }
    if words.len() < p.min_words_per_line {
        return ('F', None);
    }
    let lower = line.to_lowercase();
    if p.filter_lorem_ipsum && lower.contains("lorem ipsum") {
        return ('L', Some("lorem_ipsum"));
    }
    if p.filter_javascript && lower.contains("javascript") {
        return ('J', None);
    }
    if p.filter_curly_bracket && line.contains('{') {
        return ('C', Some("curly_bracket"));
    }
    if p.filter_policy && POLICY_SUBSTRINGS.iter().any(|s| lower.contains(s)) {
        return ('Y', None);
    }
    let sentences = crate::words::sentence_count(&line);
    result.sentences.push(sentences);
    result.num_sentences += sentences;
    kept.push(line);
    ('K', None)
}

/// `re.sub(r"\[\d*]|\[edit]|\[citation needed]", "", line)`.
fn remove_citations(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let digits = after
            .char_indices()
            .find(|&(_, c)| !DECIMAL_DIGIT.contains(c))
            .map_or(after.len(), |(i, _)| i);
        let citation = if after[digits..].starts_with(']') {
            Some(digits + 1)
        } else {
            ["edit]", "citation needed]"]
                .iter()
                .find(|s| after.starts_with(**s))
                .map(|s| s.len())
        };
        match citation {
            Some(len) => rest = &after[len..],
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn citations_go_and_leave_their_spaces() {
        assert_eq!(remove_citations("Foo. [1]"), "Foo. ");
        assert_eq!(
            remove_citations("a[]b[12][edit][citation needed][x]"),
            "ab[x]"
        );
        assert_eq!(remove_citations("[[3]]"), "[]");
    }

    #[test]
    fn lines_kept_dropped_and_documents_stopped() {
        let params = C4QualityParams::default();
        let text = "Short line.\nThis line has enough words. It has two sentences.\nNo end punctuation here\n\
                    Please enable JavaScript to see this page.\nThis one has a {curly} bracket.\nNever seen.";
        let c4 = c4_quality(text, &params);
        assert_eq!(c4.line_codes, "FKPJC-");
        assert_eq!(c4.reason, Some("curly_bracket"));
        assert_eq!(c4.sentences, [2]);
        let five = "One sentence here. Two sentences here. Three sentences now.\n\
                    Four sentences here. And a fifth one here.";
        let c4 = c4_quality(five, &params);
        assert_eq!((c4.reason, c4.num_sentences), (None, 5));
        assert_eq!(c4.text, five);
    }
}
