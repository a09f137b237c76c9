//! uchardet's universal detector: byte-order marks, then pure ASCII, escape sequences or the
//! multi-byte and single-byte groups, and the list of candidates they report.

use super::escape::EscapeProber;
use super::model::ProbingState;
use super::multi_byte::MultiByteGroup;
use super::single_byte::SingleByteGroup;

/// Only candidates above this confidence are reported.
const MINIMUM_THRESHOLD: f32 = 0.20;

#[derive(PartialEq, Eq, Clone, Copy)]
enum InputState {
    PureAscii,
    EscapeAscii,
    HighByte,
}

/// A charset the detector reported, with its language when the prober names one.
struct Candidate {
    encoding: &'static str,
    language: Option<&'static str>,
    confidence: f32,
}

pub(super) struct UniversalDetector {
    input_state: InputState,
    nbsp_found: bool,
    done: bool,
    started: bool,
    got_data: bool,
    last_char: u8,
    shortcut: Option<(&'static str, Option<&'static str>)>,
    escape: Option<EscapeProber>,
    multi_byte: Option<MultiByteGroup>,
    single_byte: Option<SingleByteGroup>,
}

impl UniversalDetector {
    pub(super) fn new() -> Self {
        UniversalDetector {
            input_state: InputState::PureAscii,
            nbsp_found: false,
            done: false,
            started: false,
            got_data: false,
            last_char: 0,
            shortcut: None,
            escape: None,
            multi_byte: None,
            single_byte: None,
        }
    }

    pub(super) fn feed(&mut self, data: &[u8]) {
        if self.done || data.is_empty() {
            return;
        }
        self.got_data = true;
        if !self.started {
            self.started = true;
            if data.len() > 2 {
                self.shortcut = byte_order_mark(data).map(|charset| (charset, None));
            }
            if self.shortcut.is_some() {
                self.done = true;
                return;
            }
        }
        self.scan(data);
        match self.input_state {
            InputState::EscapeAscii => {
                let escape = self.escape.get_or_insert_with(EscapeProber::new);
                if let Some(charset) = escape.feed(data) {
                    self.shortcut = Some((charset, Some(escape_language(charset))));
                    self.done = true;
                }
            }
            InputState::HighByte => self.feed_groups(data),
            InputState::PureAscii => {}
        }
    }

    /// Moves the input state on: the first byte above 0x7F other than 0xA0 (a no-break space in
    /// many charsets) starts the groups; ESC or `~{` in ASCII starts the escape prober.
    fn scan(&mut self, data: &[u8]) {
        for &byte in data {
            if byte >= 0x80 && byte != 0xA0 {
                if self.input_state != InputState::HighByte {
                    self.input_state = InputState::HighByte;
                    self.escape = None;
                    self.multi_byte.get_or_insert_with(MultiByteGroup::new);
                    self.single_byte.get_or_insert_with(SingleByteGroup::new);
                }
                continue;
            }
            if byte == 0xA0 {
                self.nbsp_found = true;
            } else if self.input_state == InputState::PureAscii
                && (byte == 0x1B || (byte == b'{' && self.last_char == b'~'))
            {
                self.input_state = InputState::EscapeAscii;
            }
            self.last_char = byte;
        }
    }

    /// The multi-byte group first; when it is sure, the single-byte group does not see the data.
    fn feed_groups(&mut self, data: &[u8]) {
        let found = |state| state == ProbingState::FoundIt;
        self.done = self
            .multi_byte
            .as_mut()
            .is_some_and(|group| found(group.feed(data)))
            || self
                .single_byte
                .as_mut()
                .is_some_and(|group| found(group.feed(data)));
    }

    /// The best candidate once all data is in: its charset and confidence.
    pub(super) fn finish(mut self) -> Option<(&'static str, f32)> {
        if !self.got_data {
            return None;
        }
        let mut candidates = Vec::new();
        if self.shortcut.is_none() && self.input_state != InputState::HighByte {
            let charset = if self.nbsp_found {
                "ISO-8859-1"
            } else {
                "ASCII"
            };
            self.shortcut = Some((charset, None));
        }
        if let Some((encoding, language)) = self.shortcut {
            report(&mut candidates, encoding, language, 0.99);
        } else {
            self.report_groups(&mut candidates);
        }
        candidates.first().map(|c| (c.encoding, c.confidence))
    }

    fn report_groups(&mut self, candidates: &mut Vec<Candidate>) {
        if let Some(group) = &self.multi_byte {
            for (encoding, confidence) in group.candidates() {
                if confidence > MINIMUM_THRESHOLD {
                    report(candidates, encoding, None, confidence);
                }
            }
        }
        if let Some(group) = &mut self.single_byte {
            let confidence = group.confidence();
            if confidence > MINIMUM_THRESHOLD {
                let (encoding, language) = group.charset_and_language();
                report(candidates, encoding, Some(language), confidence);
            }
        }
    }
}

/// A UTF byte-order mark at the start of the data.
fn byte_order_mark(data: &[u8]) -> Option<&'static str> {
    match data {
        [0xEF, 0xBB, 0xBF, ..] => Some("UTF-8"),
        [0xFE, 0xFF, ..] => Some("UTF-16"),
        [0xFF, 0xFE, 0x00, 0x00, ..] => Some("UTF-32"),
        [0xFF, 0xFE, ..] => Some("UTF-16"),
        [0x00, 0x00, 0xFE, 0xFF, ..] => Some("UTF-32"),
        _ => None,
    }
}

fn escape_language(charset: &str) -> &'static str {
    match charset {
        "ISO-2022-JP" => "ja",
        "ISO-2022-KR" => "ko",
        _ => "zh",
    }
}

/// Adds a candidate after those at least as confident; a charset already reported with the
/// same language keeps the higher confidence.
fn report(
    candidates: &mut Vec<Candidate>,
    encoding: &'static str,
    language: Option<&'static str>,
    confidence: f32,
) {
    if let Some(i) = candidates
        .iter()
        .position(|c| c.encoding == encoding && c.language.is_some() && c.language == language)
    {
        if confidence > candidates[i].confidence {
            candidates.remove(i);
        } else {
            return;
        }
    }
    let at = candidates
        .iter()
        .position(|c| c.confidence < confidence)
        .unwrap_or(candidates.len());
    candidates.insert(
        at,
        Candidate {
            encoding,
            language,
            confidence,
        },
    );
}
