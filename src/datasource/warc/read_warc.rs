//! `read_warc('path' [, 'on_error=skip, max_payload_bytes=N'])`: the records of WARC files, for
//! ad-hoc queries.

use std::sync::Arc;

use datafusion::catalog::{TableFunctionArgs, TableFunctionImpl, TableProvider};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::Expr;

use super::format::WarcOptions;
use super::table::warc_table;

/// The `read_warc` table function.
#[derive(Debug, Default)]
pub struct ReadWarc;

const USAGE: &str = "read_warc(path [, options]): path is a WARC file, a folder or a glob; options are \
                     'on_error=fail' (the default) or 'on_error=skip', and 'max_payload_bytes=N' \
                     (1 to 1073741824, default 67108864), separated by commas";

impl TableFunctionImpl for ReadWarc {
    fn call_with_args(&self, args: TableFunctionArgs) -> Result<Arc<dyn TableProvider>> {
        let texts = args
            .exprs()
            .iter()
            .map(|e| match e {
                Expr::Literal(
                    ScalarValue::Utf8(Some(s))
                    | ScalarValue::Utf8View(Some(s))
                    | ScalarValue::LargeUtf8(Some(s)),
                    _,
                ) => Ok(s.clone()),
                other => {
                    plan_err!("read_warc: arguments are string literals, not {other}; {USAGE}")
                }
            })
            .collect::<Result<Vec<_>>>()?;
        let (path, options) = match texts.as_slice() {
            [path] => (path, WarcOptions::default()),
            [path, options] => (path, parse_options(options)?),
            _ => return plan_err!("read_warc: {} arguments; {USAGE}", texts.len()),
        };
        Ok(warc_table(path, options)?)
    }
}

/// `on_error=skip, max_payload_bytes=N` (comma-separated `key=value`).
fn parse_options(text: &str) -> Result<WarcOptions> {
    let mut options = WarcOptions::default();
    for item in crate::options::key_values(text) {
        match item {
            Ok((key, value)) => {
                if let Err(e) = options.set(&key, value) {
                    return plan_err!("read_warc: {}; {USAGE}", e.message());
                }
            }
            Err(part) => return plan_err!("read_warc: '{part}' is not key=value; {USAGE}"),
        }
    }
    Ok(options)
}
