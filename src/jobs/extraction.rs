//! The options `clean` and `report` share: which column holds the page and how it is cleaned.

use clap::{Args, ValueEnum};

/// Which column holds the page and how it is cleaned: the options of `clean` and `report`.
#[derive(Args)]
pub struct ExtractionArgs {
    /// The column holding the page (string or binary; bytes are decoded as the extractor does)
    #[arg(long, default_value = "html", value_parser = crate::jobs::column_name)]
    pub html_column: String,
    /// The boilerplate removal algorithm
    #[arg(long, value_enum, default_value = "justext")]
    pub extractor: Extractor,
    /// The stoplist (one of jusText's 100 languages, or 'none' for the language-independent mode)
    #[arg(long, default_value = "English")]
    pub language: String,
    /// Parameters of the extractor, 'key=value,...' (see `webtext functions justext`,
    /// `webtext functions extract_content` or `webtext functions trafilatura`)
    #[arg(long, default_value = "")]
    pub options: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Extractor {
    /// jusText 3.0.2
    Justext,
    /// The crate's own extractor, `extract_content` (`--language` is not used; `kept_share` is
    /// the share of the page's visible text kept)
    ExtractContent,
    /// trafilatura 2.3.1's extract(), `--options` as its keyword arguments (`webtext functions
    /// trafilatura`; FineWeb's: 'favor_precision=true,include_comments=false,deduplicate=true').
    /// `--language` is not used and `kept_share` is NULL. With deduplicate=true the pages are
    /// cleaned on one thread in the order read, one cache per output file or shard
    Trafilatura,
}
