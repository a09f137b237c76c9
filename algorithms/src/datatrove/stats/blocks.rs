//! The per-document measures of datatrove's statistics blocks (`datatrove/pipeline/stats/`):
//! `DocStats`, `LineStats`, `ParagraphStats`, `WordStats`, `SentenceStats`,
//! `WordsContaminationStats`, `TokenStats` and `LangStats`, each a list of named values in the order datatrove's
//! `extract_stats` builds its dict.

use std::collections::HashSet;

use super::values::{Stat, StatsParams, safe_divide};
use crate::datatrove::filters::{find_duplicates, is_simplify_punctuation, python_lines};
use crate::minhash::simplify_text;
use crate::unicode::{LETTER, is_python_digit, is_python_title, is_python_upper};
use crate::words::{
    WordTokenizer, is_python_space, sentences, sentences_of_tokens, tokens, words, words_in,
    words_of_tokens,
};

/// A block's values, by stat name.
pub type Stats = Vec<(String, Stat)>;

/// A statistics block of datatrove's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    Doc,
    Line,
    Paragraph,
    Word,
    Sentence,
    Contamination,
    Token,
    Lang,
}

impl Block {
    pub const ALL: [Block; 8] = [
        Block::Doc,
        Block::Line,
        Block::Paragraph,
        Block::Word,
        Block::Sentence,
        Block::Contamination,
        Block::Token,
        Block::Lang,
    ];

    /// The blocks measured when none are named: those that need no parameter.
    pub const DEFAULT: [Block; 5] = [
        Block::Doc,
        Block::Line,
        Block::Paragraph,
        Block::Word,
        Block::Sentence,
    ];

    /// The name it is given in options and commands (`doc`, `line`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Block::Doc => "doc",
            Block::Line => "line",
            Block::Paragraph => "paragraph",
            Block::Word => "word",
            Block::Sentence => "sentence",
            Block::Contamination => "contamination",
            Block::Token => "token",
            Block::Lang => "lang",
        }
    }

    pub fn from_name(name: &str) -> Option<Block> {
        Block::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Whether `params` give every one of `blocks` what it needs: the contamination block its
    /// words (datatrove's `WordsContaminationStats` refuses an empty list), the token block its
    /// loaded tokenizer.
    pub fn check(blocks: &[Block], params: &StatsParams) -> Result<(), String> {
        if blocks.contains(&Block::Contamination) && params.contamination_words.is_empty() {
            return Err(
                "the contamination block needs its words: 'contamination_words=word|word'".into(),
            );
        }
        if blocks.contains(&Block::Token) && !has_token_counter(params) {
            return Err(format!(
                "the token block needs its tokenizer, '{}' is not loaded{}",
                params.tokenizer_name_or_path,
                if cfg!(feature = "tokens") {
                    ""
                } else {
                    " (a build without the feature tokens)"
                }
            ));
        }
        if blocks.contains(&Block::Lang) {
            if params.language.is_empty() {
                return Err("the lang block needs its language: 'language=en'".into());
            }
            if !has_language_model(params) {
                return Err(format!(
                    "the lang block needs its model, '{}' is not loaded{}",
                    params.lid_model,
                    if cfg!(feature = "langid") {
                        ""
                    } else {
                        " (a build without the feature langid)"
                    }
                ));
            }
        }
        Ok(())
    }

    /// The block's measures of `text`.
    pub fn stats(self, text: &str, params: &StatsParams) -> Stats {
        match self {
            Block::Doc => doc_stats(text),
            Block::Line => line_stats(text, params),
            Block::Paragraph => paragraph_stats(text, params),
            Block::Word => word_stats(text, params),
            Block::Sentence => sentence_stats(text, params),
            Block::Contamination => contamination_stats(text, params),
            Block::Token => token_stats(text, params),
            Block::Lang => lang_stats(text, params),
        }
    }
}

#[cfg(feature = "langid")]
fn has_language_model(params: &StatsParams) -> bool {
    params.language_model.is_some()
}

#[cfg(not(feature = "langid"))]
fn has_language_model(_: &StatsParams) -> bool {
    false
}

/// `LangStats`: `fasttext_{language}`, the model's probability of the language's label for the
/// text with its line breaks made spaces, over every label (`predict(k=-1)`), 0.0 where the
/// model gives the label none; fastText's 32-bit float, as numpy's `item()` widens it.
/// datatrove takes a document's `language_score` metadata instead when its `language` metadata
/// is that language; a text has none. Nothing when the model fails on the text.
#[cfg(feature = "langid")]
fn lang_stats(text: &str, params: &StatsParams) -> Stats {
    let Some(model) = params.language_model.as_ref() else {
        return Stats::new();
    };
    let Ok(predictions) = model.predict(text, None) else {
        return Stats::new();
    };
    let score = predictions
        .iter()
        .find(|p| p.language == params.language)
        .map_or(0.0, |p| f64::from(p.score));
    vec![(format!("fasttext_{}", params.language), Stat::Float(score))]
}

#[cfg(not(feature = "langid"))]
fn lang_stats(_: &str, _: &StatsParams) -> Stats {
    Stats::new()
}

#[cfg(feature = "tokens")]
fn has_token_counter(params: &StatsParams) -> bool {
    params.token_counter.is_some()
}

#[cfg(not(feature = "tokens"))]
fn has_token_counter(_: &StatsParams) -> bool {
    false
}

/// `TokenStats`: the number of tokens of the text's encoding (`len(encode(text).tokens)`, the
/// post-processor's special tokens included). datatrove takes a document's `token_count`
/// metadata instead when a step before set it; a text has none. Nothing when the tokenizer
/// fails on the text.
#[cfg(feature = "tokens")]
fn token_stats(text: &str, params: &StatsParams) -> Stats {
    let count = params
        .token_counter
        .as_ref()
        .and_then(|counter| counter.count(text, true).ok());
    count
        .map(|count| vec![("token_count".into(), Stat::Int(count as i64))])
        .unwrap_or_default()
}

#[cfg(not(feature = "tokens"))]
fn token_stats(_: &str, _: &StatsParams) -> Stats {
    Stats::new()
}

/// Every block's measures of `text`, the blocks' in order: spaCy's English tokens, which the
/// word (in English) and sentence blocks both cut the text into, made once.
pub fn measure(text: &str, blocks: &[Block], params: &StatsParams) -> Stats {
    let english_words = matches!(params.tokenizer, WordTokenizer::English);
    let shares_tokens =
        |block: &Block| *block == Block::Sentence || (*block == Block::Word && english_words);
    let tokens = blocks.iter().any(shares_tokens).then(|| tokens(text));
    let mut stats = Stats::new();
    for block in blocks {
        match (block, &tokens) {
            (Block::Word, Some(tokens)) if english_words => {
                stats.extend(word_stats_of(text, &words_of_tokens(tokens), params));
            }
            (Block::Sentence, Some(tokens)) => {
                stats.extend(sentence_stats_of(
                    &sentences_of_tokens(text, tokens),
                    params,
                ));
            }
            _ => stats.extend(block.stats(text, params)),
        }
    }
    stats
}

/// Python's `len()`: code points.
fn len(text: &str) -> usize {
    text.chars().count()
}

/// `DocStats`: length and the shares of whitespace, non-alphanumeric characters, digits,
/// upper-case letters, ellipses and punctuation among the characters.
pub fn doc_stats(text: &str) -> Stats {
    let (mut length, mut space, mut non_alnum, mut digit, mut upper, mut punctuation) =
        (0, 0, 0, 0, 0, 0);
    for c in text.chars() {
        length += 1;
        space += usize::from(is_python_space(c));
        let is_digit = is_python_digit(c);
        non_alnum += usize::from(!LETTER.contains(c) && !is_digit);
        digit += usize::from(is_digit);
        upper += usize::from(is_python_upper(c.encode_utf8(&mut [0; 4])));
        punctuation += usize::from(is_simplify_punctuation(c));
    }
    // The ellipsis pattern `(?:\.\.\.)|(?:…)`: non-overlapping "..." (3 characters each) and "…".
    let ellipsis = 3 * text.matches("...").count() + text.matches('…').count();
    vec![
        ("length".into(), Stat::Int(length as i64)),
        ("white_space_ratio".into(), safe_divide(space, length)),
        (
            "non_alpha_digit_ratio".into(),
            safe_divide(non_alnum, length),
        ),
        ("digit_ratio".into(), safe_divide(digit, length)),
        ("uppercase_ratio".into(), safe_divide(upper, length)),
        ("elipsis_ratio".into(), safe_divide(ellipsis, length)),
        ("punctuation_ratio".into(), safe_divide(punctuation, length)),
    ]
}

/// The share of `items` whose length passes `test`.
fn share(items: &[&str], test: impl Fn(usize) -> bool) -> Stat {
    safe_divide(items.iter().filter(|i| test(len(i))).count(), items.len())
}

/// `short_..._{t}` (length at most t) and `long_..._{t}` (at least t) for each threshold.
fn length_shares(items: &[&str], short: (&str, &[usize]), long: (&str, &[usize])) -> Stats {
    let shorts = short.1.iter().map(|&t| {
        let name = format!("{}{t}", short.0);
        (name, share(items, |l| l <= t))
    });
    let longs = long.1.iter().map(|&t| {
        let name = format!("{}{t}", long.0);
        (name, share(items, |l| l >= t))
    });
    shorts.chain(longs).collect()
}

/// `LineStats`: the text's lines (split at "\n"): their number (empty ones counted), mean length,
/// the shares of short and long ones, of those ending in C4's terminal punctuation, of bullet
/// lines, and of repeated lines and their characters.
pub fn line_stats(text: &str, params: &StatsParams) -> Stats {
    let all: Vec<&str> = text.split('\n').collect();
    let n_lines = all.len();
    let lines: Vec<&str> = if params.ignore_empty_lines {
        all.into_iter()
            .filter(|l| !l.trim_matches(is_python_space).is_empty())
            .collect()
    } else {
        all
    };
    let (dups, dup_chars) = find_duplicates(&lines);
    let chars: usize = lines.iter().map(|l| len(l)).sum();
    let mut stats = vec![
        ("n_lines".into(), Stat::Int(n_lines as i64)),
        ("avg_line_length".into(), safe_divide(chars, lines.len())),
    ];
    stats.extend(length_shares(
        &lines,
        ("short_line_ratio_chars_", &params.short_line_chars),
        ("long_line_ratio_chars_", &params.long_line_chars),
    ));
    let terminal = lines
        .iter()
        .filter(|l| l.ends_with(['.', '?', '!', '"', '\'']))
        .count();
    let bullets = lines
        .iter()
        .filter(|l| {
            let stripped = l.trim_matches(is_python_space);
            stripped.starts_with(['-', '*', '•'])
        })
        .count();
    stats.extend([
        (
            "lines_ending_with_terminal_mark_ratio".into(),
            safe_divide(terminal, lines.len()),
        ),
        (
            "bullet_point_lines_ratio".into(),
            safe_divide(bullets, lines.len()),
        ),
        ("line_duplicates".into(), safe_divide(dups, lines.len())),
        ("line_char_duplicates".into(), safe_divide(dup_chars, chars)),
    ]);
    stats
}

/// `ParagraphStats`: the non-blank pieces between "\n\n": their number, mean length, short and
/// long shares, repeated paragraphs and their characters.
pub fn paragraph_stats(text: &str, params: &StatsParams) -> Stats {
    let paragraphs: Vec<&str> = text
        .split("\n\n")
        .filter(|p| !p.trim_matches(is_python_space).is_empty())
        .collect();
    let n = paragraphs.len();
    let (dups, dup_chars) = find_duplicates(&paragraphs);
    let chars: usize = paragraphs.iter().map(|p| len(p)).sum();
    let mut stats = vec![
        ("n_paragraphs".into(), Stat::Int(n as i64)),
        ("avg_paragraph_length".into(), safe_divide(chars, n)),
    ];
    stats.extend(length_shares(
        &paragraphs,
        ("short_paragraph_ratio_", &params.short_paragraph_chars),
        ("long_paragraph_ratio_", &params.long_paragraph_chars),
    ));
    stats.extend([
        ("paragraph_duplicates".into(), safe_divide(dups, n)),
        (
            "paragraph_char_duplicates".into(),
            safe_divide(dup_chars, chars),
        ),
    ]);
    stats
}

/// `WordStats`: the words of the language's tokenizer: their number, mean length, words per
/// line (`splitlines`), short and long shares, distinct words, upper-case, capitalised and stop
/// words.
pub fn word_stats(text: &str, params: &StatsParams) -> Stats {
    let owned = words_in(params.tokenizer, text);
    let words: Vec<&str> = owned.iter().map(|w| w.as_ref()).collect();
    word_stats_of(text, &words, params)
}

/// [`word_stats`] of the text's words.
fn word_stats_of(text: &str, words: &[&str], params: &StatsParams) -> Stats {
    let n = words.len();
    let chars: usize = words.iter().map(|w| len(w)).sum();
    let mut stats = vec![
        ("n_words".into(), Stat::Int(n as i64)),
        ("avg_word_length".into(), safe_divide(chars, n)),
        (
            "avg_words_per_line".into(),
            safe_divide(n, python_lines(text).len()),
        ),
    ];
    // datatrove's order: the short ratios, then the long ones, each after the other.
    stats.extend(length_shares(
        words,
        ("short_word_ratio_", &params.short_word_chars),
        ("long_word_ratio_", &params.long_word_chars),
    ));
    let distinct: HashSet<&str> = words.iter().copied().collect();
    let count = |test: &dyn Fn(&str) -> bool| words.iter().filter(|w| test(w)).count();
    stats.extend([
        ("type_token_ratio".into(), safe_divide(distinct.len(), n)),
        (
            "uppercase_word_ratio".into(),
            safe_divide(count(&is_python_upper), n),
        ),
        (
            "capitalized_word_ratio".into(),
            safe_divide(count(&is_python_title), n),
        ),
        (
            "stop_word_ratio".into(),
            safe_divide(count(&|w| params.stop_words.iter().any(|s| s == w)), n),
        ),
    ]);
    stats
}

/// `SentenceStats` (English): spaCy's sentences, their number, mean length, short and long
/// shares.
pub fn sentence_stats(text: &str, params: &StatsParams) -> Stats {
    sentence_stats_of(&sentences(text), params)
}

/// [`sentence_stats`] of the text's sentences.
fn sentence_stats_of(sentences: &[&str], params: &StatsParams) -> Stats {
    let n = sentences.len();
    let chars: usize = sentences.iter().map(|s| len(s)).sum();
    let mut stats = vec![
        ("n_sentences".into(), Stat::Int(n as i64)),
        ("avg_sentence_length".into(), safe_divide(chars, n)),
    ];
    stats.extend(length_shares(
        sentences,
        ("short_sentence_ratio_", &params.short_sentence_chars),
        ("long_sentence_ratio_", &params.long_sentence_chars),
    ));
    stats
}

/// `WordsContaminationStats`: the share of the simplified text's English words that are one of
/// the contamination words, named after the first.
pub fn contamination_stats(text: &str, params: &StatsParams) -> Stats {
    let simplified = simplify_text(text);
    let words = words(&simplified);
    let listed = &params.contamination_words;
    let hits = words
        .iter()
        .filter(|w| listed.iter().any(|l| l == *w))
        .count();
    let first = listed.first().map_or("", String::as_str);
    vec![(
        format!("words_contamination_{first}"),
        safe_divide(hits, words.len()),
    )]
}
