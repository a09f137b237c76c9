//! `pii_redact(text [, options])`: datatrove's PIIFormatter, the text with e-mail and IP
//! addresses replaced.

use std::sync::LazyLock;

use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::logical_expr::Documentation;

use crate::datatrove::pii::{PII_KEYS, PiiCounters, PiiParams, pii_redact};
use crate::options::Keys;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::text_struct::{
    Cell, Row, TextStructFunction, TextStructKernel, text_options_argument,
};

/// `pii_redact(text [, options])`.
pub type PiiRedactFunc = TextStructFunction<PiiRedactKernel>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct PiiRedactKernel;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "E-mail and IP addresses replaced as HuggingFace datatrove 0.10.1's PIIFormatter replaces \
         them (FineWeb-2 ran it on every document): every match of its e-mail regex (after \
         Python's word boundary), then every match of its IPv4 regex in the result (it has no \
         boundaries: 256.1.1.1 holds 56.1.1.1) that Python 3.11's ipaddress reads (no octet with \
         a leading zero) and, unless only_remove_public_ips=false, calls global (Python 3.11.7's \
         table; multicast counts as global). Each match becomes the next string of a cycle of \
         replacements. datatrove's formatter carries its place in each cycle from one document \
         to the next, so its output depends on the order it saw the documents in; here each \
         text starts both cycles afresh, as a formatter built for that one document would: the \
         same output as datatrove wherever each cycle has one string or a text has at most one \
         replacement of a kind. Returns a struct: text, emails and ips (the replacements made). \
         NULL for NULL text.",
        "pii_redact(text [, options])",
    )
    .with_sql_example(
        "SELECT p['text'], p['emails'], p['ips']\n\
         FROM (SELECT pii_redact('Mail bob@corp.com from 8.8.8.8 or 10.0.0.1') AS p);\n\
         -- Mail email@example.com from 22.214.171.124 or 10.0.0.1 | 1 | 1",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        text_options_argument::<PiiRedactKernel>("setting datatrove's parameters", ""),
    )
    .with_related_udf("url_filter")
    .with_related_udf("c4_badwords")
    .build()
});

impl TextStructKernel for PiiRedactKernel {
    const NAME: &'static str = "pii_redact";
    type Options = PiiParams;
    const OPTION_KEYS: Keys<PiiParams> = PII_KEYS;
    type Config = PiiParams;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn fields() -> Fields {
        Fields::from(vec![
            Field::new("text", DataType::Utf8, true),
            Field::new("emails", DataType::Int64, true),
            Field::new("ips", DataType::Int64, true),
        ])
    }

    fn config(params: PiiParams) -> Result<PiiParams, String> {
        for (name, cycle) in [
            ("email_replacement", &params.email_replacement),
            ("ip_replacement", &params.ip_replacement),
        ] {
            if cycle.0.is_empty() {
                return Err(format!("{name} needs at least one replacement"));
            }
        }
        Ok(params)
    }

    fn row(row: &mut Row<'_, '_>, params: &PiiParams) -> Result<Vec<Cell>, String> {
        let redaction = pii_redact(row.text, params, &mut PiiCounters::default());
        Ok(vec![
            Cell::Text(Some(redaction.text.into_owned())),
            Cell::Count(redaction.emails),
            Cell::Count(redaction.ips),
        ])
    }
}
