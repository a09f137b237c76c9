//! `url_filter(url [, options])`: datatrove's URLFilter, FineWeb's first step.

use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::logical_expr::Documentation;

use crate::data_roots::{Access, check_process_path};
use crate::datatrove::url_filter::{BLOCK_LIST_ARCHIVE, UrlFilter, UrlFilterParams};
use crate::options::{Keys, count, flag, key};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::text_struct::{
    Cell, Row, TextStructFunction, TextStructKernel, text_options_argument,
};

/// `url_filter(url [, options])`.
pub type UrlFilterFunc = TextStructFunction<UrlFilterKernel>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct UrlFilterKernel;

/// The environment variable naming the block list when the options do not.
pub const BLOCK_LIST_VARIABLE: &str = "WEBTEXT_URL_BLOCK_LIST";

/// The options: datatrove's constructor arguments and where the block list is.
#[derive(Debug, Clone)]
pub struct UrlFilterOptions {
    params: UrlFilterParams,
    /// A path, `auto` (the environment variable, then datatrove's own cache) or `none`.
    block_list: String,
}

impl Default for UrlFilterOptions {
    fn default() -> Self {
        UrlFilterOptions {
            params: UrlFilterParams::default(),
            block_list: "auto".to_owned(),
        }
    }
}

fn entries(value: &str) -> Result<Vec<String>, &'static str> {
    Ok(value
        .split('|')
        .filter(|e| !e.is_empty())
        .map(str::to_owned)
        .collect())
}

fn path_or_auto(value: &str) -> Result<String, &'static str> {
    if value.is_empty() {
        return Err("a path, auto or none");
    }
    Ok(value.to_owned())
}

const URL_FILTER_KEYS: Keys<UrlFilterOptions> = &[
    key!(
        "soft_word_threshold",
        [params.soft_word_threshold],
        count,
        "how many distinct soft-banned words remove a URL"
    ),
    key!(
        "extra_domains",
        [params.extra_domains],
        entries,
        "domains or hosts to block, separated by |"
    ),
    key!(
        "extra_urls",
        [params.extra_urls],
        entries,
        "URLs to block, exactly, separated by |"
    ),
    key!(
        "banned_words",
        [params.banned_words],
        entries,
        "more banned words, separated by |"
    ),
    key!(
        "banned_subwords",
        [params.banned_subwords],
        entries,
        "more banned sub-words, separated by |"
    ),
    key!(
        "soft_banned_words",
        [params.soft_banned_words],
        entries,
        "more soft-banned words, separated by |"
    ),
    key!(
        "use_integrated_lists",
        [params.use_integrated_lists],
        flag,
        "add datatrove's word lists and block list to the ones given"
    ),
    key!(
        "block_list",
        [block_list],
        path_or_auto,
        "datatrove's domain and URL block list: the url_filterblacklistsv0_3_0.tar.gz of the \
         datatrove wheel or the folder datatrove extracts it to; auto reads the file \
         WEBTEXT_URL_BLOCK_LIST names, else datatrove's cache ($HF_HOME or \
         ~/.cache/huggingface, assets/datatrove/filters/url_filter); none uses the word lists alone"
    ),
];

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "FineWeb's URL filter as HuggingFace datatrove 0.10.1's URLFilter applies it, in its \
         order: the URL's registered domain on the block list (reason domain), its host \
         (subdomain), the URL itself (url), a banned word among the URL's runs of ASCII letters \
         and digits (hard_blacklisted, case-sensitive), soft_word_threshold distinct soft-banned \
         words (soft_blacklisted), a banned sub-word in the URL's letters and digits \
         lower-cased, separators dropped (blacklisted_subword). The host is split as tldextract \
         5.4.0 splits it over its Public Suffix List snapshot of 2025-04-07 (ICANN rules); all \
         comparisons are exact, as datatrove's are. datatrove's word lists are compiled in; its \
         block list (4.6 million domains from the UT1 blacklists, CC BY-SA) is read once per \
         process from the file datatrove ships (see the option block_list; the README says how \
         to get it), and a missing one is an error rather than a silent pass. Returns a struct: \
         passed; reason (NULL when passed); matched (the listed domain, host or URL, the banned \
         word, the soft-banned words space-separated, or the sub-word); registered_domain and \
         fqdn as tldextract gives them. NULL for NULL and empty URLs (datatrove fails on an \
         empty one).",
        "url_filter(url [, options])",
    )
    .with_sql_example(
        "SELECT f['passed'], f['reason'], f['matched']\n\
         FROM (SELECT url_filter('https://example.com/xxx/video', 'block_list=none') AS f);\n\
         -- false | hard_blacklisted | xxx",
    )
    .with_argument("url", "The URL: a string.")
    .with_argument(
        "options",
        text_options_argument::<UrlFilterKernel>("setting datatrove's constructor arguments", ""),
    )
    .with_related_udf("c4_badwords")
    .with_related_udf("pii_redact")
    .build()
});

/// datatrove's cache folder of the extracted block list.
fn datatrove_cache() -> Option<PathBuf> {
    let home = std::env::var_os("HF_HOME").map(PathBuf::from).or_else(|| {
        std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache").join("huggingface"))
    })?;
    let folder = home.join("assets/datatrove/filters/url_filter");
    folder.join("domains").is_file().then_some(folder)
}

/// The block list a `block_list` option names.
fn block_list_path(option: &str) -> Result<Option<PathBuf>, String> {
    match option {
        "none" => Ok(None),
        "auto" => {
            if let Some(path) = std::env::var_os(BLOCK_LIST_VARIABLE) {
                return Ok(Some(PathBuf::from(path)));
            }
            datatrove_cache().map(Some).ok_or_else(|| {
                format!(
                    "datatrove's block list was not found: set block_list=PATH (or \
                     {BLOCK_LIST_VARIABLE}) to the {BLOCK_LIST_ARCHIVE} of the datatrove 0.10.1 \
                     wheel (README: \"The URL filter's block list\"), or block_list=none for the \
                     word lists alone"
                )
            })
        }
        path => Ok(Some(PathBuf::from(path))),
    }
}

/// The filter of some parameters, built once per process: the options are read again for every
/// batch, and a block list with extra domains is a copy of 4.6 million entries.
fn built_filter(params: &UrlFilterParams) -> Result<Arc<UrlFilter>, String> {
    static BUILT: Mutex<Vec<(UrlFilterParams, Arc<UrlFilter>)>> = Mutex::new(Vec::new());
    let cached = |built: &[(UrlFilterParams, Arc<UrlFilter>)]| {
        built
            .iter()
            .find(|(p, _)| p == params)
            .map(|(_, f)| Arc::clone(f))
    };
    if let Some(filter) = BUILT.lock().ok().and_then(|b| cached(&b)) {
        return Ok(filter);
    }
    let filter = Arc::new(UrlFilter::new(params).map_err(|e| format!("option block_list: {e}"))?);
    if let Ok(mut built) = BUILT.lock() {
        built.push((params.clone(), Arc::clone(&filter)));
    }
    Ok(filter)
}

impl TextStructKernel for UrlFilterKernel {
    const NAME: &'static str = "url_filter";
    type Options = UrlFilterOptions;
    const OPTION_KEYS: Keys<UrlFilterOptions> = URL_FILTER_KEYS;
    type Config = Arc<UrlFilter>;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn fields() -> Fields {
        Fields::from(vec![
            Field::new("passed", DataType::Boolean, true),
            Field::new("reason", DataType::Utf8, true),
            Field::new("matched", DataType::Utf8, true),
            Field::new("registered_domain", DataType::Utf8, true),
            Field::new("fqdn", DataType::Utf8, true),
        ])
    }

    fn config(options: UrlFilterOptions) -> Result<Arc<UrlFilter>, String> {
        let mut params = options.params;
        if params.use_integrated_lists {
            params.block_list = block_list_path(&options.block_list)?;
        }
        if let Some(path) = &params.block_list {
            check_process_path(path, Access::Read)
                .map_err(|e| format!("option block_list: {e}"))?;
        }
        built_filter(&params)
    }

    fn row(row: &mut Row<'_, '_>, filter: &Arc<UrlFilter>) -> Result<Vec<Cell>, String> {
        let decision = filter.filter(row.text)?;
        Ok(vec![
            Cell::Bool(decision.passed()),
            Cell::Text(decision.reason.map(str::to_owned)),
            Cell::Text(decision.matched),
            Cell::Text(Some(decision.registered_domain)),
            Cell::Text(Some(decision.fqdn)),
        ])
    }
}
