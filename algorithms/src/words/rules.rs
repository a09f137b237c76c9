//! spaCy 3.8.18's tokenizer tables, English's (`tokenizers/spacy_en_3.8.18.json.gz`) and every
//! other rule-based language's (`tokenizers/spacy_3.8.18_languages.json.gz`): the affix, URL and
//! token-match patterns, the special cases and those the phrase pass applies, and for English the
//! sentencizer's characters.

/// Looked up for every run and token: ahash, not the default SipHash.
type HashMap<K, V> = std::collections::HashMap<K, V, ahash::RandomState>;
type HashSet<T> = std::collections::HashSet<T, ahash::RandomState>;
use std::hash::Hash;
use std::io::Read;
use std::sync::{Arc, Mutex, PoisonError};

use fancy_regex::Regex;
use serde_json::Value;

use super::token::Token;

pub(super) const ENGLISH_TABLES: &[u8] =
    include_bytes!("../../../tokenizers/spacy_en_3.8.18.json.gz");

pub(super) struct Rules {
    /// English's tables: the checks of which texts a pattern can match (read off English's
    /// patterns, below) apply; other languages' patterns always run.
    english: bool,
    /// Special case → the byte lengths of its pieces (which concatenate to it).
    special_cases: HashMap<String, Vec<usize>>,
    prefix: Arc<Alternation>,
    suffix: Arc<Alternation>,
    infix: Arc<Regex>,
    url: Arc<Regex>,
    /// French, Hungarian and Turkish: a token kept whole (spaCy's `token_match`).
    token_match: Option<Arc<Regex>>,
    /// Of each pattern above, what can match it: most runs are ruled out here.
    may_have: Prefilters,
    /// The phrase pass's special cases: first token → the token sequences starting with it.
    phrases: HashMap<String, Vec<Vec<String>>>,
    sentence_punct: HashSet<String>,
}

impl Rules {
    /// The rules of one language's tables (`english`: English's, whose texts the pattern checks
    /// below know). `rule_less_tokens` tokenizes a text with the rules given, without their
    /// special cases: the phrase pass's special cases are matched as the tokens it gives them.
    pub(super) fn load(
        tables: &Value,
        english: bool,
        rule_less_tokens: impl Fn(&Rules, &str) -> Vec<String>,
    ) -> Result<Rules, String> {
        let pattern = |key: &str| -> Result<Arc<Regex>, String> {
            let source = tables[key].as_str().ok_or(format!("no {key}"))?;
            compiled_once(&REGEXES, source.to_owned(), || compile(source))
                .map_err(|e| format!("{key}: {e}"))
        };
        let alternation = |key: &str, anchor: Anchor| -> Result<Arc<Alternation>, String> {
            let source = tables[key].as_str().ok_or(format!("no {key}"))?;
            compiled_once(&AFFIXES, (source.to_owned(), anchor), || {
                Alternation::new(source, anchor)
            })
            .map_err(|e| format!("{key}: {e}"))
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
        let token_match = match tables["token_match_pattern"].as_str() {
            Some(_) => Some(pattern("token_match_pattern")?),
            None => None,
        };
        let prefilter = |key: &str| {
            let source = tables[key].as_str().unwrap_or("");
            compiled_once(&PREFILTERS, source.to_owned(), || {
                Ok(Prefilter::new(source))
            })
        };
        let may_have = Prefilters {
            prefix: prefilter("prefix_pattern")?,
            suffix: prefilter("suffix_pattern")?,
            infix: prefilter("infix_pattern")?,
            url: prefilter("url_match_pattern")?,
            token_match: prefilter("token_match_pattern")?,
        };
        let mut rules = Rules {
            english,
            may_have,
            special_cases,
            prefix: alternation("prefix_pattern", Anchor::Start)?,
            suffix: alternation("suffix_pattern", Anchor::End)?,
            infix: pattern("infix_pattern")?,
            url: pattern("url_match_pattern")?,
            token_match,
            phrases: HashMap::default(),
            sentence_punct: strings(&tables["sentencizer_default_punct_chars_in_order"])
                .into_iter()
                .collect(),
        };
        // Each phrase special case is matched as the tokens the rules without special cases
        // give it.
        let mut phrases: HashMap<String, Vec<Vec<String>>> = HashMap::default();
        for key in strings(&tables["special_cases_in_phrase_matcher"]) {
            let sequence = rule_less_tokens(&rules, &key);
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
        if self.english && !may_have_prefix(text) || !self.may_have.prefix.may_match(text) {
            return 0;
        }
        self.prefix_len_by_pattern(text)
    }

    fn prefix_len_by_pattern(&self, text: &str) -> usize {
        self.prefix.first_at_start(text)
    }

    /// The length of the suffix `suffix_search` finds (its alternatives are anchored with `$`).
    pub(super) fn suffix_len(&self, text: &str) -> usize {
        if !self.may_have.suffix.may_match(text) {
            return 0;
        }
        if !self.english {
            return self.suffix.longest_at_end(text, 0);
        }
        if !may_have_suffix(text) {
            return 0;
        }
        // Only where a suffix can start: the engine would otherwise try every position.
        self.suffix.longest_at_end(text, suffix_window_start(text))
    }

    /// Whether spaCy's `token_match` keeps `text` whole (French, Hungarian, Turkish).
    pub(super) fn is_token_match(&self, text: &str) -> bool {
        self.token_match.as_ref().is_some_and(|p| {
            self.may_have.token_match.may_match(text)
                && matches!(p.find(text), Ok(Some(m)) if m.start() == 0)
        })
    }

    /// Whether a run made only of letters, or only of ASCII digits, is one token without trying
    /// the patterns (English's patterns, see [`super::is_inert`]).
    pub(super) fn knows_inert_runs(&self) -> bool {
        self.english
    }

    pub(super) fn is_url(&self, text: &str) -> bool {
        (!self.english || text.contains('.'))
            && self.may_have.url.may_match(text)
            && self.is_url_by_pattern(text)
    }

    fn is_url_by_pattern(&self, text: &str) -> bool {
        matches!(self.url.find(text), Ok(Some(m)) if m.start() == 0)
    }

    /// The (start, end) of each infix match, left to right.
    pub(super) fn infixes(&self, text: &str) -> Vec<(usize, usize)> {
        if self.english && text.chars().all(is_plain) || !self.may_have.infix.may_match(text) {
            return Vec::new();
        }
        self.infixes_by_pattern(text)
    }

    fn infixes_by_pattern(&self, text: &str) -> Vec<(usize, usize)> {
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

/// The tables of a gzipped JSON file.
pub(super) fn read_tables(gzipped: &[u8]) -> Result<Value, String> {
    let mut json = String::new();
    flate2::read::GzDecoder::new(gzipped)
        .read_to_string(&mut json)
        .map_err(|e| e.to_string())?;
    serde_json::from_str(&json).map_err(|e| e.to_string())
}

/// A Python `re` pattern compiled as fancy-regex reads it the same way ([`python_to_rust`]).
/// French's `token_match` is one alternation of 1.4 MB over wide letter classes: the automata may
/// take more than the regex crate's default budget.
fn compile(python: &str) -> Result<Regex, String> {
    fancy_regex::RegexBuilder::new(&python_to_rust(python))
        .delegate_size_limit(256 << 20)
        .delegate_dfa_size_limit(64 << 20)
        .build()
        .map_err(|e| e.to_string())
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

/// The prefilter of each pattern of a language's rules.
struct Prefilters {
    prefix: Arc<Prefilter>,
    suffix: Arc<Prefilter>,
    infix: Arc<Prefilter>,
    url: Arc<Prefilter>,
    token_match: Arc<Prefilter>,
}

/// Compiled patterns by their source. Most of spaCy's languages share its base URL, prefix,
/// suffix or infix patterns, and compiling the patterns was most of the time a language took to
/// load: each is compiled once per process, whichever languages hold it.
type Compiled<K, T> = Mutex<Option<HashMap<K, Arc<T>>>>;

static REGEXES: Compiled<String, Regex> = Mutex::new(None);
static AFFIXES: Compiled<(String, Anchor), Alternation> = Mutex::new(None);
static PREFILTERS: Compiled<String, Prefilter> = Mutex::new(None);

/// `key`'s entry of `cache`, built by `build` when missing (outside the lock: two threads that
/// build the same pattern at once both build it, and the first one kept is shared).
fn compiled_once<K: Eq + Hash, T>(
    cache: &Compiled<K, T>,
    key: K,
    build: impl FnOnce() -> Result<T, String>,
) -> Result<Arc<T>, String> {
    let found = (cache.lock().unwrap_or_else(PoisonError::into_inner))
        .as_ref()
        .and_then(|c| c.get(&key))
        .map(Arc::clone);
    if let Some(found) = found {
        return Ok(found);
    }
    let built = Arc::new(build()?);
    let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
    let entry = cache.get_or_insert_with(HashMap::default).entry(key);
    Ok(Arc::clone(entry.or_insert(built)))
}

/// A pattern of the regex crate that matches wherever a Python pattern can: the pattern with its
/// look-arounds dropped, each of which only narrows where a match may be. A text it does not
/// match anywhere has no match of the pattern, and that is found by an automaton, without the
/// backtracking engine trying each alternative in turn (most runs of a text are plain words
/// that no affix, infix or URL alternative matches). `None` (everything may match) where the
/// pattern holds what the regex crate cannot run, such as a back-reference.
struct Prefilter(Option<regex::Regex>);

impl Prefilter {
    fn new(python: &str) -> Prefilter {
        let relaxed = without_lookarounds_in_regex_syntax(python).and_then(|pattern| {
            regex::RegexBuilder::new(&pattern)
                .size_limit(256 << 20)
                .dfa_size_limit(64 << 20)
                .build()
                .ok()
        });
        Prefilter(relaxed)
    }

    /// False only when the pattern has no match in `text`.
    fn may_match(&self, text: &str) -> bool {
        self.0.as_ref().is_none_or(|relaxed| relaxed.is_match(text))
    }
}

/// A Python pattern with its look-arounds dropped, in the regex crate's syntax; `None` where it
/// holds what the regex crate cannot run, such as a back-reference.
fn without_lookarounds_in_regex_syntax(python: &str) -> Option<String> {
    let tree = fancy_regex::Expr::parse_tree(&python_to_rust(python)).ok()?;
    if !tree.backrefs.is_empty() || tree.contains_subroutines {
        return None;
    }
    let mut pattern = String::new();
    without_lookarounds(&tree.expr)?.to_str(&mut pattern, 0);
    Some(pattern)
}

/// The most bytes a match of a Python pattern consumes (a look-around consumes none); `None` when
/// unbounded or not known.
fn max_match_bytes(python: &str) -> Option<usize> {
    let pattern = without_lookarounds_in_regex_syntax(python)?;
    let hir = regex_syntax::Parser::new().parse(&pattern).ok()?;
    hir.properties().maximum_len()
}

/// `expr` with each look-around replaced by the empty expression; `None` if it holds a node the
/// regex crate has no syntax for.
fn without_lookarounds(expr: &fancy_regex::Expr) -> Option<fancy_regex::Expr> {
    use fancy_regex::{Assertion, Expr};
    let all = |children: &[Expr]| -> Option<Vec<Expr>> {
        children.iter().map(without_lookarounds).collect()
    };
    Some(match expr {
        Expr::Assertion(
            Assertion::StartText
            | Assertion::EndText
            | Assertion::WordBoundary
            | Assertion::NotWordBoundary,
        ) => expr.clone(),
        // Zero-width, as look-arounds: dropping one only lets more texts match.
        Expr::LookAround(..) | Expr::Assertion(_) => Expr::Empty,
        Expr::Empty | Expr::Any { .. } | Expr::Literal { .. } | Expr::Delegate { .. } => {
            expr.clone()
        }
        Expr::Concat(children) => Expr::Concat(all(children)?),
        Expr::Alt(children) => Expr::Alt(all(children)?),
        Expr::Group(child) => Expr::Group(std::sync::Arc::new(without_lookarounds(child)?)),
        Expr::Repeat {
            child,
            lo,
            hi,
            greedy,
        } => match without_lookarounds(child)? {
            // A repeated look-around: nothing left to repeat (a bare quantifier would bind to
            // what precedes it).
            Expr::Empty => Expr::Empty,
            child => Expr::Repeat {
                child: Box::new(child),
                lo: *lo,
                hi: *hi,
                greedy: *greedy,
            },
        },
        _ => return None,
    })
}

/// Where every alternative of an affix pattern is anchored.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Anchor {
    /// `^…`: Python's `search` gives the first alternative, in order, that matches at 0.
    Start,
    /// `…$`: every match ends at the end, so Python's `search` (leftmost start first) gives the
    /// longest, whichever alternative it is.
    End,
}

/// An affix pattern split into runs of consecutive alternatives, those without look-around
/// (which fancy-regex hands whole to the regex crate's automata) apart from those with it (its
/// backtracking engine, which tries every alternative in turn): the same matches, most of them
/// found by an automaton.
struct Alternation {
    parts: Vec<AffixPart>,
    /// Not every alternative is anchored (Indonesian's prefixes hold `<a([^>]+)>`): the whole
    /// pattern, searched as Python searches it, the affix being the leftmost match wherever it is.
    whole: Option<Regex>,
}

/// A run of an affix pattern's alternatives.
struct AffixPart {
    pattern: Regex,
    /// The most bytes a match consumes: a suffix is only looked for that far from the end (the
    /// backtracking engine would otherwise try every position of the text); `None`: unbounded.
    max_bytes: Option<usize>,
}

impl Alternation {
    fn new(python: &str, anchor: Anchor) -> Result<Alternation, String> {
        let mut runs: Vec<(bool, Vec<&str>)> = Vec::new();
        for alternative in top_level_alternatives(python) {
            let anchored = match anchor {
                Anchor::Start => alternative.starts_with('^'),
                Anchor::End => alternative.ends_with('$') && !alternative.ends_with("\\$"),
            };
            if !anchored {
                let whole = compile(python)?;
                return Ok(Alternation {
                    parts: Vec::new(),
                    whole: Some(whole),
                });
            }
            let fancy = alternative.contains("(?=")
                || alternative.contains("(?!")
                || alternative.contains("(?<");
            match runs.last_mut() {
                Some((kind, members)) if *kind == fancy => members.push(alternative),
                _ => runs.push((fancy, vec![alternative])),
            }
        }
        let parts = runs
            .into_iter()
            .map(|(_, members)| {
                let source = members.join("|");
                Ok(AffixPart {
                    pattern: compile(&source)?,
                    max_bytes: max_match_bytes(&source),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Alternation { parts, whole: None })
    }

    /// The end of the first alternative that matches at 0 (0: none).
    fn first_at_start(&self, text: &str) -> usize {
        if let Some(whole) = &self.whole {
            let chars = leftmost_chars(whole, text);
            return text
                .char_indices()
                .nth(chars)
                .map_or(text.len(), |(i, _)| i);
        }
        self.parts
            .iter()
            .find_map(|part| match part.pattern.find(text) {
                Ok(Some(m)) if m.start() == 0 => Some(m.end()),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// The length of the longest match ending at the end that starts at `from` or later.
    fn longest_at_end(&self, text: &str, from: usize) -> usize {
        if let Some(whole) = &self.whole {
            let chars = leftmost_chars(whole, text);
            return text
                .char_indices()
                .rev()
                .take(chars)
                .last()
                .map_or(0, |(i, _)| text.len() - i);
        }
        self.parts
            .iter()
            .filter_map(|part| {
                let start = part
                    .max_bytes
                    .map_or(from, |max| from.max(start_of_last_bytes(text, max)));
                match part.pattern.find_from_pos(text, start) {
                    Ok(Some(m)) => Some(m.end() - m.start()),
                    _ => None,
                }
            })
            .max()
            .unwrap_or(0)
    }
}

/// The length in characters of the leftmost match (spaCy's `find_prefix` and `find_suffix`:
/// `end - start` of the pattern's `search`, which it then takes from the start or the end of the
/// text, wherever the match was), 0 without one.
fn leftmost_chars(pattern: &Regex, text: &str) -> usize {
    match pattern.find(text) {
        Ok(Some(m)) => m.as_str().chars().count(),
        _ => 0,
    }
}

/// The alternatives of a Python pattern's top-level `|`.
fn top_level_alternatives(pattern: &str) -> Vec<&str> {
    let (mut out, mut start, mut depth, mut in_class) = (Vec::new(), 0, 0usize, false);
    let mut chars = pattern.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => {
                in_class = true;
                // A leading '^' and a leading ']' belong to the class.
                if chars.peek().map(|&(_, n)| n) == Some('^') {
                    chars.next();
                }
                if chars.peek().map(|&(_, n)| n) == Some(']') {
                    chars.next();
                }
            }
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => depth = depth.saturating_sub(1),
            '|' if !in_class && depth == 0 => {
                out.push(&pattern[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&pattern[start..]);
    out
}

// Which texts the patterns can match, read off the patterns (the tables' `*_pattern`), so that
// the text of most runs never reaches the backtracking engine. A test compares each check with
// its pattern on generated runs.

/// An ASCII letter or digit, or a letter (L*) beyond ASCII: no alternative of the affix, infix or
/// URL patterns consumes one except as stated below (the symbol class holds So characters only,
/// among them circled letters, which are not L*).
fn is_plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && crate::unicode::LETTER.contains(c))
}

/// Every prefix alternative starts with a character that is not plain, but "US$", "C$", "A$".
fn may_have_prefix(text: &str) -> bool {
    text.chars()
        .next()
        .is_some_and(|c| !is_plain(c) || matches!(c, 'U' | 'C' | 'A'))
}

/// Every suffix alternative ends with a character that is not plain, but the units after a
/// digit ("10km") and "'s", "’s" (either case).
fn may_have_suffix(text: &str) -> bool {
    let mut chars = text.chars().rev();
    match chars.next() {
        None => false,
        Some(last) if !is_plain(last) => true,
        Some(last) => {
            text.bytes().any(|b| b.is_ascii_digit())
                || (matches!(last, 's' | 'S') && matches!(chars.next(), Some('\'' | '’')))
        }
    }
}

/// The char boundary at or before `bytes` bytes from the end of `text` (0 when it is shorter):
/// where a match of at most `bytes` bytes that ends at the end can start, at the earliest.
fn start_of_last_bytes(text: &str, bytes: usize) -> usize {
    let mut start = text.len().saturating_sub(bytes);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    start
}

/// Characters a suffix alternative consumes at most, but `\.\.+$` (the longest are units after
/// a digit such as "اكواب"; look-behind still sees the text before).
const SUFFIX_CHARS: usize = 8;

/// The first byte where a suffix match can start: `SUFFIX_CHARS` characters from the end, or the
/// start of the run of '.' the text ends with.
fn suffix_window_start(text: &str) -> usize {
    let last_chars = text
        .char_indices()
        .rev()
        .take(SUFFIX_CHARS)
        .last()
        .map_or(0, |(i, _)| i);
    last_chars.min(text.trim_end_matches('.').len())
}

#[cfg(test)]
mod tests;
