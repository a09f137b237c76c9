//! jusText's context-free classification and context-sensitive revision.

use super::{Paragraph, ParagraphClass, Params};
use crate::html::text::is_py_space;
use crate::stoplists::Stoplist;

/// `re.search(r"\bh\d\b", dom_path)` with Python's Unicode word characters and digits.
pub fn is_heading_path(dom_path: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let mut prev: Option<char> = None;
    let mut chars = dom_path.chars();
    while let Some(c) = chars.next() {
        if c == 'h' && !prev.is_some_and(is_word) {
            let mut ahead = chars.clone();
            if ahead.next().is_some_and(char::is_numeric) && !ahead.next().is_some_and(is_word) {
                return true;
            }
        }
        prev = Some(c);
    }
    false
}

/// Counts the words of a paragraph's text (split on Python whitespace, punctuation kept) that are
/// in the stoplist after lower-casing. The text is whitespace-normalised, so the only whitespace
/// left is `' '` and `'\n'`, which a byte search finds faster than a test of every character.
pub fn stopwords_count(normalized_text: &str, stoplist: &Stoplist, scratch: &mut String) -> usize {
    normalized_text
        .split([' ', '\n'])
        .filter(|w| !w.is_empty() && stoplist.contains_lowercased(w, scratch))
        .count()
}

/// `text.split()` in Python.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_py_space).filter(|w| !w.is_empty())
}

/// jusText's stopword density of any text: stopwords over words, 0 without words.
pub fn stopword_density(text: &str, stoplist: &Stoplist, scratch: &mut String) -> f64 {
    let (mut total, mut stop) = (0usize, 0usize);
    for w in words(text) {
        total += 1;
        stop += usize::from(stoplist.contains_lowercased(w, scratch));
    }
    if total == 0 {
        0.0
    } else {
        stop as f64 / total as f64
    }
}

/// The context-free class of one paragraph (jusText's `classify_paragraphs`, rules in order).
pub fn context_free_class(p: &Paragraph, params: &Params) -> ParagraphClass {
    use ParagraphClass::*;
    if p.link_density() > params.max_link_density {
        Bad
    } else if p.text.contains('\u{a9}') || p.text.contains("&copy") {
        Bad
    } else if p.dom_path.contains("select") {
        Bad
    } else if p.length < params.length_low {
        if p.chars_count_in_links > 0 {
            Bad
        } else {
            Short
        }
    } else {
        let density = p.stopword_density();
        if density >= params.stopwords_high {
            if p.length > params.length_high {
                Good
            } else {
                NearGood
            }
        } else if density >= params.stopwords_low {
            NearGood
        } else {
            Bad
        }
    }
}

/// The nearest good/bad class on each side of every paragraph, skipping shorts (and neargoods when
/// `ignore_neargood`); the document edge counts as bad. Computed for all paragraphs in two passes so
/// long runs of short paragraphs stay linear.
fn neighbours(
    classes: &[ParagraphClass],
    ignore_neargood: bool,
) -> (Vec<ParagraphClass>, Vec<ParagraphClass>) {
    use ParagraphClass::*;
    let is_anchor =
        |c: ParagraphClass| matches!(c, Good | Bad) || (c == NearGood && !ignore_neargood);
    let mut prev = Vec::with_capacity(classes.len());
    let mut last = Bad;
    for &c in classes {
        prev.push(last);
        if is_anchor(c) {
            last = c;
        }
    }
    let mut next = vec![Bad; classes.len()];
    let mut last = Bad;
    for (i, &c) in classes.iter().enumerate().rev() {
        next[i] = last;
        if is_anchor(c) {
            last = c;
        }
    }
    (prev, next)
}

/// Heading stages: a heading at `i` whose class is `from` becomes `to` when a good paragraph
/// follows within `max_heading_distance` characters.
fn promote_headings(
    paragraphs: &mut [Paragraph],
    params: &Params,
    eligible: impl Fn(&Paragraph) -> bool,
    to: ParagraphClass,
) {
    for i in 0..paragraphs.len() {
        if !(paragraphs[i].heading && eligible(&paragraphs[i])) {
            continue;
        }
        let mut distance = 0usize;
        let mut j = i + 1;
        while j < paragraphs.len() && distance <= params.max_heading_distance {
            if paragraphs[j].class == ParagraphClass::Good {
                paragraphs[i].class = to;
                break;
            }
            distance += paragraphs[j].length;
            j += 1;
        }
    }
}

/// jusText's `revise_paragraph_classification`.
pub fn revise(paragraphs: &mut [Paragraph], params: &Params) {
    use ParagraphClass::*;
    for p in paragraphs.iter_mut() {
        p.class = p.cf_class;
    }
    if params.good_headings_stage {
        // Stage 1 as the thesis and jusText < 3.0 have it; dead code in 3.0.2.
        promote_headings(paragraphs, params, |p| p.class == Short, NearGood);
    }

    // Stage 2: short paragraphs, decided on the classes before any of them changes.
    let classes: Vec<ParagraphClass> = paragraphs.iter().map(|p| p.class).collect();
    let (prev_ignoring, next_ignoring) = neighbours(&classes, true);
    let (prev_with, next_with) = neighbours(&classes, false);
    for (i, p) in paragraphs.iter_mut().enumerate() {
        if classes[i] != Short {
            continue;
        }
        let (prev, next) = (prev_ignoring[i], next_ignoring[i]);
        p.class = if prev == Good && next == Good {
            Good
        } else if prev == Bad && next == Bad {
            Bad
        } else if (prev == Bad && prev_with[i] == NearGood)
            || (next == Bad && next_with[i] == NearGood)
        {
            Good
        } else {
            Bad
        };
    }

    // Stage 3: near-good paragraphs. Every run of them lies between the same two anchors, so
    // deciding all of them on one snapshot equals jusText's in-place loop.
    let classes: Vec<ParagraphClass> = paragraphs.iter().map(|p| p.class).collect();
    let (prev, next) = neighbours(&classes, true);
    for (i, p) in paragraphs.iter_mut().enumerate() {
        if classes[i] == NearGood {
            p.class = if prev[i] == Bad && next[i] == Bad {
                Bad
            } else {
                Good
            };
        }
    }

    // Stage 4: more good headings.
    promote_headings(
        paragraphs,
        params,
        |p| p.class == Bad && p.cf_class != Bad,
        Good,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_count_of_normalized_text_splits_like_python() {
        let english = Stoplist::by_name("English").unwrap();
        let raw = "The\u{a0}cat\tsat \u{3000}on\r\nthe  mat,\u{1c}and\u{2028}THEN";
        let normalized = crate::html::text::normalize_whitespace(raw);
        let mut scratch = String::new();
        let generic = words(raw)
            .filter(|w| english.contains_lowercased(w, &mut scratch))
            .count();
        // the, on, the, and, then
        assert_eq!(generic, 5);
        assert_eq!(stopwords_count(&normalized, english, &mut scratch), generic);
    }

    #[test]
    fn heading_regex_like_python() {
        for path in [
            "html.body.h1",
            "h2.div",
            "div.h1-x",
            "div.my-h3",
            "div.h7",
            "div.h0",
        ] {
            assert!(is_heading_path(path), "{path}");
        }
        for path in [
            "html.body.h10",
            "div.th",
            "div.h",
            "div.xh1",
            "div.h1x",
            "div.h_1",
            "div.h1_",
        ] {
            assert!(!is_heading_path(path), "{path}");
        }
    }
}
