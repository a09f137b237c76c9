//! What the jusText functions share: the language and options arguments, and one run of jusText
//! per page over the tree the batch's page functions share.

use std::sync::LazyLock;

use datafusion::arrow::array::Array;
use datafusion::common::{Result, ScalarValue, plan_err};

use crate::justext::options::JUSTEXT_KEYS;
use crate::justext::{Paragraph, Params, justext_parsed};
use crate::options::RowKeys;
use crate::stoplists::Stoplist;
use crate::udf::arguments::{constant_options, constant_string};
use crate::udf::arrays::PageRef;
use crate::udf::function::Arguments;
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};
use crate::udf::shared_parses::{SharedParses, Tree};

/// Argument descriptions the jusText functions share in their `Documentation`.
pub(crate) const LANGUAGE_AS_FOR_JUSTEXT: &str =
    "Constant: as for justext (default 'English'; 'none' for the language-independent mode).";
pub(crate) const OPTIONS_AS_FOR_JUSTEXT: &str =
    "Constant 'key=value, ...' overriding jusText's parameters, as for justext.";

/// Language and parameters of a jusText call, from its constant arguments.
#[derive(Debug, Clone)]
pub(crate) struct JustextConfig {
    pub stoplist: &'static Stoplist,
    pub params: Params,
    pub policy: RowPolicy,
}

/// The language value that selects jusText's language-independent mode.
pub(crate) const NO_LANGUAGE: &str = "none";

static KNOWN_LANGUAGES: LazyLock<String> =
    LazyLock::new(|| Stoplist::languages().collect::<Vec<_>>().join(", "));

/// Resolves a language name: a stoplist, or `none` for the language-independent mode.
pub(crate) fn stoplist_for(
    function: &str,
    position: usize,
    language: &str,
) -> Result<(&'static Stoplist, bool)> {
    if language.eq_ignore_ascii_case(NO_LANGUAGE) {
        return Ok((Stoplist::empty(), true));
    }
    match Stoplist::by_name(language) {
        Some(s) => Ok((s, false)),
        None => plan_err!(
            "{function}: unknown language '{language}' (argument {position}); known: {NO_LANGUAGE}, {}",
            *KNOWN_LANGUAGES
        ),
    }
}

impl JustextConfig {
    /// jusText on one row under the row policy: `None` for a NULL page, and where jusText raises
    /// (empty document, undecodable) or the page is over a limit, unless `on_error=fail`.
    pub(crate) fn run(
        &self,
        function: &str,
        page: Option<PageRef<'_>>,
        parses: &mut SharedParses,
    ) -> Result<Option<Vec<Paragraph>>> {
        self.policy
            .parsed_row(function, page, parses, Tree::Libxml2, |decoded, page| {
                justext_parsed(decoded, page, self.stoplist, &self.params)
            })
    }

    /// The parses of `pages` shared with the batch's other page functions.
    pub(crate) fn shared_parses(&self, pages: &dyn Array) -> SharedParses {
        SharedParses::for_pages(pages, &self.params.limits)
    }
}

impl Arguments for JustextConfig {
    const MAX_ARGS: usize = 3;

    /// `(html [, language [, options]])`: the constants after the html column.
    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let language = match constants.get(1) {
            Some(v) => constant_string(function, 2, "language", *v)?.unwrap_or_default(),
            None => "English".to_owned(),
        };
        let (stoplist, independent) = stoplist_for(function, 2, &language)?;
        let params = if independent {
            Params::default().language_independent()
        } else {
            Params::default()
        };
        let (mut params, policy) = constant_options(
            function,
            3,
            constants.get(2).copied(),
            params,
            &[JUSTEXT_KEYS],
            RowKeys::Page,
        )?;
        params.limits = policy.limits;
        Ok(JustextConfig {
            stoplist,
            params,
            policy,
        })
    }
}
