//! The shapes of uchardet's data (filled in by `tables`) and of a prober's answer.

/// What a prober says of the data so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ProbingState {
    Detecting,
    FoundIt,
    NotMe,
}

/// A charset's coding state machine: each byte's class, the next state of each (state, class)
/// and the length of a character by the class of its first byte.
pub(super) struct StateMachineModel {
    pub(super) classes: [u8; 256],
    pub(super) class_count: u8,
    pub(super) states: &'static [u8],
    pub(super) char_len: &'static [u8],
    pub(super) name: &'static str,
}

/// A language's letters in one charset: each byte's order (its letter's frequency rank, or a
/// class above 250) and how likely each pair of the `freq_char_count` most frequent letters is
/// (0 negative .. 3 positive, as ASCII digits).
pub(super) struct SequenceModel {
    pub(super) char_to_order: &'static [u8; 256],
    pub(super) precedence: &'static [u8],
    pub(super) freq_char_count: u8,
    pub(super) typical_positive_ratio: f32,
    pub(super) charset: &'static str,
    pub(super) language: &'static str,
}

/// One entry of the group's list of probers, in uchardet's order.
pub(super) enum SingleByteProberSpec {
    /// The Hebrew prober, which names the models that follow it with `named_by_hebrew`.
    Hebrew,
    /// A sequence model, its pairs read backwards when `reversed` (visual Hebrew).
    Model {
        model: &'static SequenceModel,
        reversed: bool,
        named_by_hebrew: bool,
    },
}

/// A CPython CJK codec: the high bytes that are characters alone, and the (lead, trail) pairs
/// that are one character, as a rectangle of little-endian UTF-16 code units (0: rejected).
pub(super) struct DoubleByteCodec {
    pub(super) codec: &'static str,
    pub(super) singles: [u16; 128],
    pub(super) leads: (u8, u8),
    pub(super) trails: (u8, u8),
    pub(super) pairs: &'static [u8],
}
