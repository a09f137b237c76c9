//! How a function treats each row: the limits a page is processed within, a caught panic, an
//! output that would not fit in Arrow's column, and `on_error`'s choice between a NULL row and a
//! failed query.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use datafusion::arrow::array::{Array, ArrayRef, StringBuilder};
use datafusion::common::{Result, exec_err};

use super::arrays::{PageRef, for_each_page};
use super::shared_parses::{SharedParses, Tree};
use crate::html::Page;
use crate::justext::JustextError;

pub(crate) use crate::options::RowPolicy;

/// Panics caught by the functions' row policy in this process.
static ROW_PANICS: AtomicU64 = AtomicU64::new(0);

/// How many panics the functions have caught so far in this process (each gave its row NULL, or
/// failed the query under `on_error=fail`). Any is a bug of ours: please report it.
pub fn row_panics() -> u64 {
    ROW_PANICS.load(Ordering::Relaxed)
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s
    } else {
        "(no message)"
    }
}

/// Runs `f`, catching a panic: counted in [`row_panics`] and returned as the reason a row (or a
/// step of a function without rows, or a batch of the `webtext` command) could not be
/// processed. Whatever `f` mutates must be left consistent by the caller when it panics
/// (truncated back, or written only after it returns).
pub fn catch_row_panic<T>(f: impl FnOnce() -> T) -> std::result::Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        ROW_PANICS.fetch_add(1, Ordering::Relaxed);
        format!(
            "internal error, please report it: {}",
            panic_message(panic.as_ref())
        )
    })
}

/// Arrow's string and list columns address their values with i32 offsets: one column of one
/// batch holds at most this many bytes (or items).
pub(crate) const COLUMN_CAPACITY: usize = i32::MAX as usize;

/// The number of bytes a writer writes, without keeping them.
#[derive(Default)]
struct ByteCount(usize);

impl fmt::Write for ByteCount {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// The options' [`RowPolicy`] applied to the rows of Arrow arrays, with DataFusion's errors under
/// `on_error=fail`: the policy is the algorithms' (they know nothing of DataFusion), its
/// application this layer's.
pub(crate) trait ArrowRowPolicy {
    /// The policy applied.
    fn policy(&self) -> &RowPolicy;

    /// Processes one row: `None` for a NULL page. A page over `max_bytes`, an error of `f` or a
    /// panic in `f` give `None` too, or an execution error naming the reason under `on_error=fail`.
    fn row<T, E: std::fmt::Display>(
        &self,
        function: &str,
        page: Option<PageRef<'_>>,
        f: impl FnOnce(PageRef<'_>) -> std::result::Result<T, E>,
    ) -> Result<Option<T>> {
        match page {
            Some(page) => self.guarded(function, page.len(), || f(page)),
            None => Ok(None),
        }
    }

    /// [`RowPolicy::row`] over a row of `len` stored bytes that is not NULL.
    fn guarded<T, E: std::fmt::Display>(
        &self,
        function: &str,
        len: usize,
        f: impl FnOnce() -> std::result::Result<T, E>,
    ) -> Result<Option<T>> {
        let limits = &self.policy().limits;
        let reason = if limits.too_large(len) {
            format!(
                "the page has {len} bytes, over max_bytes={}",
                limits.max_bytes
            )
        } else {
            match catch_row_panic(f) {
                Ok(Ok(value)) => return Ok(Some(value)),
                Ok(Err(e)) => e.to_string(),
                Err(panic) => panic,
            }
        };
        self.unprocessed(function, reason).map(|()| None)
    }

    /// A row that cannot be processed for `reason`: `Ok` (the row is NULL), or the execution
    /// error under `on_error=fail`.
    fn unprocessed(&self, function: &str, reason: impl fmt::Display) -> Result<()> {
        if self.policy().fail {
            exec_err!("{function}: {reason} (on_error=fail; on_error=null gives NULL instead)")
        } else {
            Ok(())
        }
    }

    /// `f(text)` under the policy: `None` for NULL text, and for text whose computation panicked.
    fn text_row<T>(
        &self,
        function: &str,
        text: Option<&str>,
        f: impl FnOnce(&str) -> T,
    ) -> Result<Option<T>> {
        match text {
            Some(text) => self.guarded(function, text.len(), || {
                Ok::<T, std::convert::Infallible>(f(text))
            }),
            None => Ok(None),
        }
    }

    /// Whether a row adding `extra` bytes (or items) to each column that holds `held` fits in
    /// the batch's output (see [`COLUMN_CAPACITY`]). Where it does not, the row policy decides:
    /// `Ok(false)`, the row is NULL and adds nothing, or the error under `on_error=fail`.
    fn fits(&self, function: &str, columns: &[(usize, usize)]) -> Result<bool> {
        if columns
            .iter()
            .all(|&(held, extra)| held.saturating_add(extra) <= COLUMN_CAPACITY)
        {
            return Ok(true);
        }
        self.unprocessed(
            function,
            "the batch's output would pass 2 GiB in one column, Arrow's limit for a string or list \
             column; smaller batches avoid it (datafusion.execution.batch_size)",
        )
        .map(|()| false)
    }

    /// Appends what `write` writes as one string value, if it fits in the column (see
    /// [`RowPolicy::fits`]); `Ok(false)` when the row is NULL instead and nothing was appended.
    fn append_written(
        &self,
        function: &str,
        out: &mut StringBuilder,
        write: impl Fn(&mut dyn fmt::Write) -> fmt::Result,
    ) -> Result<bool> {
        let mut len = ByteCount::default();
        let _ = write(&mut len);
        if !self.fits(function, &[(out.values_slice().len(), len.0)])? {
            return Ok(false);
        }
        // Straight into the builder's buffer; append_value("") ends the value.
        let _ = write(out);
        out.append_value("");
        Ok(true)
    }

    /// [`RowPolicy::row`] over the row's page, decoded, and its `tree` (`f(decoded, tree)`), or
    /// as an earlier page function of the batch left them. Call it once for every row of the
    /// batch, in order.
    fn parsed_row<T>(
        &self,
        function: &str,
        page: Option<PageRef<'_>>,
        parses: &mut SharedParses,
        tree: Tree,
        f: impl FnOnce(&str, &Page) -> std::result::Result<T, JustextError>,
    ) -> Result<Option<T>> {
        let row = parses.next_row();
        self.row(function, page, |page| {
            let parsed = parses.parse(row, page, tree)?;
            f(&parsed.decoded, parsed.tree(tree))
        })
    }
}

impl ArrowRowPolicy for RowPolicy {
    fn policy(&self) -> &RowPolicy {
        self
    }
}

/// One string per page: `value` computes a page's (`None`: NULL), `write` writes it into the
/// column, where the row policy makes it NULL instead if it would not fit
/// ([`RowPolicy::append_written`]).
pub(crate) fn string_per_page<T>(
    function: &str,
    pages: &dyn Array,
    policy: &RowPolicy,
    mut value: impl FnMut(Option<PageRef<'_>>) -> Result<Option<T>>,
    write: impl Fn(&T, &mut dyn fmt::Write) -> fmt::Result,
) -> Result<ArrayRef> {
    let mut out = StringBuilder::with_capacity(pages.len(), pages.get_buffer_memory_size() / 8);
    for_each_page(pages, |page| {
        let appended = match value(page)? {
            Some(v) => policy.append_written(function, &mut out, |w| write(&v, w))?,
            None => false,
        };
        if !appended {
            out.append_null();
        }
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::limits::Limits;

    /// The panic count is process-wide and other tests of this binary run at the same time:
    /// each of these tests causes one panic and checks that the count grew.
    fn panics_counted_by(f: impl FnOnce()) -> bool {
        let before = row_panics();
        f();
        row_panics() > before
    }

    #[test]
    fn a_panicking_text_row_is_null_and_counted_or_fails_under_on_error_fail() {
        let null = RowPolicy::for_text(false);
        let mut value = None;
        assert!(panics_counted_by(|| {
            value = Some(null.text_row("f", Some("text"), |_| -> u8 { panic!("boom") }));
        }));
        assert_eq!(value.map(|v| v.ok()), Some(Some(None)));
        assert_eq!(
            null.text_row("f", Some("text"), str::len).ok(),
            Some(Some(4))
        );
        assert_eq!(null.text_row("f", None, str::len).ok(), Some(None));
        // The text functions have no size limit.
        let long = "x".repeat(Limits::default().max_bytes + 1);
        assert_eq!(
            null.text_row("f", Some(&long), str::len).ok(),
            Some(Some(long.len()))
        );

        let fail = RowPolicy::for_text(true);
        let mut error = String::new();
        assert!(panics_counted_by(|| {
            if let Err(e) = fail.text_row("f", Some("text"), |_| -> u8 { panic!("boom") }) {
                error = e.strip_backtrace();
            }
        }));
        assert!(
            error.contains("f: internal error, please report it: boom (on_error=fail"),
            "{error}"
        );
    }

    #[test]
    fn output_past_a_columns_capacity_is_the_row_policys_null_or_error() {
        let null = RowPolicy::default();
        assert!(null.fits("f", &[(0, COLUMN_CAPACITY)]).unwrap());
        assert!(
            null.fits("f", &[(10, 20), (COLUMN_CAPACITY - 1, 1)])
                .unwrap()
        );
        assert!(!null.fits("f", &[(10, 20), (COLUMN_CAPACITY, 1)]).unwrap());
        assert!(!null.fits("f", &[(usize::MAX, usize::MAX)]).unwrap());
        let fail = RowPolicy {
            fail: true,
            ..RowPolicy::default()
        };
        let error = fail
            .fits("justext", &[(COLUMN_CAPACITY, 1)])
            .unwrap_err()
            .strip_backtrace();
        assert!(
            error.contains("justext: the batch's output would pass 2 GiB in one column"),
            "{error}"
        );
        // What does not fit is not appended.
        let mut out = StringBuilder::new();
        assert!(
            null.append_written("f", &mut out, |w| w.write_str("abc"))
                .unwrap()
        );
        assert_eq!(out.values_slice(), b"abc");
    }

    #[test]
    fn a_caught_panic_is_counted_and_its_message_kept() {
        let mut reason = String::new();
        assert!(panics_counted_by(|| {
            reason = catch_row_panic(|| -> u8 { panic!("at row {}", 3) }).unwrap_err();
        }));
        assert_eq!(reason, "internal error, please report it: at row 3");
    }
}
