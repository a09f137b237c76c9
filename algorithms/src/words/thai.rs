//! Thai words as datatrove 0.10.1's `ThaiTokenizer` gives them: PyThaiNLP 5.4.0's
//! `word_tokenize(text, keep_whitespace=False, engine="newmm-safe")`, then `strip_strings`.
//!
//! newmm is maximal matching over PyThaiNLP's word list (`words_th.txt`, bundled), cut only at
//! Thai Character Cluster boundaries: at each ambiguous point it keeps every dictionary word that
//! ends on a cluster boundary, and once the candidates narrow to one end, takes the first path of
//! a breadth-first search to it. Text no word matches is taken as a non-Thai run (Latin letters,
//! numbers, spaces, a newline, other scripts) or up to the next place a word of three or more
//! characters could start. The safe mode cuts a text of 140 characters or more into chunks
//! first, each segmented alone. Then numbers split at `.`, `,` or `:` are joined back, and
//! spaces stripped. Positions are counted in characters, as Python does.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::sync::LazyLock;

use regex::Regex;

use super::dictionary::{self, Chars, Trie};
use super::is_python_space;

/// PyThaiNLP 5.4.0's `corpus/words_th.txt` (62,107 words, CC0-1.0), gzip-compressed.
const WORD_LIST: &[u8] = include_bytes!("../../../tokenizers/pythainlp_5.4.0_words_th.txt.gz");

/// newmm stops adding a position's words to its graph past this many edges.
const MAX_GRAPH_SIZE: usize = 50;
static WORDS: LazyLock<Trie> = LazyLock::new(|| dictionary::bundled(WORD_LIST, "Thai word list"));

/// Thai Character Clusters (Theeramunkong et al. 2000, with the rules newmm uses), as PyThaiNLP's
/// `tcc_p` writes them: `c` a consonant, `t` an optional tone mark, `d` a lower vowel, `k` an
/// optional final cluster ending in a silencer. The first rule that matches wins.
const CLUSTER_RULES: &str = "เc็ck เcctาะk เccีtยะk เccีtย(?=[เ-ไก-ฮ]|$)k เcc็ck เcิc์ck เcิtck เcีtยะ?k \
     เcืtอะ?k เc[ิีุู]tย(?=[เ-ไก-ฮ]|$)k เctา?ะ?k cัtวะk c[ัื]tc[ุิะ]?k c[ิุู]์ c[ะ-ู]tk cรรc์ c็ \
     ct[ะาำ]?k ck แc็c แcc์ แctะ แcc็c แccc์ โctะ [เ-ไ]ct ก็ อึ หึ";

/// The rules' look-ahead: a consonant or leading vowel follows, or the text ends (Python's `$`:
/// at the end or before a final newline).
const LOOK_AHEAD: &str = "(?=[เ-ไก-ฮ]|$)k";

/// The rules as one pattern of the regex crate, which picks the first alternative that matches
/// as Python's `re` does. The regex crate has no look-ahead: in a rule `P(?=L|$)k`, `k` can only
/// match starting with a consonant (so where the look-ahead holds), and is preferred, so the rule
/// is `P(?:k|(?<laN>L|\n?\z))` with its match ending where a `laN` group starts, if one took part.
struct Clusters {
    pattern: Regex,
    look_aheads: Vec<usize>,
}

static CLUSTERS: LazyLock<Clusters> = LazyLock::new(|| {
    let mut look_aheads = 0;
    let rules: Vec<String> = CLUSTER_RULES
        .split_whitespace()
        .map(|rule| {
            let rule = match rule.strip_suffix(LOOK_AHEAD) {
                Some(head) => {
                    look_aheads += 1;
                    format!("{head}(?:K|(?<la{look_aheads}>[เ-ไก-ฮ]|\\n?\\z))")
                }
                None => rule.to_owned(),
            };
            rule.replace('k', "(?:K)?")
                .replace('K', "cc?[dิ]?[์]")
                .replace('c', "[ก-ฮ]")
                .replace('t', "[่-๋]?")
                .replace('d', "ูุ")
        })
        .collect();
    let pattern = Regex::new(&format!(r"\A(?:{})", rules.join("|")))
        .unwrap_or_else(|e| panic!("the Thai cluster rules: {e}"));
    let look_aheads = (1..=look_aheads)
        .filter_map(|i| {
            pattern
                .capture_names()
                .position(|n| n == Some(&format!("la{i}")))
        })
        .collect();
    Clusters {
        pattern,
        look_aheads,
    }
});

/// newmm's `_PAT_NONTHAI`: Latin letters, numbers, spaces, a newline, or a run of other
/// non-Thai characters.
static NON_THAI: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\A(?:[-a-zA-Z]+|\d+(?:[,.]\d+)*|[ \t]+|\r?\n|[^\x{0E00}-\x{0E7F} \t\r\n]+)")
        .expect("a valid pattern")
});

/// `rejoin_formatted_num`'s numbers.
static FORMATTED_NUMBER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:\d+[.,:])+\d+").expect("a valid pattern"));

/// `tcc_pos_array`: the cluster boundaries, `true` at each position a cluster ends (and at 0,
/// never read).
fn cluster_ends(text: &Chars) -> Vec<bool> {
    let clusters = &*CLUSTERS;
    let mut found = clusters.pattern.capture_locations();
    let mut ends = vec![false; text.len() + 1];
    let mut at = 0;
    while at < text.len() {
        let rest = text.rest(at);
        let length = match clusters.pattern.captures_read(&mut found, rest) {
            Some(m) if !m.is_empty() => {
                let end = (clusters.look_aheads.iter())
                    .find_map(|&group| found.get(group))
                    .map_or(m.end(), |(start, _)| start);
                rest[..end].chars().count()
            }
            _ => 1,
        };
        at += length.max(1);
        ends[at] = true;
    }
    ends
}

/// `_onecut`: the words of one text (a chunk), in order, covering it.
fn one_cut<'a>(text: &'a str, words: &mut Vec<&'a str>) {
    let text = Chars::new(text);
    let dictionary = &*WORDS;
    let ends = cluster_ends(&text);
    let mut graph: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut graph_size = 0;
    let mut candidates = BinaryHeap::from([Reverse(0usize)]);
    let mut lengths = Vec::new();
    let mut end = 0;
    while let Some(&Reverse(begin)) = candidates.peek()
        && begin < text.len()
    {
        candidates.pop();
        dictionary.prefix_lengths(&text.chars, begin, &mut lengths);
        for &length in &lengths {
            let candidate = begin + length;
            if ends[candidate] {
                graph.entry(begin).or_default().push(candidate);
                graph_size += 1;
                if !candidates.iter().any(|&Reverse(c)| c == candidate) {
                    candidates.push(Reverse(candidate));
                }
                if graph_size > MAX_GRAPH_SIZE {
                    break;
                }
            }
        }
        match candidates.len() {
            1 => {
                let Reverse(goal) = *candidates.peek().unwrap_or(&Reverse(text.len()));
                let path = first_path(&graph, end, goal);
                graph_size = 0;
                graph.clear();
                for position in path {
                    words.push(text.slice(end, position));
                    end = position;
                }
            }
            0 => {
                end = skip_end(&text, begin, &ends, &mut lengths);
                graph_size = 0;
                graph.clear();
                words.push(text.slice(begin, end));
                candidates.push(Reverse(end));
            }
            _ => {}
        }
    }
}

/// The positions after `start` of the first path breadth-first search finds from `start` to
/// `goal` (`_bfs_paths_graph`: a vertex is queued once; `goal` is found through the first queued
/// vertex with an edge to it). Every candidate is reached by an edge of the graph, so a path
/// exists; if none did, the span is one word.
fn first_path(graph: &HashMap<usize, Vec<usize>>, start: usize, goal: usize) -> Vec<usize> {
    let mut parent: HashMap<usize, usize> = HashMap::from([(start, start)]);
    let mut queue = VecDeque::from([start]);
    while let Some(vertex) = queue.pop_front() {
        for &next in graph.get(&vertex).into_iter().flatten() {
            if next == goal {
                let mut path = vec![goal];
                let mut at = vertex;
                while at != start {
                    path.push(at);
                    at = parent[&at];
                }
                path.reverse();
                return path;
            }
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry(next) {
                e.insert(vertex);
                queue.push_back(next);
            }
        }
    }
    vec![goal]
}

/// `_find_skip_end`: where a run no dictionary word covers ends.
fn skip_end(text: &Chars, begin: usize, ends: &[bool], lengths: &mut Vec<usize>) -> usize {
    if let Some(length) = text.match_at(&NON_THAI, begin) {
        return begin + length;
    }
    for at in begin + 1..text.len() {
        if !ends[at] {
            continue;
        }
        WORDS.prefix_lengths(&text.chars, at, lengths);
        let starts_a_word = lengths
            .iter()
            .any(|&length| ends[at + length] && !is_two_consonants(&text.chars[at..at + length]));
        if starts_a_word || text.match_at(&NON_THAI, at).is_some() {
            return at;
        }
    }
    text.len()
}

/// `_PAT_THAI_TWOCHARS`: at most two consonants.
fn is_two_consonants(word: &[char]) -> bool {
    word.len() <= 2 && word.iter().all(|c| ('ก'..='ฮ').contains(c))
}

/// newmm's safe mode: the text in chunks, cut after the window's last space or else where the
/// window's longest word (the last of equals) starts.
fn chunks(text: &str) -> Vec<&str> {
    dictionary::safe_chunks(text, |window| {
        let mut window_words = Vec::new();
        one_cut(window, &mut window_words);
        let lengths: Vec<usize> = window_words.iter().map(|w| w.chars().count()).collect();
        lengths[..last_longest(&lengths)].iter().sum()
    })
}

/// The index of the last of the longest lengths (0 when there are none).
fn last_longest(lengths: &[usize]) -> usize {
    let mut best = 0;
    let mut best_length = 0;
    for (i, &length) in lengths.iter().enumerate() {
        if length >= best_length {
            best = i;
            best_length = length;
        }
    }
    best
}

/// `rejoin_formatted_num`: the words over each formatted number of the text joined into one (a
/// number that starts inside a word joins the words after that one up to its end).
fn rejoin_formatted_numbers<'a>(text: &'a str, words: Vec<&'a str>) -> Vec<&'a str> {
    let mut numbers = FORMATTED_NUMBER.find_iter(text);
    let mut number = numbers.next();
    let mut out = Vec::with_capacity(words.len());
    let mut position = 0;
    let mut i = 0;
    while i < words.len()
        && let Some(current) = number
    {
        if position >= current.start() {
            let start = position;
            while position < current.end() && i < words.len() {
                position += words[i].len();
                i += 1;
            }
            if position > start {
                out.push(&text[start..position]);
            }
            number = numbers.next();
        } else {
            out.push(words[i]);
            position += words[i].len();
            i += 1;
        }
    }
    out.extend_from_slice(&words[i..]);
    out
}

/// The words of `text` as datatrove's Thai tokenizer gives them (slices of it).
pub(super) fn words(text: &str) -> Vec<&str> {
    let mut segments = Vec::with_capacity(text.len() / 6);
    for chunk in chunks(text) {
        one_cut(chunk, &mut segments);
    }
    rejoin_formatted_numbers(text, segments)
        .into_iter()
        // PyThaiNLP strips " " from each word, then datatrove's `strip_strings` all whitespace.
        .map(|w| w.trim_matches(is_python_space))
        .filter(|w| !w.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PyThaiNLP 5.4.0's own results (`word_tokenize(text, keep_whitespace=False,
    /// engine="newmm-safe")`).
    #[test]
    fn cuts_as_pythainlp_does() {
        assert_eq!(
            words("ผมรักคุณมาก 12:00 น. ราคา 1,000 บาท"),
            [
                "ผม",
                "รัก",
                "คุณ",
                "มาก",
                "12:00",
                "น.",
                "ราคา",
                "1,000",
                "บาท"
            ]
        );
        // Runs of other scripts and symbols stay whole up to a space or Thai; Thai digits are
        // digits; a cluster's look-ahead sees the text's end.
        assert_eq!(
            words("(abc) ภาษาไทย™ 中文 ๑๒,๓๔๕ IP 127.0.0.1 ครับ").join(" "),
            "(abc) ภาษาไทย ™ 中文 ๑๒,๓๔๕ IP 127.0.0.1 ครับ"
        );
        assert_eq!(words("เกียรติ\nเกียย"), ["เกียรติ", "เกีย", "ย"]);
    }

    /// A text of 140 characters or more without a space is cut where the scan window's longest
    /// word starts: here "ภูมิภาค" falls across a cut and is two words, where the whole text in one
    /// piece (PyThaiNLP's plain `newmm`) keeps it.
    #[test]
    fn the_safe_mode_cuts_long_texts_as_pythainlp_does() {
        let text = "ใต้ร่วมมือมั่นคงครั้งเอเชียทางการการที่ประชุมในตะวันออกกลมกล่อมมหานครประชุมการเอเชียตากลม\
                    กลมกล่อมสุดยอดกรุงเทพกลมในประชุมกรุงเทพภูมิภาคภูมิภาคขึ้นเฉียงเอเชียที่กรุงเทพครั้งใต้นี้ทาง\
                    สุดยอดภูมิภาคร่วมมือในภูมิภาคเศรษฐกิจร่วมมือเฉียงความจัดร่วมมือที่ครั้งการที่การผู้นำเศรษฐกิจ\
                    ทางความเศรษฐกิจร่วมมือมาจัด";
        let expected = "ใต้ ร่วมมือ มั่นคง ครั้ง เอเชีย ทางการ การ ที่ประชุม ใน ตะวันออก กลมกล่อม มหานคร ประชุม \
                        การ เอเชีย ตากลม กลมกล่อม สุดยอด กรุงเทพ กลม ใน ประชุม กรุงเทพ ภูมิ ภาค ภูมิภาค ขึ้น เฉียง \
                        เอเชีย ที่ กรุงเทพ ครั้ง ใต้ นี้ ทาง สุดยอด ภูมิภาค ร่วมมือ ใน ภูมิภาค เศรษฐกิจ ร่วมมือ เฉียง \
                        ความ จัด ร่วมมือ ที่ ครั้ง การ ที่ การ ผู้นำ เศรษฐกิจ ทาง ความ เศรษฐกิจ ร่วมมือ มา จัด";
        assert_eq!(words(text).join(" "), expected);
    }

    #[test]
    fn the_word_list_is_pythainlps() {
        let mut lengths = Vec::new();
        let chars: Vec<char> = "กติกา".chars().collect();
        WORDS.prefix_lengths(&chars, 0, &mut lengths);
        assert!(lengths.contains(&5), "{lengths:?}");
    }
}
