//! What jusText records about a paragraph: its class, the classifier's parameters and the
//! classified paragraph.

use std::fmt;

use crate::html::Limits;

/// A paragraph's class. Context-free classification gives all four; the revision leaves only
/// `Good` and `Bad`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParagraphClass {
    Good,
    Bad,
    Short,
    NearGood,
}

impl ParagraphClass {
    /// jusText's spelling: `good`, `bad`, `short`, `neargood`.
    pub fn as_str(self) -> &'static str {
        match self {
            ParagraphClass::Good => "good",
            ParagraphClass::Bad => "bad",
            ParagraphClass::Short => "short",
            ParagraphClass::NearGood => "neargood",
        }
    }
}

impl fmt::Display for ParagraphClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// jusText's parameters, with its defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Characters; shorter paragraphs are short (bad when they hold link text).
    pub length_low: usize,
    /// Characters; longer paragraphs with enough stopwords are good.
    pub length_high: usize,
    pub stopwords_low: f64,
    pub stopwords_high: f64,
    pub max_link_density: f64,
    /// Characters between a heading and a good paragraph for the heading to be kept.
    pub max_heading_distance: usize,
    pub no_headings: bool,
    /// Run the "good headings" stage that jusText 3.0.2 skips by a bug (as jusText < 3.0 and the
    /// thesis do). Off by default for parity.
    pub good_headings_stage: bool,
    /// Bounds on what one page may cost (not a jusText parameter): a page over `max_bytes` is an
    /// error, deep nesting and huge tags are cut while parsing. Defaults leave real pages alone.
    pub limits: Limits,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            length_low: 70,
            length_high: 200,
            stopwords_low: 0.30,
            stopwords_high: 0.32,
            max_link_density: 0.2,
            max_heading_distance: 200,
            no_headings: false,
            good_headings_stage: false,
            limits: Limits::default(),
        }
    }
}

impl Params {
    /// jusText's command line without a stoplist ("language-independent mode"): both stopword
    /// thresholds are zero, so length and link density alone decide.
    pub fn language_independent(mut self) -> Self {
        self.stopwords_low = 0.0;
        self.stopwords_high = 0.0;
        self
    }
}

/// One classified paragraph with everything jusText records about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Paragraph {
    pub text: String,
    pub length: usize,
    pub words_count: usize,
    pub chars_count_in_links: usize,
    pub stopwords_count: usize,
    pub tags_count: i32,
    pub dom_path: String,
    pub xpath: String,
    pub heading: bool,
    pub cf_class: ParagraphClass,
    pub class: ParagraphClass,
}

impl Paragraph {
    /// `chars_count_in_links / length` (can exceed 1: link text is counted unstripped).
    pub fn link_density(&self) -> f64 {
        if self.length == 0 {
            0.0
        } else {
            self.chars_count_in_links as f64 / self.length as f64
        }
    }

    pub fn stopword_density(&self) -> f64 {
        if self.words_count == 0 {
            0.0
        } else {
            self.stopwords_count as f64 / self.words_count as f64
        }
    }

    pub fn is_good(&self) -> bool {
        self.class == ParagraphClass::Good
    }
}
