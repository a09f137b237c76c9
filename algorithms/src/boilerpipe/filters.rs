//! The filters of boilerpipe 1.2.0 that its extractors use (spec §6). Densities are `f32`, as
//! Java's `float`, compared with the `double` literals of the original.

use super::block::{Label, TextBlock};
use super::segment::Version;
use super::segment::{java_trim, utf16_len};

/// Classifies every block from its neighbours' features (`EMPTY_START` at both edges).
fn classify_with_neighbours(
    blocks: &mut [TextBlock],
    rule: impl Fn(&TextBlock, &TextBlock, &TextBlock) -> bool,
) {
    let empty = TextBlock::empty();
    let decisions: Vec<bool> = (0..blocks.len())
        .map(|i| {
            let prev = if i == 0 { &empty } else { &blocks[i - 1] };
            let next = blocks.get(i + 1).unwrap_or(&empty);
            rule(prev, &blocks[i], next)
        })
        .collect();
    for (b, content) in blocks.iter_mut().zip(decisions) {
        b.is_content = content;
    }
}

fn ld(b: &TextBlock) -> f64 {
    f64::from(b.link_density)
}

fn td(b: &TextBlock) -> f64 {
    f64::from(b.text_density)
}

/// `NumWordsRulesClassifier`.
pub fn num_words_rules_classifier(blocks: &mut [TextBlock]) {
    classify_with_neighbours(blocks, |prev, curr, next| {
        if ld(curr) <= 0.333333 {
            if ld(prev) <= 0.555556 {
                curr.num_words > 16 || next.num_words > 15 || prev.num_words > 4
            } else {
                curr.num_words > 40 || next.num_words > 17
            }
        } else {
            false
        }
    });
}

/// `DensityRulesClassifier`.
pub fn density_rules_classifier(blocks: &mut [TextBlock]) {
    classify_with_neighbours(blocks, |prev, curr, next| {
        if ld(curr) <= 0.333333 {
            if ld(prev) <= 0.555556 {
                if td(curr) <= 9.0 {
                    td(next) > 10.0 || td(prev) > 4.0
                } else {
                    td(next) != 0.0
                }
            } else {
                td(next) > 11.0
            }
        } else {
            false
        }
    });
}

/// `CanolaExtractor.CLASSIFIER`.
pub fn canola_classifier(blocks: &mut [TextBlock]) {
    classify_with_neighbours(blocks, |prev, curr, next| {
        (ld(curr) > 0.0 && next.num_words > 11)
            || curr.num_words > 19
            || (next.num_words > 6
                && ld(next) == 0.0
                && ld(prev) == 0.0
                && (curr.num_words > 6 || prev.num_words > 7 || next.num_words > 19))
    });
}

/// `SimpleBlockFusionProcessor`: merges neighbours of equal (float) text density.
pub fn simple_block_fusion(blocks: &mut Vec<TextBlock>) {
    if blocks.len() < 2 {
        return;
    }
    let mut out: Vec<TextBlock> = Vec::with_capacity(blocks.len());
    for block in blocks.drain(..) {
        match out.last_mut() {
            Some(prev) if prev.text_density == block.text_density => prev.merge_next(&block),
            _ => out.push(block),
        }
    }
    *blocks = out;
}

/// `BlockProximityFusion(max_distance, content_only, same_tag_level_only)`: a content block
/// merges into the block before it (content or not, unless `content_only`) when their offsets are
/// at most `max_distance` apart.
pub fn block_proximity_fusion(
    blocks: &mut Vec<TextBlock>,
    max_distance: i64,
    content_only: bool,
    same_tag_level_only: bool,
) {
    if blocks.len() < 2 {
        return;
    }
    let first = if content_only {
        match blocks.iter().position(|b| b.is_content) {
            Some(i) => i,
            None => return,
        }
    } else {
        0
    };
    let mut rest = blocks.split_off(first + 1);
    let mut out = std::mem::take(blocks);
    for block in rest.drain(..) {
        let Some(prev) = out.last_mut() else {
            out.push(block);
            continue;
        };
        if !block.is_content {
            out.push(block);
            continue;
        }
        let distance = block.offset_start as i64 - prev.offset_end as i64 - 1;
        let merge = distance <= max_distance
            && (!content_only || (prev.is_content && block.is_content))
            && (!same_tag_level_only || prev.tag_level == block.tag_level);
        if merge {
            prev.merge_next(&block);
        } else {
            out.push(block);
        }
    }
    *blocks = out;
}

/// `TerminatingBlocksFinder`: labels short blocks that typically end an article's text.
pub fn terminating_blocks_finder(blocks: &mut [TextBlock]) {
    find_terminating_blocks(blocks, Version::Release1_2_0);
}

/// The head's `TerminatingBlocksFinder`: also a block that is only the link "Comment".
pub fn terminating_blocks_finder_head(blocks: &mut [TextBlock]) {
    find_terminating_blocks(blocks, Version::Head);
}

fn find_terminating_blocks(blocks: &mut [TextBlock], version: Version) {
    for b in blocks.iter_mut().filter(|b| b.num_words < 15) {
        let t = java_trim(&b.text);
        if utf16_len(t) < 8 {
            // The head's extra rule is the `else` of the length test ("Comment" has 7 chars).
            if version == Version::Head && b.link_density == 1.0 && t == "Comment" {
                b.add_label(Label::IndicatesEndOfText);
            }
            continue;
        }
        let lc = t.to_lowercase();
        let digits = lc.bytes().take_while(u8::is_ascii_digit).count();
        let ends = [
            "comments",
            "© reuters",
            "please rate this",
            "post a comment",
        ]
        .iter()
        .any(|p| lc.starts_with(p))
            || (digits > 0
                && (lc[digits..].starts_with(" comments")
                    || lc[digits..].starts_with(" users responded in")))
            || [
                "what you think...",
                "add your comment",
                "add comment",
                "reader views",
                "have your say",
                "reader comments",
                "rätta artikeln",
            ]
            .iter()
            .any(|p| lc.contains(p))
            || lc == "thanks for your comments - this feedback is now closed";
        if ends {
            b.add_label(Label::IndicatesEndOfText);
        }
    }
}

/// Java's `String.split` on `[ ]*[S][ ]*` for a set S of separator characters, or on
/// `[ ]+[S][ ]+` (a separator with spaces on both sides) when `spaced`: trailing empty parts
/// dropped, a leading one kept.
fn split_on_separators<'a>(s: &'a str, separators: &[char], spaced: bool) -> Vec<&'a str> {
    let bytes = s.as_bytes();
    let mut parts = Vec::new();
    let mut part_start = 0usize;
    let mut i = 0usize;
    while i < s.len() {
        let Some(c) = s[i..].chars().next() else {
            break;
        };
        if separators.contains(&c) {
            // The match takes the spaces right before the separator (after the last match).
            let mut match_start = i;
            while match_start > part_start && bytes[match_start - 1] == b' ' {
                match_start -= 1;
            }
            let mut match_end = i + c.len_utf8();
            while match_end < s.len() && bytes[match_end] == b' ' {
                match_end += 1;
            }
            if spaced && (match_start == i || match_end == i + c.len_utf8()) {
                i += c.len_utf8();
                continue;
            }
            parts.push(&s[part_start..match_start]);
            part_start = match_end;
            i = match_end;
        } else {
            i += c.len_utf8();
        }
    }
    parts.push(&s[part_start..]);
    while parts.len() > 1 && parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

/// `DocumentTitleMatchClassifier.getLongestPart`, with 1.2.0's word count that is always 1 (its
/// `"[\b]+"` is a backspace): the first part without ".com", unless a strictly longer one follows.
fn longest_part(title: &str, separators: &[char]) -> Option<String> {
    let parts = split_on_separators(title, separators, false);
    if parts.len() == 1 {
        return None;
    }
    let mut best: Option<&str> = None;
    for p in parts {
        if p.contains(".com") {
            continue;
        }
        match best {
            None => best = Some(p),
            Some(b) if utf16_len(p) > utf16_len(b) => best = Some(p),
            _ => {}
        }
    }
    let best = java_trim(best?);
    (!best.is_empty()).then(|| best.to_owned())
}

/// `DocumentTitleMatchClassifier`: labels TITLE every block whose trimmed text equals the title
/// or one of its longest parts.
pub fn document_title_match_classifier(blocks: &mut [TextBlock], title: Option<&str>) {
    let Some(title) = title.map(java_trim).filter(|t| !t.is_empty()) else {
        return;
    };
    let mut candidates = vec![title.to_owned()];
    for separators in [
        &['|', '»', ':'][..],
        &['|', '»', ':', '(', ')'][..],
        &['|', '»', ':', '(', ')', '-'][..],
        &['|', '»', ',', ':', '(', ')', '-'][..],
    ] {
        candidates.extend(longest_part(title, separators));
    }
    for b in blocks.iter_mut() {
        let t = java_trim(&b.text);
        if candidates.iter().any(|c| c == t) {
            b.add_label(Label::Title);
        }
    }
}

/// The head's `DocumentTitleMatchClassifier`: titles and blocks compared after normalising
/// (NBSP to space, `'` removed, trimmed, lower case), more title parts as candidates, and only the
/// first matching block labelled TITLE.
pub fn document_title_match_classifier_head(blocks: &mut [TextBlock], title: Option<&str>) {
    let Some(title) = title.map(normalise_for_title).filter(|t| !t.is_empty()) else {
        return;
    };
    let candidates = head_title_candidates(&title);
    for b in blocks.iter_mut() {
        let text = normalise_for_title(&b.text);
        let unpunctuated: String = text
            .chars()
            .filter(|c| !matches!(c, '?' | '!' | '.' | '-' | ':'))
            .collect();
        if candidates.contains(&text) || candidates.iter().any(|c| c == java_trim(&unpunctuated)) {
            b.add_label(Label::Title);
            break;
        }
    }
}

/// NBSP to space, `'` removed, Java `trim()`, lower case.
fn normalise_for_title(s: &str) -> String {
    let s = s.replace('\u{a0}', " ").replace('\'', "");
    java_trim(&s).to_lowercase()
}

/// The head's candidate titles of a normalised title.
fn head_title_candidates(title: &str) -> Vec<String> {
    let mut candidates = vec![title.to_owned()];
    for separators in [
        &['|', '»', '-'][..],
        &['|', '»', ':'][..],
        &['|', '»', ':', '(', ')'][..],
        &['|', '»', ':', '(', ')', '-'][..],
        &['|', '»', ',', ':', '(', ')', '-'][..],
        &['|', '»', ',', ':', '(', ')', '-', '\u{a0}'][..],
    ] {
        candidates.extend(longest_part_head(title, separators));
    }
    for separator in ['|', '-'] {
        let parts = split_on_separators(title, &[separator], true);
        if parts.len() > 1 {
            candidates.extend(
                parts
                    .into_iter()
                    .filter(|p| !p.contains(".com") && java_word_count(p) >= 4)
                    .map(str::to_owned),
            );
        }
    }
    // `replaceFirst(" - [^\-]+$", "")` and `replaceFirst("^[^\-]+ - ", "")`.
    candidates.push(match title.rfind(" - ") {
        Some(i) if i + 3 < title.len() && !title[i + 3..].contains('-') => title[..i].to_owned(),
        _ => title.to_owned(),
    });
    let bytes = title.as_bytes();
    candidates.push(match title.find('-') {
        Some(i) if i >= 2 && bytes[i - 1] == b' ' && bytes.get(i + 1) == Some(&b' ') => {
            title[i + 2..].to_owned()
        }
        _ => title.to_owned(),
    });
    candidates
}

/// `p.split("[\b ]+").length` with Java's `\b` in a string literal (a backspace): the number of
/// parts between runs of spaces and backspaces, a leading empty part included, trailing ones not.
fn java_word_count(p: &str) -> usize {
    let is_separator = |c: char| c == ' ' || c == '\u{8}';
    let words = p.split(is_separator).filter(|w| !w.is_empty()).count();
    match (p.is_empty(), words) {
        (true, _) => 1,
        (false, 0) => 0,
        _ => words + usize::from(p.starts_with(is_separator)),
    }
}

/// The head's `getLongestPart`: a part wins with more words or a longer text than the best so far.
fn longest_part_head(title: &str, separators: &[char]) -> Option<String> {
    let parts = split_on_separators(title, separators, false);
    if parts.len() == 1 {
        return None;
    }
    let (mut best, mut best_words) = ("", 0);
    for p in parts {
        if p.contains(".com") {
            continue;
        }
        let words = java_word_count(p);
        if words > best_words || utf16_len(p) > utf16_len(best) {
            (best, best_words) = (p, words);
        }
    }
    (!best.is_empty()).then(|| java_trim(best).to_owned())
}

/// `IgnoreBlocksAfterContentFilter(min_words)`: after an end-of-text marker that follows at least
/// `min_words` words of full text, nothing is content.
pub fn ignore_blocks_after_content(blocks: &mut [TextBlock], min_words: u32) {
    let mut words = 0u32;
    let mut found = false;
    for b in blocks.iter_mut() {
        if b.is_content && f64::from(b.text_density) >= 9.0 {
            words += b.num_words;
        }
        if b.has_label(Label::IndicatesEndOfText) && words >= min_words {
            found = true;
        }
        if found {
            b.is_content = false;
        }
    }
}

/// How `KeepLargestBlockFilter` is configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeepLargest {
    /// The head labels the largest block VERY_LIKELY_CONTENT.
    pub label_very_likely: bool,
    /// With `Some(min_words)`, blocks around the largest one at its tag level (up to the first
    /// shallower block on each side) with at least `min_words` words become content too.
    pub expand_min_words: Option<u32>,
}

impl KeepLargest {
    /// 1.2.0's `INSTANCE`.
    pub const RELEASE_1_2_0: KeepLargest = KeepLargest {
        label_very_likely: false,
        expand_min_words: None,
    };
    /// The head's `INSTANCE_EXPAND_TO_SAME_TAGLEVEL_MIN_WORDS`.
    pub const HEAD_EXPAND_TO_SAME_TAG_LEVEL: KeepLargest = KeepLargest {
        label_very_likely: true,
        expand_min_words: Some(150),
    };
}

/// `KeepLargestBlockFilter`: only the first content block with the most words stays content;
/// every other block is labelled MIGHT_BE_CONTENT.
pub fn keep_largest_block(blocks: &mut [TextBlock], config: KeepLargest) {
    if blocks.len() < 2 {
        return;
    }
    let mut largest: Option<usize> = None;
    let mut max_words: i64 = -1;
    for (i, b) in blocks.iter().enumerate() {
        if b.is_content && i64::from(b.num_words) > max_words {
            max_words = i64::from(b.num_words);
            largest = Some(i);
        }
    }
    for (i, b) in blocks.iter_mut().enumerate() {
        if Some(i) == largest {
            b.is_content = true;
            if config.label_very_likely {
                b.add_label(Label::VeryLikelyContent);
            }
        } else {
            b.is_content = false;
            b.add_label(Label::MightBeContent);
        }
    }
    if let (Some(min_words), Some(n)) = (config.expand_min_words, largest) {
        let level = blocks[n].tag_level;
        let (before, after) = blocks.split_at_mut(n);
        let same_level = |b: &&mut TextBlock| b.tag_level >= level;
        for b in before
            .iter_mut()
            .rev()
            .take_while(same_level)
            .chain(after.iter_mut().take_while(same_level))
        {
            if b.tag_level == level && b.num_words >= min_words {
                b.is_content = true;
            }
        }
    }
}

/// The head's `TrailingHeadlineToBoilerplateFilter`: content headings after the last other
/// content block are not content.
pub fn trailing_headline_to_boilerplate(blocks: &mut [TextBlock]) {
    for b in blocks.iter_mut().rev().filter(|b| b.is_content) {
        if !b.has_label(Label::Heading) {
            break;
        }
        b.is_content = false;
    }
}

/// The head's `LargeBlockSameTagLevelToContentFilter`: blocks of at least 100 words at the tag
/// level of the first very likely content block become content.
pub fn large_block_same_tag_level_to_content(blocks: &mut [TextBlock]) {
    let Some(level) = blocks
        .iter()
        .find(|b| b.is_content && b.has_label(Label::VeryLikelyContent))
        .map(|b| b.tag_level)
        .filter(|l| *l != -1)
    else {
        return;
    };
    for b in blocks.iter_mut().filter(|b| !b.is_content) {
        if b.num_words >= 100 && b.tag_level == level {
            b.is_content = true;
        }
    }
}

/// The head's `ListAtEndFilter`: list items nested below very likely content, link-free and
/// labelled MIGHT_BE_CONTENT, become content.
pub fn list_at_end(blocks: &mut [TextBlock]) {
    let mut level = i32::MAX;
    for b in blocks.iter_mut() {
        if b.is_content && b.has_label(Label::VeryLikelyContent) {
            level = b.tag_level;
        } else if b.tag_level > level
            && b.has_label(Label::MightBeContent)
            && b.has_label(Label::Li)
            && b.link_density == 0.0
        {
            b.is_content = true;
        } else {
            level = i32::MAX;
        }
    }
}

/// `ExpandTitleToContentFilter`: blocks between the title and the first content block that might
/// be content become content.
pub fn expand_title_to_content(blocks: &mut [TextBlock]) {
    let mut title: Option<usize> = None;
    let mut content_start: Option<usize> = None;
    for (i, b) in blocks.iter().enumerate() {
        if content_start.is_none() && b.has_label(Label::Title) {
            title = Some(i);
        }
        if content_start.is_none() && b.is_content {
            content_start = Some(i);
        }
    }
    let (Some(title), Some(start)) = (title, content_start) else {
        return;
    };
    if start <= title {
        return;
    }
    for b in &mut blocks[title..start] {
        if b.has_label(Label::MightBeContent) {
            b.is_content = true;
        }
    }
}

/// `SplitParagraphBlocksFilter`: a block of several lines becomes one featureless block per line.
pub fn split_paragraph_blocks(blocks: &mut Vec<TextBlock>) {
    let mut out = Vec::with_capacity(blocks.len());
    for block in blocks.drain(..) {
        // `[\n\r]+` as Java splits on it: consecutive line breaks are one separator (so only the
        // first part can be empty), trailing empty parts dropped.
        let mut parts: Vec<&str> = block
            .text
            .split(['\n', '\r'])
            .enumerate()
            .filter(|(i, p)| *i == 0 || !p.is_empty())
            .map(|(_, p)| p)
            .collect();
        while parts.len() > 1 && parts.last().is_some_and(|p| p.is_empty()) {
            parts.pop();
        }
        if parts.len() < 2 {
            out.push(block);
            continue;
        }
        for p in parts {
            let mut b = TextBlock::new(p.to_owned(), 0, 0, 0, 0, 0);
            b.is_content = block.is_content;
            b.labels = block.labels.clone();
            out.push(b);
        }
    }
    *blocks = out;
}

/// `MinClauseWordsFilter(min_words, accept_clauses_without_delimiter)`: a content block needs a
/// clause (text ending in a letter or digit followed by `, . : ; ! ?` and a space or the end) of
/// at least `min_words` words.
pub fn min_clause_words(blocks: &mut [TextBlock], min_words: usize, without_delimiter: bool) {
    for b in blocks.iter_mut().filter(|b| b.is_content) {
        let text = b.text.as_str();
        let mut start = 0usize;
        let mut accepted = false;
        for (clause_end, match_end) in clause_delimiters(text) {
            accepted = clause_words(&text[start..clause_end]) >= min_words;
            start = match_end;
            if accepted {
                break;
            }
        }
        if without_delimiter && !accepted {
            accepted = clause_words(&text[start..]) >= min_words;
        }
        if !accepted {
            b.is_content = false;
        }
    }
}

/// `1 + #([ \n\r]+ runs)`.
fn clause_words(clause: &str) -> usize {
    let mut runs = 0;
    let mut in_run = false;
    for c in clause.chars() {
        let space = matches!(c, ' ' | '\n' | '\r');
        if space && !in_run {
            runs += 1;
        }
        in_run = space;
    }
    1 + runs
}

/// The matches of `[\p{L}\d][,.:;!?]+([ \n\r]+|$)`, as (end of the letter, end of the match).
fn clause_delimiters(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        // `[\p{L}\d]`: a letter, or an ASCII digit (Java's `\d`).
        let starts =
            c.is_ascii_digit() || (crate::unicode::LETTER_OR_DIGIT.contains(c) && !c.is_numeric());
        let mut j = i + 1;
        while starts && j < chars.len() && matches!(chars[j].1, ',' | '.' | ':' | ';' | '!' | '?') {
            j += 1;
        }
        if !starts || j == i + 1 {
            i += 1;
            continue;
        }
        let mut k = j;
        while k < chars.len() && matches!(chars[k].1, ' ' | '\n' | '\r') {
            k += 1;
        }
        if k > j || k == chars.len() {
            let end = chars.get(k).map_or(text.len(), |(b, _)| *b);
            out.push((at + c.len_utf8(), end));
            i = k.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests;
