//! boilerpipe 1.2.0 (Kohlschütter et al., WSDM 2010) as `../shared/specs/boilerpipe-1.2.0.md`
//! describes it: text blocks from the html5ever tree ([`segment`]), their shallow text features,
//! and the filter pipelines of the extractors ([`filters`]).

pub mod filters;
pub mod segment;

use std::fmt;

use crate::html::dom::Page;

/// A block label (1.2.0's `DefaultLabels`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    Title,
    IndicatesEndOfText,
    MightBeContent,
}

impl Label {
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Title => "de.l3s.boilerpipe/TITLE",
            Label::IndicatesEndOfText => "de.l3s.boilerpipe/INDICATES_END_OF_TEXT",
            Label::MightBeContent => "de.l3s.boilerpipe/MIGHT_BE_CONTENT",
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
    fn empty() -> Self {
        TextBlock::new(String::new(), 0, 0, 0, 0, 0)
    }

    fn init_densities(&mut self) {
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

    fn merge_next(&mut self, other: &TextBlock) {
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

    fn add_label(&mut self, label: Label) {
        if !self.has_label(label) {
            self.labels.push(label);
        }
    }
}

/// A page's blocks and the title boilerpipe read from its `<title>`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextDocument {
    pub title: Option<String>,
    pub blocks: Vec<TextBlock>,
}

impl TextDocument {
    /// The blocks of a parsed page.
    pub fn of(page: &Page) -> Self {
        let (blocks, title) = segment::segment(page);
        TextDocument { title, blocks }
    }

    /// `getContent()`: every content block's text followed by `'\n'`.
    pub fn write_content(&self, out: &mut impl fmt::Write) -> fmt::Result {
        for b in self.blocks.iter().filter(|b| b.is_content) {
            out.write_str(&b.text)?;
            out.write_char('\n')?;
        }
        Ok(())
    }

    pub fn content(&self) -> String {
        let mut s = String::new();
        let _ = self.write_content(&mut s);
        s
    }
}

/// The extractors of boilerpipe 1.2.0, and the ArticleExtractor of its repository head.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Extractor {
    Article,
    Default,
    LargestContent,
    Canola,
    KeepEverything,
    NumWordsRules,
    ArticleSentences,
}

impl Extractor {
    pub const ALL: [Extractor; 7] = [
        Extractor::Article,
        Extractor::Default,
        Extractor::LargestContent,
        Extractor::Canola,
        Extractor::KeepEverything,
        Extractor::NumWordsRules,
        Extractor::ArticleSentences,
    ];

    /// The SQL name.
    pub fn name(self) -> &'static str {
        match self {
            Extractor::Article => "article",
            Extractor::Default => "default",
            Extractor::LargestContent => "largest_content",
            Extractor::Canola => "canola",
            Extractor::KeepEverything => "keep_everything",
            Extractor::NumWordsRules => "num_words_rules",
            Extractor::ArticleSentences => "article_sentences",
        }
    }

    /// By SQL name, case-insensitively.
    pub fn by_name(name: &str) -> Option<Extractor> {
        Self::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(name))
    }

    /// Runs the extractor's filter pipeline over the document.
    pub fn process(self, doc: &mut TextDocument) {
        use filters::*;
        let blocks = &mut doc.blocks;
        match self {
            Extractor::Default => {
                simple_block_fusion(blocks);
                block_proximity_fusion(blocks, 1, false, false);
                density_rules_classifier(blocks);
            }
            Extractor::Article => article(blocks, doc.title.as_deref()),
            Extractor::ArticleSentences => {
                article(blocks, doc.title.as_deref());
                split_paragraph_blocks(blocks);
                min_clause_words(blocks, 5, false);
            }
            Extractor::LargestContent => {
                num_words_rules_classifier(blocks);
                block_proximity_fusion(blocks, 1, false, false);
                keep_largest_block(blocks);
            }
            Extractor::Canola => canola_classifier(blocks),
            Extractor::KeepEverything => blocks.iter_mut().for_each(|b| b.is_content = true),
            Extractor::NumWordsRules => num_words_rules_classifier(blocks),
        }
    }
}

fn article(blocks: &mut Vec<TextBlock>, title: Option<&str>) {
    use filters::*;
    terminating_blocks_finder(blocks);
    document_title_match_classifier(blocks, title);
    num_words_rules_classifier(blocks);
    ignore_blocks_after_content(blocks, 60);
    block_proximity_fusion(blocks, 1, false, false);
    blocks.retain(|b| b.is_content);
    block_proximity_fusion(blocks, 1, true, false);
    keep_largest_block(blocks);
    expand_title_to_content(blocks);
}

/// The text an extractor keeps from a parsed page (content blocks, each followed by `'\n'`).
pub fn extract(page: &Page, extractor: Extractor) -> String {
    let mut doc = TextDocument::of(page);
    extractor.process(&mut doc);
    doc.content()
}
