//! boilerpipe 1.2.0 (Kohlschütter et al., "Boilerplate Detection using Shallow Text Features",
//! WSDM 2010; <https://github.com/kohlschutter/boilerpipe>): text blocks from the html5ever tree ([`segment`]), their shallow text features,
//! and the filter pipelines of the extractors ([`filters`]).

mod block;
pub mod filters;
pub mod segment;

pub use block::{Label, TextBlock};
pub use segment::Version;

use std::fmt;

use crate::html::dom::Page;

/// A page's blocks and the title boilerpipe read from its `<title>`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextDocument {
    pub title: Option<String>,
    pub blocks: Vec<TextBlock>,
}

impl TextDocument {
    /// The blocks of a parsed page, as 1.2.0 segments it.
    pub fn of(page: &Page) -> Self {
        Self::segmented(page, Version::Release1_2_0)
    }

    /// The blocks of a parsed page with the given version's tag actions.
    pub fn segmented(page: &Page, version: Version) -> Self {
        let (blocks, title) = segment::segment(page, version);
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
    /// The ArticleExtractor of boilerpipe's repository head (2c78035, 2015; never released).
    ArticleHead,
}

impl Extractor {
    /// The extractors of the 1.2.0 release (the ones the oracle holds): all but the last.
    pub const RELEASE_1_2_0: &'static [Extractor] = Self::ALL.split_at(7).0;

    pub const ALL: [Extractor; 8] = [
        Extractor::Article,
        Extractor::Default,
        Extractor::LargestContent,
        Extractor::Canola,
        Extractor::KeepEverything,
        Extractor::NumWordsRules,
        Extractor::ArticleSentences,
        Extractor::ArticleHead,
    ];

    /// The tag actions the extractor's version segments pages with.
    pub fn version(self) -> Version {
        match self {
            Extractor::ArticleHead => Version::Head,
            _ => Version::Release1_2_0,
        }
    }

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
            Extractor::ArticleHead => "article_head",
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
            Extractor::ArticleHead => article_head(blocks, doc.title.as_deref()),
            Extractor::ArticleSentences => {
                article(blocks, doc.title.as_deref());
                split_paragraph_blocks(blocks);
                min_clause_words(blocks, 5, false);
            }
            Extractor::LargestContent => {
                num_words_rules_classifier(blocks);
                block_proximity_fusion(blocks, 1, false, false);
                keep_largest_block(blocks, KeepLargest::RELEASE_1_2_0);
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
    keep_largest_block(blocks, KeepLargest::RELEASE_1_2_0);
    expand_title_to_content(blocks);
}

/// The head's ArticleExtractor (spec, appendix A).
fn article_head(blocks: &mut Vec<TextBlock>, title: Option<&str>) {
    use filters::*;
    terminating_blocks_finder_head(blocks);
    document_title_match_classifier_head(blocks, title);
    num_words_rules_classifier(blocks);
    ignore_blocks_after_content(blocks, 60);
    trailing_headline_to_boilerplate(blocks);
    block_proximity_fusion(blocks, 1, false, false);
    blocks.retain(|b| b.is_content || b.has_label(Label::Title));
    block_proximity_fusion(blocks, 1, true, true);
    keep_largest_block(blocks, KeepLargest::HEAD_EXPAND_TO_SAME_TAG_LEVEL);
    expand_title_to_content(blocks);
    large_block_same_tag_level_to_content(blocks);
    list_at_end(blocks);
}

/// The text an extractor keeps from a parsed page (content blocks, each followed by `'\n'`).
pub fn extract(page: &Page, extractor: Extractor) -> String {
    let mut doc = TextDocument::segmented(page, extractor.version());
    extractor.process(&mut doc);
    doc.content()
}
