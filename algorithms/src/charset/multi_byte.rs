//! uchardet's multi-byte group as faust-cchardet builds it: a coding state machine per charset
//! (UTF-8, Shift_JIS, EUC-JP, GB18030, EUC-KR, Big5, EUC-TW, Johab), the CJK probers' character
//! distribution and Japanese context analyses, and cchardet's own group logic, which keeps the
//! charset probers' confidences without uchardet's generic language pass and tracks UTF-8
//! validity itself.

use super::model::{ProbingState, StateMachineModel};
use super::tables::{
    EUCJP, EUCKR, EUCKR_FREQUENT, EUCKR_TABLE_SIZE, EUCKR_TYPICAL_DISTRIBUTION_RATIO, EUCTW,
    EUCTW_FREQUENT, EUCTW_TABLE_SIZE, EUCTW_TYPICAL_DISTRIBUTION_RATIO, GB2312_FREQUENT,
    GB2312_TABLE_SIZE, GB2312_TYPICAL_DISTRIBUTION_RATIO, GB18030, JIS_FREQUENT, JIS_TABLE_SIZE,
    JIS_TYPICAL_DISTRIBUTION_RATIO, JOHAB, JOHAB_CHO, JOHAB_JONG, JOHAB_JUNG, JOHAB_TO_EUCKR_ORDER,
    JP2_CHAR_CONTEXT, SJIS, UTF8,
};

pub(super) const START: u8 = 0;
pub(super) const ITS_ME: u8 = 2;

/// A state machine running over bytes. Its error state is a sink: uchardet's probers do not
/// give up on an error, they stop counting characters.
pub(super) struct CodingStateMachine {
    model: &'static StateMachineModel,
    state: u8,
    char_len: u8,
}

impl CodingStateMachine {
    pub(super) fn new(model: &'static StateMachineModel) -> Self {
        CodingStateMachine {
            model,
            state: START,
            char_len: 0,
        }
    }

    pub(super) fn next(&mut self, byte: u8) -> u8 {
        let class = self.model.classes[usize::from(byte)];
        if self.state == START {
            self.char_len = self.model.char_len[usize::from(class)];
        }
        let cell =
            usize::from(self.state) * usize::from(self.model.class_count) + usize::from(class);
        self.state = self.model.states[cell];
        self.state
    }

    pub(super) fn model(&self) -> &'static StateMachineModel {
        self.model
    }
}

const SHORTCUT_THRESHOLD: f32 = 0.95;

/// UTF-8: the more multi-byte characters, the surer.
struct Utf8Prober {
    machine: CodingStateMachine,
    state: ProbingState,
    multi_byte_chars: u32,
}

impl Utf8Prober {
    fn feed(&mut self, data: &[u8]) -> ProbingState {
        for &byte in data {
            let state = self.machine.next(byte);
            if state == ITS_ME {
                self.state = ProbingState::FoundIt;
                break;
            }
            if state == START && self.machine.char_len >= 2 {
                self.multi_byte_chars += 1;
            }
        }
        if self.state == ProbingState::Detecting
            && self.multi_byte_chars > 256
            && self.confidence() > SHORTCUT_THRESHOLD
        {
            self.state = ProbingState::FoundIt;
        }
        self.state
    }

    fn confidence(&self) -> f32 {
        if self.multi_byte_chars >= 6 {
            return 0.99;
        }
        let mut unlike = 0.5f32;
        for _ in 0..self.multi_byte_chars {
            unlike *= 0.5;
        }
        1.0 - unlike
    }
}

/// How a CJK charset's double-byte characters map to orders of its frequency table.
#[derive(Clone, Copy)]
enum Distribution {
    ShiftJis,
    EucJp,
    Gb2312,
    EucKr,
    EucTw,
    Johab,
}

impl Distribution {
    fn order(self, lead: u8, trail: u8) -> i32 {
        let (lead, trail) = (i32::from(lead), i32::from(trail));
        match self {
            Distribution::ShiftJis => {
                let base = match lead {
                    0x81..=0x9F => 188 * (lead - 0x81),
                    0xE0..=0xEF => 188 * (lead - 0xE0 + 31),
                    _ => return -1,
                };
                base + trail - 0x40 - i32::from(trail > 0x7F)
            }
            Distribution::EucJp if lead >= 0xA0 => 94 * (lead - 0xA1) + trail - 0xA1,
            Distribution::Gb2312 if lead >= 0xB0 && trail >= 0xA1 => {
                94 * (lead - 0xB0) + trail - 0xA1
            }
            Distribution::EucKr if lead >= 0xB0 => 94 * (lead - 0xB0) + trail - 0xA1,
            Distribution::EucTw if lead >= 0xC4 => 94 * (lead - 0xC4) + trail - 0xA1,
            Distribution::Johab if (0x88..=0xD3).contains(&lead) => johab_to_euckr(lead, trail),
            _ => -1,
        }
    }

    fn table(self) -> (&'static [u64], u32, f32) {
        match self {
            Distribution::ShiftJis | Distribution::EucJp => (
                &JIS_FREQUENT,
                JIS_TABLE_SIZE,
                JIS_TYPICAL_DISTRIBUTION_RATIO,
            ),
            Distribution::Gb2312 => (
                &GB2312_FREQUENT,
                GB2312_TABLE_SIZE,
                GB2312_TYPICAL_DISTRIBUTION_RATIO,
            ),
            Distribution::EucKr | Distribution::Johab => (
                &EUCKR_FREQUENT,
                EUCKR_TABLE_SIZE,
                EUCKR_TYPICAL_DISTRIBUTION_RATIO,
            ),
            Distribution::EucTw => (
                &EUCTW_FREQUENT,
                EUCTW_TABLE_SIZE,
                EUCTW_TYPICAL_DISTRIBUTION_RATIO,
            ),
        }
    }
}

fn johab_to_euckr(lead: i32, trail: i32) -> i32 {
    let initial = JOHAB_CHO[((lead >> 2) & 0x1F) as usize];
    let medial = JOHAB_JUNG[(((lead << 3) | (trail >> 5)) & 0x1F) as usize];
    let last = JOHAB_JONG[(trail & 0x1F) as usize];
    if initial == 0xFF || medial == 0xFF || last == 0xFF {
        return -1;
    }
    let index = usize::from(initial) * 21 * 28 + usize::from(medial) * 28 + usize::from(last);
    JOHAB_TO_EUCKR_ORDER
        .get(index)
        .map_or(-1, |&order| i32::from(order))
}

/// The share of double-byte characters among the 512 most frequent of the language.
struct DistributionAnalysis {
    kind: Distribution,
    total_chars: u32,
    frequent_chars: u32,
}

/// Past this many characters a prober may decide alone.
const ENOUGH_CHARS: u32 = 1024;
/// Below this many frequent characters the analysis says "surely not" (uchardet's threshold
/// when the language is not the caller's preferred one, which cchardet never names).
const MINIMUM_FREQUENT: u32 = 4;

impl DistributionAnalysis {
    fn new(kind: Distribution) -> Self {
        DistributionAnalysis {
            kind,
            total_chars: 0,
            frequent_chars: 0,
        }
    }

    fn feed_char(&mut self, lead: u8, trail: u8, char_len: u8) {
        if char_len != 2 {
            return;
        }
        let order = self.kind.order(lead, trail);
        if order < 0 {
            return;
        }
        self.total_chars += 1;
        let (frequent, size, _) = self.kind.table();
        let order = order as u32;
        if order < size && frequent[(order / 64) as usize] >> (order % 64) & 1 == 1 {
            self.frequent_chars += 1;
        }
    }

    fn confidence(&self) -> f32 {
        const SURE_YES: f32 = 0.7;
        if self.total_chars == 0 || self.frequent_chars <= MINIMUM_FREQUENT {
            return 0.01;
        }
        if self.total_chars != self.frequent_chars {
            let (_, _, ratio) = self.kind.table();
            let r = self.frequent_chars as f32
                / ((self.total_chars - self.frequent_chars) as f32 * ratio);
            if r < SURE_YES {
                return r;
            }
        }
        SURE_YES
    }

    fn enough(&self) -> bool {
        self.total_chars > ENOUGH_CHARS
    }
}

/// Japanese: how often consecutive hiragana form the pairs Japanese favours.
struct ContextAnalysis {
    shift_jis: bool,
    samples: [u32; 6],
    total: u32,
    last_order: i32,
    done: bool,
}

impl ContextAnalysis {
    fn new(shift_jis: bool) -> Self {
        ContextAnalysis {
            shift_jis,
            samples: [0; 6],
            total: 0,
            last_order: -1,
            done: false,
        }
    }

    fn hiragana_order(&self, lead: u8, trail: u8) -> i32 {
        let (row, first, last) = if self.shift_jis {
            (0x82, 0x9F, 0xF1)
        } else {
            (0xA4, 0xA1, 0xF3)
        };
        if lead == row && (first..=last).contains(&trail) {
            i32::from(trail - first)
        } else {
            -1
        }
    }

    fn feed_char(&mut self, lead: u8, trail: u8, char_len: u8) {
        if self.total > 1000 {
            self.done = true;
        }
        if self.done {
            return;
        }
        let order = if char_len == 2 {
            self.hiragana_order(lead, trail)
        } else {
            -1
        };
        if order != -1 && self.last_order != -1 {
            self.total += 1;
            let cell = self.last_order as usize * 83 + order as usize;
            self.samples[usize::from(JP2_CHAR_CONTEXT[cell] - b'0')] += 1;
        }
        self.last_order = order;
    }

    fn confidence(&self) -> f32 {
        if self.total > MINIMUM_FREQUENT {
            (self.total - self.samples[0]) as f32 / self.total as f32
        } else {
            -1.0
        }
    }

    fn enough(&self) -> bool {
        self.total > 100
    }
}

/// Shift_JIS, EUC-JP, GB18030, EUC-KR, EUC-TW and Johab: a state machine that delimits
/// characters, and the analyses of the double-byte ones.
struct CjkProber {
    machine: CodingStateMachine,
    state: ProbingState,
    distribution: DistributionAnalysis,
    context: Option<ContextAnalysis>,
    /// The last byte of the previous data, the lead byte of a character split between two.
    last_byte: u8,
}

impl CjkProber {
    fn new(
        model: &'static StateMachineModel,
        kind: Distribution,
        context: Option<ContextAnalysis>,
    ) -> Self {
        CjkProber {
            machine: CodingStateMachine::new(model),
            state: ProbingState::Detecting,
            distribution: DistributionAnalysis::new(kind),
            context,
            last_byte: 0,
        }
    }

    fn feed(&mut self, data: &[u8]) -> ProbingState {
        for (i, &byte) in data.iter().enumerate() {
            let state = self.machine.next(byte);
            if state == ITS_ME {
                self.state = ProbingState::FoundIt;
                break;
            }
            if state == START {
                let lead = if i == 0 { self.last_byte } else { data[i - 1] };
                let char_len = self.machine.char_len;
                if let Some(context) = &mut self.context {
                    context.feed_char(lead, byte, char_len);
                }
                self.distribution.feed_char(lead, byte, char_len);
            }
        }
        if let Some(&last) = data.last() {
            self.last_byte = last;
        }
        let enough = match &self.context {
            Some(context) => context.enough(),
            None => self.distribution.enough(),
        };
        if self.state == ProbingState::Detecting && enough && self.confidence() > SHORTCUT_THRESHOLD
        {
            self.state = ProbingState::FoundIt;
        }
        self.state
    }

    fn confidence(&self) -> f32 {
        let distribution = self.distribution.confidence();
        match &self.context {
            Some(context) => {
                let context = context.confidence();
                if context > distribution {
                    context
                } else {
                    distribution
                }
            }
            None => distribution,
        }
    }
}

/// Big5: counts of symbols, ASCII letters and the kinds of double-byte characters; a byte
/// pair outside Big5 rules it out.
#[derive(Default)]
struct Big5Prober {
    not_me: bool,
    lead: Option<u8>,
    symbols: u32,
    ascii_letters: u32,
    graphic: u32,
    frequent: u32,
    reserved: u32,
    rare: u32,
}

impl Big5Prober {
    fn feed(&mut self, data: &[u8]) -> ProbingState {
        if self.not_me {
            return ProbingState::NotMe;
        }
        for &c in data {
            let valid = match self.lead.take() {
                None => self.first_byte(c),
                Some(lead) => self.second_byte(lead, c),
            };
            if !valid {
                self.not_me = true;
                return ProbingState::NotMe;
            }
        }
        ProbingState::Detecting
    }

    fn first_byte(&mut self, c: u8) -> bool {
        match c {
            0x20..=0x40 | 0x5C..=0x60 | 0x7C..=0x7E => self.symbols += 1,
            0x41..=0x5A | 0x61..=0x7A => self.ascii_letters += 1,
            0x81..=0xFE => self.lead = Some(c),
            _ => return false,
        }
        true
    }

    /// Sorts the pair as uchardet does, including its test for lead byte 0xA3 (`c >= 0xC0 ||
    /// c <= 0xFE`, always true: every 0xA3 pair counts as reserved).
    fn second_byte(&mut self, lead: u8, c: u8) -> bool {
        let reserved = (lead == 0x81 && c >= 0x40)
            || (lead > 0x81 && lead < 0xA0)
            || (lead == 0xA0 && c < 0xFE)
            || lead == 0xA3
            || (lead == 0xC6 && c >= 0xA1)
            || (lead > 0xC6 && lead < 0xC8)
            || (lead == 0xC8 && c < 0xFE)
            || (lead == 0xF9 && c >= 0xD6)
            || (lead > 0xF9 && lead < 0xFE)
            || (lead == 0xFE && c < 0xFE);
        if reserved {
            self.reserved += 1;
        } else if (lead == 0xA1 && c >= 0x40)
            || (lead > 0xA1 && lead < 0xA3)
            || (lead == 0xA3 && c < 0xBF)
        {
            self.graphic += 1;
        } else if (lead == 0xA4 && c >= 0x40)
            || (lead > 0xA4 && lead < 0xC6)
            || (lead == 0xC6 && c < 0x7E)
        {
            self.frequent += 1;
        } else if (lead == 0xC9 && c >= 0x40)
            || (lead > 0xC9 && lead < 0xF9)
            || (lead == 0xF9 && c < 0xD5)
        {
            self.rare += 1;
        } else {
            return false;
        }
        true
    }

    /// In double precision, as uchardet's expression is, then single (0/0 is NaN, as there).
    fn confidence(&self) -> f32 {
        let letters = self.ascii_letters + self.frequent + self.rare;
        let chars = letters + self.symbols + self.graphic + self.reserved;
        let score = f64::from(self.frequent) + 0.5 * f64::from(self.rare)
            - f64::from(self.ascii_letters)
            - 2.0 * f64::from(self.reserved);
        (score / f64::from(chars as f32)) as f32
    }
}

enum Prober {
    Utf8(Utf8Prober),
    Cjk(CjkProber),
    Big5(Big5Prober),
}

impl Prober {
    fn feed(&mut self, data: &[u8]) -> ProbingState {
        match self {
            Prober::Utf8(p) => p.feed(data),
            Prober::Cjk(p) => p.feed(data),
            Prober::Big5(p) => p.feed(data),
        }
    }

    fn confidence(&self) -> f32 {
        match self {
            Prober::Utf8(p) => p.confidence(),
            Prober::Cjk(p) => p.confidence(),
            Prober::Big5(p) => p.confidence(),
        }
    }

    fn charset(&self) -> &'static str {
        match self {
            Prober::Utf8(_) => "UTF-8",
            Prober::Cjk(p) => CJK_NAMES
                .iter()
                .find(|(model, _)| std::ptr::eq(*model, p.machine.model()))
                .map_or("", |(_, name)| name),
            Prober::Big5(_) => "BIG5",
        }
    }
}

/// The names uchardet's CJK probers report (not always their state machine's).
static CJK_NAMES: [(&StateMachineModel, &str); 6] = [
    (&SJIS, "SHIFT_JIS"),
    (&EUCJP, "EUC-JP"),
    (&GB18030, "GB18030"),
    (&EUCKR, "UHC"),
    (&EUCTW, "EUC-TW"),
    (&JOHAB, "Johab"),
];

/// cchardet's thresholds: UTF-8 is a candidate over 0.3, the other charsets over 0.5 (without
/// uchardet's language pass they need stronger evidence), and UTF-8 seen to be invalid stays the
/// last candidate at 0.25.
const CANDIDATE_THRESHOLD: f32 = 0.3;
const MULTI_BYTE_CANDIDATE_THRESHOLD: f32 = 0.5;
const INVALID_UTF8_CONFIDENCE: f32 = 0.25;
/// The probers that decode to code points are fed at most this many bytes at a time.
const CODE_POINT_BUFFER: usize = 1024;

pub(super) struct MultiByteGroup {
    probers: [Prober; 8],
    keep_next: u32,
    utf8_validity: Utf8Validity,
}

impl MultiByteGroup {
    pub(super) fn new() -> Self {
        MultiByteGroup {
            probers: [
                Prober::Utf8(Utf8Prober {
                    machine: CodingStateMachine::new(&UTF8),
                    state: ProbingState::Detecting,
                    multi_byte_chars: 0,
                }),
                Prober::Cjk(CjkProber::new(
                    &SJIS,
                    Distribution::ShiftJis,
                    Some(ContextAnalysis::new(true)),
                )),
                Prober::Cjk(CjkProber::new(
                    &EUCJP,
                    Distribution::EucJp,
                    Some(ContextAnalysis::new(false)),
                )),
                Prober::Cjk(CjkProber::new(&GB18030, Distribution::Gb2312, None)),
                Prober::Cjk(CjkProber::new(&EUCKR, Distribution::EucKr, None)),
                Prober::Big5(Big5Prober::default()),
                Prober::Cjk(CjkProber::new(&EUCTW, Distribution::EucTw, None)),
                Prober::Cjk(CjkProber::new(&JOHAB, Distribution::Johab, None)),
            ],
            keep_next: 0,
            utf8_validity: Utf8Validity::default(),
        }
    }

    /// Feeds the probers the stretches around bytes above 0x7F (each up to the second ASCII
    /// byte after the last of them), as uchardet filters; `FoundIt` once a prober is sure.
    pub(super) fn feed(&mut self, data: &[u8]) -> ProbingState {
        self.utf8_validity.feed(data);
        let mut start = 0;
        let mut keep_next = self.keep_next;
        for (pos, &byte) in data.iter().enumerate() {
            if byte >= 0x80 {
                if keep_next == 0 {
                    start = pos;
                }
                keep_next = 2;
            } else if keep_next > 0 {
                keep_next -= 1;
                if keep_next == 0 && self.feed_probers(&data[start..=pos]) {
                    return ProbingState::FoundIt;
                }
            }
        }
        if keep_next > 0 && self.feed_probers(&data[start..]) {
            return ProbingState::FoundIt;
        }
        self.keep_next = keep_next;
        ProbingState::Detecting
    }

    fn feed_probers(&mut self, stretch: &[u8]) -> bool {
        for i in 0..self.probers.len() {
            let state = match &mut self.probers[i] {
                Prober::Utf8(p) => stretch
                    .chunks(CODE_POINT_BUFFER)
                    .map(|c| p.feed(c))
                    .find(|s| *s != ProbingState::Detecting)
                    .unwrap_or(ProbingState::Detecting),
                other => other.feed(stretch),
            };
            if state == ProbingState::FoundIt && self.is_sure(i) {
                return true;
            }
        }
        false
    }

    fn is_sure(&self, i: usize) -> bool {
        if i == 0 {
            !self.utf8_validity.invalid() && self.probers[0].confidence() > CANDIDATE_THRESHOLD
        } else {
            self.probers[i].confidence() > MULTI_BYTE_CANDIDATE_THRESHOLD
        }
    }

    /// The candidates in uchardet's order, with their confidences.
    pub(super) fn candidates(&self) -> Vec<(&'static str, f32)> {
        let mut out = Vec::new();
        for (i, prober) in self.probers.iter().enumerate() {
            let confidence = prober.confidence();
            let candidate = if i == 0 {
                self.utf8_validity.invalid() || confidence > CANDIDATE_THRESHOLD
            } else {
                confidence > MULTI_BYTE_CANDIDATE_THRESHOLD
            };
            if candidate {
                let reported = if i == 0 && self.utf8_validity.invalid() {
                    INVALID_UTF8_CONFIDENCE
                } else {
                    confidence
                };
                out.push((prober.charset(), reported));
            }
        }
        out
    }
}

/// A strict UTF-8 validator over the raw stream, as cchardet's group runs it.
#[derive(Default)]
struct Utf8Validity {
    /// Continuation bytes still expected, and the range the next one must be in.
    pending: u8,
    next_range: (u8, u8),
    is_invalid: bool,
}

impl Utf8Validity {
    fn feed(&mut self, data: &[u8]) {
        for &byte in data {
            if self.is_invalid {
                return;
            }
            self.is_invalid = !self.step(byte);
        }
    }

    fn step(&mut self, byte: u8) -> bool {
        if self.pending > 0 {
            if !(self.next_range.0..=self.next_range.1).contains(&byte) {
                return false;
            }
            self.pending -= 1;
            self.next_range = (0x80, 0xBF);
            return true;
        }
        let (pending, range) = match byte {
            0x00..=0x7F => return true,
            0xC2..=0xDF => (1, (0x80, 0xBF)),
            0xE0 => (2, (0xA0, 0xBF)),
            0xE1..=0xEC | 0xEE | 0xEF => (2, (0x80, 0xBF)),
            0xED => (2, (0x80, 0x9F)),
            0xF0 => (3, (0x90, 0xBF)),
            0xF1..=0xF3 => (3, (0x80, 0xBF)),
            0xF4 => (3, (0x80, 0x8F)),
            _ => return false,
        };
        self.pending = pending;
        self.next_range = range;
        true
    }

    fn invalid(&self) -> bool {
        self.is_invalid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_validator_agrees_with_the_standard_library() {
        let samples: [&[u8]; 6] = [
            b"caf\xC3\xA9",
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\xE0\x9F\xBF",
            b"ok\xF0\x9F\x98\x80",
            b"\xC3",
        ];
        for sample in samples {
            let mut validity = Utf8Validity::default();
            validity.feed(sample);
            // A truncated sequence at the end is not an error for a stream validator.
            let complete = std::str::from_utf8(sample).is_ok() || sample == b"\xC3";
            assert_eq!(!validity.invalid(), complete, "{sample:?}");
        }
    }

    #[test]
    fn shift_jis_orders_follow_the_lead_and_trail_bytes() {
        assert_eq!(Distribution::ShiftJis.order(0x81, 0x40), 0);
        assert_eq!(Distribution::ShiftJis.order(0x81, 0x80), 0x3F);
        assert_eq!(Distribution::ShiftJis.order(0xE0, 0x40), 188 * 31);
        assert_eq!(Distribution::ShiftJis.order(0xA0, 0x40), -1);
    }
}
