//! The DataFusion layer: one file per SQL function, grouped by family as `datafusion-functions`
//! groups its own: [`page`] (from a page's HTML), [`filters`] (the pre-training filters of a
//! text), [`dedup`] (onion's n-grams and MinHash). Every scalar function is a kernel over one
//! shell, `function`'s `WebtextFunction`; a family of functions shares its arguments
//! (`page::justext_common`, `page::boilerpipe_common`, `page::extract_common`, `text_struct`,
//! `dedup::dedup_common`), and all share the row loops (`arrays`), the constant arguments
//! (`arguments`) and the row policy (`row_policy`), which stay here.
//!
//! ```no_run
//! # fn demo() -> datafusion::error::Result<()> {
//! use datafusion::prelude::*;
//! use datafusion_webtext::functions::justext;
//! let mut ctx = SessionContext::new();
//! datafusion_webtext::register_all(&mut ctx)?;
//! // DataFrame users need no SQL:
//! let expr = justext(col("html"), lit("English"));
//! # let _ = expr; Ok(()) }
//! ```

/// The evaluator methods of a window function that computes each row when it arrives, from the
/// rows before it, without a frame: DataFusion then streams the sorted rows through it
/// (BoundedWindowAggExec) instead of holding the partition.
macro_rules! row_by_row_window {
    () => {
        fn supports_bounded_execution(&self) -> bool {
            true
        }

        fn uses_window_frame(&self) -> bool {
            false
        }

        fn is_causal(&self) -> bool {
            true
        }
    };
}

mod arguments;
pub(crate) mod arrays;
mod documentation;
mod function;
mod held_memory;
mod row_policy;
mod shared_parses;
mod shared_words;
mod text_struct;
mod thread_store;

pub mod dedup;
pub mod filters;
pub mod page;

// Each function's module also where it was before the families, as the crate's users name it.
pub use dedup::{
    bloom_filter_keep, content_hash, duplicate_fraction, duplicate_ngrams, duplicate_positions,
    exact_dedup_hash, jaccard, minhash, minhash_bands, minhash_clusters, minhash_union,
    minhash_union_clusters, ngram_hashes, onion_keep, sentence_dedup_filter, sentence_dedup_hashes,
};
#[cfg(feature = "tokens")]
pub use filters::token_count;
pub use filters::{
    c4_badwords, c4_quality, datatrove_stats, fineweb_quality, fineweb2_languages, ftfy,
    gopher_quality, gopher_repetition, ngram_decontamination, pii_redact, pii_redact_in_order,
    remove_symbol_lines, url_filter,
};
#[cfg(feature = "langid")]
pub use filters::{detect_language, fasttext_predict};
pub use page::{
    boilerpipe, boilerpipe_blocks, byte_length, datatrove_decode, decode_html, extract_content,
    extract_content_result, extract_metadata, html_title, justext, justext_extract,
    justext_paragraphs, libmagic_mime, stopword_density, trafilatura, trafilatura_in_order,
};

pub use dedup::dedup_common::cached_duplicate_sets;
pub use function::WebtextFunction;
pub use held_memory::WindowPool;
pub use row_policy::{catch_row_panic, row_panics};
pub use shared_parses::pages_parsed;
pub use text_struct::TextStructFunction;

use std::sync::{Arc, LazyLock};

use datafusion::error::Result;
use datafusion::execution::FunctionRegistry;
use datafusion::logical_expr::{AggregateUDF, Documentation, ScalarUDF, WindowUDF};
use datafusion::prelude::SessionConfig;

macro_rules! singleton {
    ($fn_name:ident, $ty:ty) => {
        /// The shared instance of this SQL function.
        pub fn $fn_name() -> Arc<ScalarUDF> {
            static UDF: LazyLock<Arc<ScalarUDF>> =
                LazyLock::new(|| Arc::new(ScalarUDF::from(<$ty>::default())));
            Arc::clone(&UDF)
        }
    };
}

singleton!(justext_udf, justext::JustextFunc);
singleton!(
    justext_paragraphs_udf,
    justext_paragraphs::JustextParagraphsFunc
);
singleton!(justext_extract_udf, justext_extract::JustextExtractFunc);
singleton!(stopword_density_udf, stopword_density::StopwordDensityFunc);
singleton!(boilerpipe_udf, boilerpipe::BoilerpipeFunc);
singleton!(
    boilerpipe_blocks_udf,
    boilerpipe_blocks::BoilerpipeBlocksFunc
);
singleton!(html_title_udf, html_title::HtmlTitleFunc);
singleton!(extract_content_udf, extract_content::ExtractContentFunc);
singleton!(trafilatura_udf, trafilatura::TrafilaturaFunc);
singleton!(
    extract_content_result_udf,
    extract_content_result::ExtractContentResultFunc
);
singleton!(extract_metadata_udf, extract_metadata::ExtractMetadataFunc);
singleton!(decode_html_udf, decode_html::DecodeHtmlFunc);
singleton!(datatrove_decode_udf, datatrove_decode::DatatroveDecodeFunc);
singleton!(libmagic_mime_udf, libmagic_mime::LibmagicMimeFunc);
singleton!(byte_length_udf, byte_length::ByteLengthFunc);
singleton!(ngram_hashes_udf, ngram_hashes::NgramHashesFunc);
singleton!(content_hash_udf, content_hash::ContentHashFunc);
singleton!(
    duplicate_fraction_udf,
    duplicate_fraction::DuplicateFractionFunc
);
singleton!(
    duplicate_positions_udf,
    duplicate_positions::DuplicatePositionsFunc
);
singleton!(gopher_quality_udf, gopher_quality::GopherQualityFunc);
singleton!(
    gopher_repetition_udf,
    gopher_repetition::GopherRepetitionFunc
);
singleton!(c4_quality_udf, c4_quality::C4QualityFunc);
singleton!(c4_badwords_udf, c4_badwords::C4BadwordsFunc);
singleton!(url_filter_udf, url_filter::UrlFilterFunc);
singleton!(pii_redact_udf, pii_redact::PiiRedactFunc);
singleton!(
    remove_symbol_lines_udf,
    remove_symbol_lines::RemoveSymbolLinesFunc
);
singleton!(fineweb_quality_udf, fineweb_quality::FineWebQualityFunc);
singleton!(datatrove_stats_udf, datatrove_stats::DatatroveStatsFunc);
singleton!(
    sentence_dedup_hashes_udf,
    sentence_dedup_hashes::SentenceDedupHashesFunc
);
singleton!(
    sentence_dedup_filter_udf,
    sentence_dedup_filter::SentenceDedupFilterFunc
);
singleton!(exact_dedup_hash_udf, exact_dedup_hash::ExactDedupHashFunc);
singleton!(
    ngram_decontamination_udf,
    ngram_decontamination::NgramDecontaminationFunc
);
singleton!(ftfy_udf, ftfy::FtfyFunc);
singleton!(minhash_udf, minhash::MinhashFunc);
singleton!(minhash_bands_udf, minhash_bands::MinhashBandsFunc);
singleton!(jaccard_udf, jaccard::JaccardFunc);
#[cfg(feature = "langid")]
singleton!(detect_language_udf, detect_language::DetectLanguageFunc);
#[cfg(feature = "langid")]
singleton!(fasttext_predict_udf, fasttext_predict::FastTextPredictFunc);
#[cfg(feature = "tokens")]
singleton!(token_count_udf, token_count::TokenCountFunc);

/// The shared instance of the `onion_keep` window function.
pub fn onion_keep_udwf() -> Arc<WindowUDF> {
    static UDWF: LazyLock<Arc<WindowUDF>> =
        LazyLock::new(|| Arc::new(WindowUDF::from(onion_keep::OnionKeepFunc::default())));
    Arc::clone(&UDWF)
}

/// The shared instance of the `minhash_union` window function.
pub fn minhash_union_udwf() -> Arc<WindowUDF> {
    static UDWF: LazyLock<Arc<WindowUDF>> =
        LazyLock::new(|| Arc::new(WindowUDF::from(minhash_union::MinhashUnionFunc::default())));
    Arc::clone(&UDWF)
}

/// The shared instance of the `bloom_filter_keep` window function.
pub fn bloom_filter_keep_udwf() -> Arc<WindowUDF> {
    static UDWF: LazyLock<Arc<WindowUDF>> = LazyLock::new(|| {
        Arc::new(WindowUDF::from(
            bloom_filter_keep::BloomFilterKeepFunc::default(),
        ))
    });
    Arc::clone(&UDWF)
}

/// The shared instance of the `pii_redact_in_order` window function.
pub fn pii_redact_in_order_udwf() -> Arc<WindowUDF> {
    static UDWF: LazyLock<Arc<WindowUDF>> = LazyLock::new(|| {
        Arc::new(WindowUDF::from(
            pii_redact_in_order::PiiRedactInOrderFunc::default(),
        ))
    });
    Arc::clone(&UDWF)
}

/// The shared instance of the `trafilatura_in_order` window function.
pub fn trafilatura_in_order_udwf() -> Arc<WindowUDF> {
    static UDWF: LazyLock<Arc<WindowUDF>> = LazyLock::new(|| {
        Arc::new(WindowUDF::from(
            trafilatura_in_order::TrafilaturaInOrderFunc::default(),
        ))
    });
    Arc::clone(&UDWF)
}

/// Every scalar function of the crate.
pub fn all_scalar() -> Vec<Arc<ScalarUDF>> {
    vec![
        justext_udf(),
        justext_extract_udf(),
        justext_paragraphs_udf(),
        stopword_density_udf(),
        boilerpipe_udf(),
        boilerpipe_blocks_udf(),
        html_title_udf(),
        extract_content_udf(),
        extract_content_result_udf(),
        trafilatura_udf(),
        extract_metadata_udf(),
        decode_html_udf(),
        datatrove_decode_udf(),
        libmagic_mime_udf(),
        byte_length_udf(),
        ngram_hashes_udf(),
        content_hash_udf(),
        duplicate_fraction_udf(),
        duplicate_positions_udf(),
        #[cfg(feature = "langid")]
        detect_language_udf(),
        #[cfg(feature = "langid")]
        fasttext_predict_udf(),
        gopher_repetition_udf(),
        gopher_quality_udf(),
        c4_quality_udf(),
        fineweb_quality_udf(),
        url_filter_udf(),
        c4_badwords_udf(),
        pii_redact_udf(),
        ftfy_udf(),
        remove_symbol_lines_udf(),
        datatrove_stats_udf(),
        ngram_decontamination_udf(),
        sentence_dedup_hashes_udf(),
        sentence_dedup_filter_udf(),
        exact_dedup_hash_udf(),
        #[cfg(feature = "tokens")]
        token_count_udf(),
        minhash_udf(),
        minhash_bands_udf(),
        jaccard_udf(),
    ]
}

/// The shared instance of the `duplicate_ngrams` aggregate function.
pub fn duplicate_ngrams_udaf() -> Arc<AggregateUDF> {
    static UDAF: LazyLock<Arc<AggregateUDF>> = LazyLock::new(|| {
        Arc::new(AggregateUDF::from(
            duplicate_ngrams::DuplicateNgramsFunc::default(),
        ))
    });
    Arc::clone(&UDAF)
}

/// The shared instance of the `minhash_clusters` aggregate function.
pub fn minhash_clusters_udaf() -> Arc<AggregateUDF> {
    static UDAF: LazyLock<Arc<AggregateUDF>> = LazyLock::new(|| {
        Arc::new(AggregateUDF::from(
            minhash_clusters::MinhashClustersFunc::default(),
        ))
    });
    Arc::clone(&UDAF)
}

/// The shared instance of the `minhash_union_clusters` aggregate function.
pub fn minhash_union_clusters_udaf() -> Arc<AggregateUDF> {
    static UDAF: LazyLock<Arc<AggregateUDF>> = LazyLock::new(|| {
        Arc::new(AggregateUDF::from(
            minhash_union_clusters::MinhashUnionClustersFunc::default(),
        ))
    });
    Arc::clone(&UDAF)
}

/// Every aggregate function of the crate.
pub fn all_aggregate() -> Vec<Arc<AggregateUDF>> {
    vec![
        duplicate_ngrams_udaf(),
        minhash_clusters_udaf(),
        minhash_union_clusters_udaf(),
    ]
}

/// Every window function of the crate.
pub fn all_window() -> Vec<Arc<WindowUDF>> {
    vec![
        onion_keep_udwf(),
        minhash_union_udwf(),
        pii_redact_in_order_udwf(),
        trafilatura_in_order_udwf(),
        bloom_filter_keep_udwf(),
    ]
}

/// Every window function of the crate, reserving what their evaluators hold from `pool`.
pub fn all_window_in(pool: &WindowPool) -> Vec<Arc<WindowUDF>> {
    vec![
        Arc::new(WindowUDF::from(onion_keep::OnionKeepFunc::in_pool(
            pool.clone(),
        ))),
        Arc::new(WindowUDF::from(minhash_union::MinhashUnionFunc::in_pool(
            pool.clone(),
        ))),
        // Holds two counters: nothing to reserve.
        pii_redact_in_order_udwf(),
        // Holds at most 4,096 segments of text: nothing to reserve.
        trafilatura_in_order_udwf(),
        Arc::new(WindowUDF::from(
            bloom_filter_keep::BloomFilterKeepFunc::in_pool(pool.clone()),
        )),
    ]
}

/// The name and documentation of every function of the crate, in reference order.
pub fn all_documented() -> Vec<(String, Documentation)> {
    let scalar = all_scalar()
        .into_iter()
        .filter_map(|f| Some((f.name().to_owned(), f.documentation()?.clone())));
    let aggregate = all_aggregate()
        .into_iter()
        .filter_map(|f| Some((f.name().to_owned(), f.documentation()?.clone())));
    let window = all_window()
        .into_iter()
        .filter_map(|f| Some((f.name().to_owned(), f.documentation()?.clone())));
    scalar.chain(aggregate).chain(window).collect()
}

/// Session settings this crate's functions want: turns off DataFusion 55's leaf-expression
/// pushdown, which re-inlines a struct-returning function into each field access, so
/// `e['text'], e['kept_share']` of one `justext_extract` would parse the page twice
/// (apache/datafusion#23655, fixed after 55.2).
pub fn configure(config: SessionConfig) -> SessionConfig {
    config.set_bool(
        "datafusion.optimizer.enable_leaf_expression_pushdown",
        false,
    )
}

/// Something `register_all` registers on: a `SessionContext` or a `SessionState`.
pub trait Registry: FunctionRegistry {
    /// Registers the crate's file formats and table functions (WARC: `STORED AS WARC`,
    /// `read_warc()`; `fineweb2_languages()`).
    fn register_sources(&mut self) -> Result<()>;

    /// The memory pool of the registry's queries, which the window functions reserve from.
    fn memory_pool(&self) -> WindowPool;
}

impl Registry for datafusion::execution::context::SessionContext {
    fn register_sources(&mut self) -> Result<()> {
        self.register_udtf(
            "fineweb2_languages",
            Arc::new(fineweb2_languages::Fineweb2Languages),
        );
        crate::datasource::register_warc_on(self)
    }

    fn memory_pool(&self) -> WindowPool {
        WindowPool::new(Arc::clone(&self.runtime_env().memory_pool))
    }
}

impl Registry for datafusion::execution::session_state::SessionState {
    fn register_sources(&mut self) -> Result<()> {
        self.register_udtf(
            "fineweb2_languages",
            Arc::new(fineweb2_languages::Fineweb2Languages),
        );
        crate::datasource::register_warc(self)
    }

    fn memory_pool(&self) -> WindowPool {
        WindowPool::new(Arc::clone(&self.runtime_env().memory_pool))
    }
}

/// Registers everything of the crate: every function (the window functions reserving from the
/// registry's memory pool), the WARC file format and `read_warc()`.
pub fn register_all<R: Registry>(registry: &mut R) -> Result<()> {
    register_functions(registry)?;
    for udwf in all_window_in(&registry.memory_pool()) {
        registry.register_udwf(udwf)?;
    }
    registry.register_sources()
}

/// Registers every function of the crate on any registry (without the WARC format).
pub fn register_functions(registry: &mut dyn FunctionRegistry) -> Result<()> {
    for udf in all_scalar() {
        registry.register_udf(udf)?;
    }
    for udaf in all_aggregate() {
        registry.register_udaf(udaf)?;
    }
    for udwf in all_window() {
        registry.register_udwf(udwf)?;
    }
    Ok(())
}

/// Expression builders, for DataFrame users: `justext(col("html"), lit("English"))`.
pub mod functions {
    use datafusion::logical_expr::Expr;

    /// `justext(html, language)`.
    pub fn justext(html: Expr, language: Expr) -> Expr {
        super::justext_udf().call(vec![html, language])
    }

    /// `justext(html, language, options)`.
    pub fn justext_with_options(html: Expr, language: Expr, options: Expr) -> Expr {
        super::justext_udf().call(vec![html, language, options])
    }

    /// `justext_extract(html, language)`.
    pub fn justext_extract(html: Expr, language: Expr) -> Expr {
        super::justext_extract_udf().call(vec![html, language])
    }

    /// `justext_paragraphs(html, language)`.
    pub fn justext_paragraphs(html: Expr, language: Expr) -> Expr {
        super::justext_paragraphs_udf().call(vec![html, language])
    }

    /// `stopword_density(text, language)`.
    pub fn stopword_density(text: Expr, language: Expr) -> Expr {
        super::stopword_density_udf().call(vec![text, language])
    }

    /// `boilerpipe(html, extractor)`.
    pub fn boilerpipe(html: Expr, extractor: Expr) -> Expr {
        super::boilerpipe_udf().call(vec![html, extractor])
    }

    /// `boilerpipe_blocks(html, extractor)`.
    pub fn boilerpipe_blocks(html: Expr, extractor: Expr) -> Expr {
        super::boilerpipe_blocks_udf().call(vec![html, extractor])
    }

    /// `html_title(html)`.
    pub fn html_title(html: Expr) -> Expr {
        super::html_title_udf().call(vec![html])
    }

    /// `extract_content(html)`.
    pub fn extract_content(html: Expr) -> Expr {
        super::extract_content_udf().call(vec![html])
    }

    /// `extract_content_result(html)`.
    pub fn extract_content_result(html: Expr) -> Expr {
        super::extract_content_result_udf().call(vec![html])
    }

    /// `extract_metadata(html)`.
    pub fn extract_metadata(html: Expr) -> Expr {
        super::extract_metadata_udf().call(vec![html])
    }

    /// `decode_html(html, charset)`.
    pub fn decode_html(html: Expr, charset: Expr) -> Expr {
        super::decode_html_udf().call(vec![html, charset])
    }

    /// `datatrove_decode(payload)`.
    pub fn datatrove_decode(payload: Expr) -> Expr {
        super::datatrove_decode_udf().call(vec![payload])
    }

    /// `byte_length(value)`.
    pub fn byte_length(value: Expr) -> Expr {
        super::byte_length_udf().call(vec![value])
    }

    /// `ngram_hashes(text, n)`.
    pub fn ngram_hashes(text: Expr, n: Expr) -> Expr {
        super::ngram_hashes_udf().call(vec![text, n])
    }

    /// `content_hash(text)`.
    pub fn content_hash(text: Expr) -> Expr {
        super::content_hash_udf().call(vec![text])
    }

    /// `duplicate_fraction(text, n, duplicates)`.
    pub fn duplicate_fraction(text: Expr, n: Expr, duplicates: Expr) -> Expr {
        super::duplicate_fraction_udf().call(vec![text, n, duplicates])
    }

    /// `duplicate_positions(text, n, duplicates)`.
    pub fn duplicate_positions(text: Expr, n: Expr, duplicates: Expr) -> Expr {
        super::duplicate_positions_udf().call(vec![text, n, duplicates])
    }

    /// `detect_language(text)`.
    #[cfg(feature = "langid")]
    pub fn detect_language(text: Expr) -> Expr {
        super::detect_language_udf().call(vec![text])
    }

    /// `fasttext_predict(text, options)`.
    #[cfg(feature = "langid")]
    pub fn fasttext_predict(text: Expr, options: Expr) -> Expr {
        super::fasttext_predict_udf().call(vec![text, options])
    }

    /// `gopher_repetition(text)`.
    pub fn gopher_repetition(text: Expr) -> Expr {
        super::gopher_repetition_udf().call(vec![text])
    }

    /// `gopher_quality(text)`.
    pub fn gopher_quality(text: Expr) -> Expr {
        super::gopher_quality_udf().call(vec![text])
    }

    /// `c4_quality(text)`.
    pub fn c4_quality(text: Expr) -> Expr {
        super::c4_quality_udf().call(vec![text])
    }

    /// `fineweb_quality(text)`.
    pub fn fineweb_quality(text: Expr) -> Expr {
        super::fineweb_quality_udf().call(vec![text])
    }

    /// `url_filter(url)`.
    pub fn url_filter(url: Expr) -> Expr {
        super::url_filter_udf().call(vec![url])
    }

    /// `c4_badwords(text, language)`.
    pub fn c4_badwords(text: Expr, language: Expr) -> Expr {
        super::c4_badwords_udf().call(vec![text, language])
    }

    /// `pii_redact(text)`.
    pub fn pii_redact(text: Expr) -> Expr {
        super::pii_redact_udf().call(vec![text])
    }

    /// `ftfy(text)`: datatrove's FTFYFormatter.
    pub fn ftfy(text: Expr) -> Expr {
        super::ftfy_udf().call(vec![text])
    }

    /// `remove_symbol_lines(text)`: datatrove's defaults.
    pub fn remove_symbol_lines(text: Expr) -> Expr {
        super::remove_symbol_lines_udf().call(vec![text])
    }

    /// `datatrove_stats(text)`: every block's measures.
    pub fn datatrove_stats(text: Expr) -> Expr {
        super::datatrove_stats_udf().call(vec![text])
    }

    /// `ngram_decontamination(text, index)`: datatrove's decontamination against an index folder.
    pub fn ngram_decontamination(text: Expr, index: Expr) -> Expr {
        super::ngram_decontamination_udf().call(vec![text, index])
    }

    /// `sentence_dedup_hashes(text)`: a document's sentence-span hashes.
    pub fn sentence_dedup_hashes(text: Expr) -> Expr {
        super::sentence_dedup_hashes_udf().call(vec![text])
    }

    /// `sentence_dedup_filter(text, duplicates)`: the text without its duplicated spans.
    pub fn sentence_dedup_filter(text: Expr, duplicates: Expr) -> Expr {
        super::sentence_dedup_filter_udf().call(vec![text, duplicates])
    }

    /// `bloom_filter_keep(text, options)`, without its window: add the order with
    /// `.order_by(...)` on the window expression.
    pub fn bloom_filter_keep(text: Expr, options: Expr) -> Expr {
        super::bloom_filter_keep_udwf().call(vec![text, options])
    }

    /// `token_count(text, options)`.
    #[cfg(feature = "tokens")]
    pub fn token_count(text: Expr, options: Expr) -> Expr {
        super::token_count_udf().call(vec![text, options])
    }

    /// `duplicate_ngrams(hashes)`.
    pub fn duplicate_ngrams(hashes: Expr) -> Expr {
        super::duplicate_ngrams_udaf().call(vec![hashes])
    }

    /// `minhash(text)`.
    pub fn minhash(text: Expr) -> Expr {
        super::minhash_udf().call(vec![text])
    }

    /// `minhash_bands(signature, bands, rows)`.
    pub fn minhash_bands(signature: Expr, bands: Expr, rows: Expr) -> Expr {
        super::minhash_bands_udf().call(vec![signature, bands, rows])
    }

    /// `jaccard(text, other)`.
    pub fn jaccard(text: Expr, other: Expr) -> Expr {
        super::jaccard_udf().call(vec![text, other])
    }

    /// `minhash_clusters(id, bands)`.
    pub fn minhash_clusters(id: Expr, bands: Expr) -> Expr {
        super::minhash_clusters_udaf().call(vec![id, bands])
    }

    /// `minhash_union_clusters(union)`.
    pub fn minhash_union_clusters(union: Expr) -> Expr {
        super::minhash_union_clusters_udaf().call(vec![union])
    }

    /// `minhash_union(a, b)`, without its window: add the pairs' order with `ExprFunctionExt`.
    pub fn minhash_union(a: Expr, b: Expr) -> Expr {
        super::minhash_union_udwf().call(vec![a, b])
    }

    /// `pii_redact_in_order(text)`, without its window: add the documents' order with
    /// `ExprFunctionExt`, e.g. `.order_by(vec![col("id").sort(true, false)]).build()`.
    pub fn pii_redact_in_order(text: Expr) -> Expr {
        super::pii_redact_in_order_udwf().call(vec![text])
    }

    /// `onion_keep(text, n, threshold, options)`, without its window: add the order with
    /// `ExprFunctionExt`, e.g. `.order_by(vec![col("doc_id").sort(true, false)]).build()`.
    pub fn onion_keep(text: Expr, n: Expr, threshold: Expr, options: Expr) -> Expr {
        super::onion_keep_udwf().call(vec![text, n, threshold, options])
    }
}

/// The function reference in Markdown, generated from each function's `Documentation` (the
/// README's reference section is this text; a test keeps them equal).
pub fn reference_markdown() -> String {
    reference_markdown_of(&all_documented())
}

/// The Markdown reference of some functions.
pub fn reference_markdown_of(functions: &[(String, Documentation)]) -> String {
    let mut out = String::new();
    for (name, doc) in functions {
        out.push_str(&format!(
            "### `{}`\n\n{}\n\n```sql\n{}\n```\n\n",
            name, doc.description, doc.syntax_example
        ));
        for (name, description) in doc.arguments.iter().flatten() {
            out.push_str(&format!("- `{name}`: {description}\n"));
        }
        if let Some(example) = &doc.sql_example {
            out.push_str(&format!("\nExample:\n\n```sql\n{example}\n```\n"));
        }
        out.push('\n');
    }
    out
}

/// The reference of some functions as plain text for a terminal (`webtext functions`).
pub fn reference_text_of(functions: &[(String, Documentation)]) -> String {
    let mut out = String::new();
    for (_, doc) in functions {
        out.push_str(&format!("{}\n\n", doc.syntax_example));
        out.push_str(&indent(&wrap(&doc.description, 92), "    "));
        out.push('\n');
        for (name, description) in doc.arguments.iter().flatten() {
            out.push_str(&format!("    {name}:\n"));
            out.push_str(&indent(&wrap(description, 88), "        "));
        }
        if let Some(example) = &doc.sql_example {
            out.push_str("    example:\n");
            out.push_str(&indent(example, "        "));
        }
        out.push('\n');
    }
    out
}

fn indent(text: &str, prefix: &str) -> String {
    text.lines().map(|l| format!("{prefix}{l}\n")).collect()
}

/// Greedy word wrap at `width` characters.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if line_len > 0 && line_len + 1 + len > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += len;
    }
    out
}
