//! uchardet's single-byte group: one prober per (language, charset) sequence model, scoring how
//! often consecutive letters form the pairs the language favours, and the Hebrew prober that
//! names the two windows-1255 models (logical or visual order).

use super::model::{ProbingState, SequenceModel, SingleByteProberSpec};
use super::tables::SINGLE_BYTE_PROBERS;

/// A byte that cannot occur in the charset: the prober gives up.
const ILLEGAL: u8 = 255;
/// A control character of the charset.
const CONTROL: u8 = 254;
/// Orders from here on (symbols, line breaks, digits) are not letters.
const SYMBOL_ORDER: u8 = 250;
/// Past this many letter pairs a prober may decide alone.
const ENOUGH_PAIRS: u32 = 1024;
const POSITIVE_SHORTCUT: f32 = 0.95;
const NEGATIVE_SHORTCUT: f32 = 0.05;
const NEGATIVE: usize = 0;
const PROBABLE: usize = 2;
const POSITIVE: usize = 3;

/// The counts of one sequence model over the data seen.
struct SequenceProber {
    model: &'static SequenceModel,
    reversed: bool,
    named_by_hebrew: bool,
    state: ProbingState,
    last_order: u8,
    total_pairs: u32,
    pair_counts: [u32; 4],
    total_chars: u32,
    control_chars: u32,
    frequent_chars: u32,
    other_letters: u32,
}

impl SequenceProber {
    fn new(model: &'static SequenceModel, reversed: bool, named_by_hebrew: bool) -> Self {
        SequenceProber {
            model,
            reversed,
            named_by_hebrew,
            state: ProbingState::Detecting,
            last_order: 255,
            total_pairs: 0,
            pair_counts: [0; 4],
            total_chars: 0,
            control_chars: 0,
            frequent_chars: 0,
            other_letters: 0,
        }
    }

    fn feed(&mut self, data: &[u8]) -> ProbingState {
        let frequent = self.model.freq_char_count;
        for &byte in data {
            let order = self.model.char_to_order[usize::from(byte)];
            self.total_chars += 1;
            if order == ILLEGAL {
                self.state = ProbingState::NotMe;
                break;
            }
            if order == CONTROL {
                self.control_chars += 1;
            } else if order < frequent {
                self.frequent_chars += 1;
                if self.last_order < frequent {
                    self.total_pairs += 1;
                    let (first, second) = if self.reversed {
                        (order, self.last_order)
                    } else {
                        (self.last_order, order)
                    };
                    let cell = usize::from(first) * usize::from(frequent) + usize::from(second);
                    self.pair_counts[usize::from(self.model.precedence[cell] - b'0')] += 1;
                } else if self.last_order < SYMBOL_ORDER {
                    self.pair_counts[NEGATIVE] += 1;
                    self.total_pairs += 1;
                }
            } else if order < SYMBOL_ORDER {
                self.other_letters += 1;
                if self.last_order < SYMBOL_ORDER {
                    self.total_pairs += 1;
                    self.pair_counts[NEGATIVE] += 1;
                }
            }
            self.last_order = order;
        }
        if self.state == ProbingState::Detecting && self.total_pairs > ENOUGH_PAIRS {
            let confidence = self.confidence();
            if confidence > POSITIVE_SHORTCUT {
                self.state = ProbingState::FoundIt;
            } else if confidence < NEGATIVE_SHORTCUT {
                self.state = ProbingState::NotMe;
            }
        }
        self.state
    }

    /// uchardet's "positive approach", in single precision as it computes it.
    fn confidence(&self) -> f32 {
        if self.total_pairs == 0 {
            return 0.01;
        }
        let positive = self.pair_counts[POSITIVE] as f32;
        let probable = self.pair_counts[PROBABLE] as f32;
        let negative = self.pair_counts[NEGATIVE] as f32;
        let mut r = (positive + probable / 4.0 - negative * 4.0)
            / self.total_pairs as f32
            / self.model.typical_positive_ratio;
        let letters = self.total_chars - self.other_letters - self.control_chars;
        r = r * letters as f32 / self.total_chars as f32;
        r * self.frequent_chars as f32 / self.total_chars as f32
    }
}

/// The Hebrew prober's final-letter scores: a word ending in a final letter says logical order,
/// one ending in a non-final form (or starting with a final one) says visual order.
struct HebrewNamer {
    logical_score: i32,
    visual_score: i32,
    previous: u8,
    before_previous: u8,
}

const FINAL_LETTERS: [u8; 5] = [0xEA, 0xED, 0xEF, 0xF3, 0xF5];
/// Kaf, mem, nun and pe; the normal tsadi is left out, as uchardet does.
const NON_FINAL_LETTERS: [u8; 4] = [0xEB, 0xEE, 0xF0, 0xF4];
const MIN_FINAL_DISTANCE: i32 = 5;
const MIN_MODEL_DISTANCE: f64 = 0.01;
const LOGICAL_HEBREW: &str = "WINDOWS-1255";
const VISUAL_HEBREW: &str = "ISO-8859-8";

impl HebrewNamer {
    fn new() -> Self {
        HebrewNamer {
            logical_score: 0,
            visual_score: 0,
            previous: b' ',
            before_previous: b' ',
        }
    }

    fn feed(&mut self, data: &[u8]) {
        for &byte in data {
            if byte == b' ' {
                if self.before_previous != b' ' {
                    if FINAL_LETTERS.contains(&self.previous) {
                        self.logical_score += 1;
                    } else if NON_FINAL_LETTERS.contains(&self.previous) {
                        self.visual_score += 1;
                    }
                }
            } else if self.before_previous == b' ' && FINAL_LETTERS.contains(&self.previous) {
                self.visual_score += 1;
            }
            self.before_previous = self.previous;
            self.previous = byte;
        }
    }

    fn name(&self, logical: f32, visual: f32) -> &'static str {
        let final_distance = self.logical_score - self.visual_score;
        if final_distance >= MIN_FINAL_DISTANCE {
            return LOGICAL_HEBREW;
        }
        if final_distance <= -MIN_FINAL_DISTANCE {
            return VISUAL_HEBREW;
        }
        let model_distance = f64::from(logical - visual);
        if model_distance > MIN_MODEL_DISTANCE {
            return LOGICAL_HEBREW;
        }
        if model_distance < -MIN_MODEL_DISTANCE {
            return VISUAL_HEBREW;
        }
        if final_distance < 0 {
            VISUAL_HEBREW
        } else {
            LOGICAL_HEBREW
        }
    }
}

/// A member of the group: the Hebrew prober or a sequence model's prober.
enum Member {
    Hebrew,
    Sequence(SequenceProber),
}

/// The single-byte group prober: every model in uchardet's order, the best confidence wins.
pub(super) struct SingleByteGroup {
    members: Vec<Member>,
    active: Vec<bool>,
    active_count: usize,
    hebrew: HebrewNamer,
    /// The indices of the logical and visual windows-1255 probers the Hebrew prober names.
    hebrew_models: (usize, usize),
    best_guess: Option<usize>,
    state: ProbingState,
    filtered: Vec<u8>,
}

impl SingleByteGroup {
    pub(super) fn new() -> Self {
        let members: Vec<Member> = SINGLE_BYTE_PROBERS
            .iter()
            .map(|spec| match spec {
                SingleByteProberSpec::Hebrew => Member::Hebrew,
                SingleByteProberSpec::Model {
                    model,
                    reversed,
                    named_by_hebrew,
                } => Member::Sequence(SequenceProber::new(model, *reversed, *named_by_hebrew)),
            })
            .collect();
        let named: Vec<usize> = (0..members.len())
            .filter(|&i| matches!(&members[i], Member::Sequence(p) if p.named_by_hebrew))
            .collect();
        let hebrew_models = (
            named.first().copied().unwrap_or(0),
            named.get(1).copied().unwrap_or(0),
        );
        SingleByteGroup {
            active: vec![true; members.len()],
            active_count: members.len(),
            members,
            hebrew: HebrewNamer::new(),
            hebrew_models,
            best_guess: None,
            state: ProbingState::Detecting,
            filtered: Vec::new(),
        }
    }

    pub(super) fn feed(&mut self, data: &[u8]) -> ProbingState {
        let mut filtered = std::mem::take(&mut self.filtered);
        without_english_letters(data, &mut filtered);
        if !filtered.is_empty() {
            self.feed_filtered(&filtered);
        }
        self.filtered = filtered;
        self.state
    }

    fn feed_filtered(&mut self, data: &[u8]) {
        for i in 0..self.members.len() {
            if !self.active[i] {
                continue;
            }
            let state = match &mut self.members[i] {
                Member::Sequence(prober) => prober.feed(data),
                Member::Hebrew => self.hebrew_feed(data),
            };
            if state == ProbingState::FoundIt {
                self.best_guess = Some(i);
                self.state = ProbingState::FoundIt;
                return;
            }
            if state == ProbingState::NotMe {
                self.active[i] = false;
                self.active_count -= 1;
                if self.active_count == 0 {
                    self.state = ProbingState::NotMe;
                    return;
                }
            }
        }
    }

    /// The Hebrew prober goes on until both windows-1255 probers have given up.
    fn hebrew_feed(&mut self, data: &[u8]) -> ProbingState {
        if self.hebrew_done() {
            return ProbingState::NotMe;
        }
        self.hebrew.feed(data);
        ProbingState::Detecting
    }

    fn hebrew_done(&self) -> bool {
        let state = |i: usize| match &self.members[i] {
            Member::Sequence(p) => p.state,
            Member::Hebrew => ProbingState::NotMe,
        };
        state(self.hebrew_models.0) == ProbingState::NotMe
            && state(self.hebrew_models.1) == ProbingState::NotMe
    }

    /// The group's confidence; as uchardet, also picks the best prober while detecting.
    pub(super) fn confidence(&mut self) -> f32 {
        match self.state {
            ProbingState::FoundIt => 0.99,
            ProbingState::NotMe => 0.01,
            ProbingState::Detecting => {
                let mut best = 0.0f32;
                for i in 0..self.members.len() {
                    if !self.active[i] {
                        continue;
                    }
                    let confidence = self.member_confidence(i);
                    if best < confidence {
                        best = confidence;
                        self.best_guess = Some(i);
                    }
                }
                best
            }
        }
    }

    fn member_confidence(&self, i: usize) -> f32 {
        match &self.members[i] {
            Member::Hebrew => 0.0,
            Member::Sequence(prober) => prober.confidence(),
        }
    }

    /// The charset and language of the best prober (the first when none scored).
    pub(super) fn charset_and_language(&mut self) -> (&'static str, &'static str) {
        if self.best_guess.is_none() {
            self.confidence();
        }
        let best = self.best_guess.unwrap_or(0);
        match &self.members[best] {
            Member::Hebrew => (self.hebrew_name(), "he"),
            Member::Sequence(prober) if prober.named_by_hebrew => (self.hebrew_name(), "he"),
            Member::Sequence(prober) => (prober.model.charset, prober.model.language),
        }
    }

    fn hebrew_name(&self) -> &'static str {
        let (logical, visual) = self.hebrew_models;
        self.hebrew.name(
            self.member_confidence(logical),
            self.member_confidence(visual),
        )
    }
}

/// uchardet's filter for scripts without English letters: keeps the runs of bytes between ASCII
/// non-letters that hold a byte above 0x7F, each followed by a space (the last run without one).
fn without_english_letters(data: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut run_start = 0;
    let mut high_byte_seen = false;
    for (i, &byte) in data.iter().enumerate() {
        if byte >= 0x80 {
            high_byte_seen = true;
        } else if !byte.is_ascii_alphabetic() {
            if high_byte_seen && i > run_start {
                out.extend_from_slice(&data[run_start..i]);
                out.push(b' ');
                high_byte_seen = false;
            }
            run_start = i + 1;
        }
    }
    if high_byte_seen && data.len() > run_start {
        out.extend_from_slice(&data[run_start..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_keeps_runs_with_a_high_byte() {
        let mut out = Vec::new();
        without_english_letters(b"abc d\xE9f, ghi \xE0", &mut out);
        assert_eq!(out, b"d\xE9f \xE0");
        without_english_letters(b"plain english.", &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn the_group_lists_the_hebrew_models_it_names() {
        let group = SingleByteGroup::new();
        let (logical, visual) = group.hebrew_models;
        assert_eq!(visual, logical + 1);
        assert!(matches!(&group.members[logical - 1], Member::Hebrew));
    }
}
