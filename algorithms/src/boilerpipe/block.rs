//! A text block of boilerpipe's document: its text, its shallow text features and its labels.

/// A block label (`DefaultLabels`: the first three are the ones 1.2.0's extractors set, the
/// others the repository head's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    Title,
    IndicatesEndOfText,
    MightBeContent,
    VeryLikelyContent,
    Li,
    Heading,
    H1,
    H2,
    H3,
}

impl Label {
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Title => "de.l3s.boilerpipe/TITLE",
            Label::IndicatesEndOfText => "de.l3s.boilerpipe/INDICATES_END_OF_TEXT",
            Label::MightBeContent => "de.l3s.boilerpipe/MIGHT_BE_CONTENT",
            Label::VeryLikelyContent => "de.l3s.boilerpipe/VERY_LIKELY_CONTENT",
            Label::Li => "de.l3s.boilerpipe/LI",
            Label::Heading => "de.l3s.boilerpipe/HEADING",
            Label::H1 => "de.l3s.boilerpipe/H1",
            Label::H2 => "de.l3s.boilerpipe/H2",
            Label::H3 => "de.l3s.boilerpipe/H3",
        }
    }
}

/// A text block with boilerpipe's features. Densities are Java `float`s.
#[derive(Debug, Clone, PartialEq)]
pub struct TextBlock {
    pub text: String,
    pub num_words: u32,
    pub num_words_in_anchor_text: u32,
    pub num_words_in_wrapped_lines: u32,
    pub num_wrapped_lines: u32,
    pub offset_start: usize,
    pub offset_end: usize,
    pub tag_level: i32,
    pub is_content: bool,
    pub labels: Vec<Label>,
    pub text_density: f32,
    pub link_density: f32,
}

impl TextBlock {
    pub fn new(
        text: String,
        num_words: u32,
        num_words_in_anchor_text: u32,
        num_words_in_wrapped_lines: u32,
        num_wrapped_lines: u32,
        offset: usize,
    ) -> Self {
        let mut block = TextBlock {
            text,
            num_words,
            num_words_in_anchor_text,
            num_words_in_wrapped_lines,
            num_wrapped_lines,
            offset_start: offset,
            offset_end: offset,
            tag_level: 0,
            is_content: false,
            labels: Vec::new(),
            text_density: 0.0,
            link_density: 0.0,
        };
        block.init_densities();
        block
    }

    /// `EMPTY_START`: the neighbour of the first and last blocks in the classifiers.
    pub(super) fn empty() -> Self {
        TextBlock::new(String::new(), 0, 0, 0, 0, 0)
    }

    pub(super) fn init_densities(&mut self) {
        if self.num_words_in_wrapped_lines == 0 {
            self.num_words_in_wrapped_lines = self.num_words;
            self.num_wrapped_lines = 1;
        }
        self.text_density = self.num_words_in_wrapped_lines as f32 / self.num_wrapped_lines as f32;
        self.link_density = if self.num_words == 0 {
            0.0
        } else {
            self.num_words_in_anchor_text as f32 / self.num_words as f32
        };
    }

    pub(super) fn merge_next(&mut self, other: &TextBlock) {
        self.text.push('\n');
        self.text.push_str(&other.text);
        self.num_words += other.num_words;
        self.num_words_in_anchor_text += other.num_words_in_anchor_text;
        self.num_words_in_wrapped_lines += other.num_words_in_wrapped_lines;
        self.num_wrapped_lines += other.num_wrapped_lines;
        self.offset_start = self.offset_start.min(other.offset_start);
        self.offset_end = self.offset_end.max(other.offset_end);
        self.init_densities();
        self.is_content |= other.is_content;
        for l in &other.labels {
            self.add_label(*l);
        }
        self.tag_level = self.tag_level.min(other.tag_level);
    }

    pub fn has_label(&self, label: Label) -> bool {
        self.labels.contains(&label)
    }

    pub(super) fn add_label(&mut self, label: Label) {
        if !self.has_label(label) {
            self.labels.push(label);
        }
    }
}
