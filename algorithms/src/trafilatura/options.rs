//! `extract()`'s keyword arguments, their defaults, and their names as SQL options.

use crate::html::Limits;
use crate::options::{Keys, OptionKey, choice, flag, key};

/// trafilatura's `focus`: `favor_precision`, `favor_recall`, or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    #[default]
    Balanced,
    Precision,
    Recall,
}

/// The output formats of `extract()` this port writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    #[default]
    Txt,
    Markdown,
}

/// `extract()`'s keyword arguments, with its defaults (the same names).
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Prefer less text but correct extraction.
    pub favor_precision: bool,
    /// Prefer more text even when unsure (wins over `favor_precision`).
    pub favor_recall: bool,
    /// No comparison with readability and jusText (`no_fallback`).
    pub fast: bool,
    /// Extract comments along with the main text (default true).
    pub include_comments: bool,
    /// Take the content of tables into account (default true).
    pub include_tables: bool,
    /// Keep formatting (as Markdown); `None`: true for Markdown output, false for text.
    pub include_formatting: Option<bool>,
    /// Keep links with their targets (as Markdown links).
    pub include_links: bool,
    /// Plain text or Markdown.
    pub output_format: OutputFormat,
    /// Drop text segments and documents seen too often, counted in the cache the caller passes
    /// to [`extract`] (trafilatura's is one per process).
    pub deduplicate: bool,
    /// Bounds on what one page may cost (not a trafilatura option).
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            favor_precision: false,
            favor_recall: false,
            fast: false,
            include_comments: true,
            include_tables: true,
            include_formatting: None,
            include_links: false,
            output_format: OutputFormat::Txt,
            deduplicate: false,
            limits: Limits::default(),
        }
    }
}

impl Options {
    /// datatrove's `Trafilatura` block as FineWeb runs it: `favor_precision=True,
    /// include_comments=False, deduplicate=True`.
    pub fn fineweb() -> Self {
        Options {
            favor_precision: true,
            include_comments: false,
            deduplicate: true,
            ..Options::default()
        }
    }

    /// `Extractor.focus`.
    pub fn focus(&self) -> Focus {
        if self.favor_recall {
            Focus::Recall
        } else if self.favor_precision {
            Focus::Precision
        } else {
            Focus::Balanced
        }
    }

    /// Whether formatting is kept (`Extractor.formatting`).
    pub fn formatting(&self) -> bool {
        self.include_formatting
            .unwrap_or(self.output_format == OutputFormat::Markdown)
    }
}

/// `extract()`'s keyword arguments as options (`'favor_precision=true, include_comments=false'`),
/// for [`crate::options::parse`].
pub const TRAFILATURA_KEYS: Keys<Options> = &[
    key!(
        "favor_precision",
        [favor_precision],
        flag,
        "less text, more surely the main text"
    ),
    key!(
        "favor_recall",
        [favor_recall],
        flag,
        "more text when unsure; wins over favor_precision"
    ),
    key!(
        "fast",
        [fast],
        flag,
        "no comparison with readability and jusText"
    ),
    key!(
        "include_comments",
        [include_comments],
        flag,
        "the page's comments follow the text"
    ),
    key!("include_tables", [include_tables], flag, ""),
    OptionKey {
        name: "include_formatting",
        about: "default: true for Markdown, false for text",
        show: |o| match o.include_formatting {
            None => "default".to_owned(),
            Some(b) => b.to_string(),
        },
        set: |o, v| {
            o.include_formatting = if v.eq_ignore_ascii_case("default") {
                None
            } else {
                Some(flag(v).map_err(|_| "true, false or default")?)
            };
            Ok(())
        },
        preset: false,
    },
    key!(
        "include_links",
        [include_links],
        flag,
        "links as Markdown links"
    ),
    OptionKey {
        name: "output_format",
        about: "or markdown",
        show: |o| {
            match o.output_format {
                OutputFormat::Txt => "txt",
                OutputFormat::Markdown => "markdown",
            }
            .to_owned()
        },
        set: |o, v| {
            let formats = [
                ("txt", OutputFormat::Txt),
                ("markdown", OutputFormat::Markdown),
            ];
            o.output_format = choice(v, &formats, "txt or markdown")?;
            Ok(())
        },
        preset: false,
    },
    key!(
        "deduplicate",
        [deduplicate],
        flag,
        "text seen in earlier pages of the same stream is dropped"
    ),
];
