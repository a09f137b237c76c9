//! One parse per page for every page function of a projection.
//!
//! DataFusion evaluates `SELECT justext(html), boilerpipe(html) FROM crawl` one expression at a
//! time over the whole batch, on one thread. The first page function to see a batch keeps its
//! parsed pages in a thread-local store, keyed by the identity of the column's buffers; the
//! functions after it on the same batch take their pages from there instead of parsing again.
//! The store holds a reference to the column's buffers, so a later batch can never be mistaken for
//! it (equal pointers mean the same, still allocated, immutable data), and it keeps at most
//! [`KEPT_BYTES`] of pages per thread: a batch larger than that shares only its first pages.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use datafusion::arrow::array::{Array, ArrayData};

use super::common::PageRef;
use crate::html::dom::{Node, Page};
use crate::html::limits::Limits;
use crate::justext::{JustextError, decode_for_justext};

/// What the kept parses of one thread may weigh: decoded text plus tree nodes.
pub(crate) const KEPT_BYTES: usize = 32 << 20;

/// A page as decoded (bytes the way jusText decodes them, text as is) and parsed.
#[derive(Debug)]
pub(crate) struct ParsedPage {
    pub decoded: String,
    pub page: Page,
}

impl ParsedPage {
    fn weight(&self) -> usize {
        self.decoded.len() + self.page.nodes.len() * std::mem::size_of::<Node>()
    }
}

/// The parses of one batch's page column.
struct BatchParses {
    /// The column, held so its buffers stay allocated while their addresses identify it.
    data: ArrayData,
    /// The limits the pages were parsed within (`max_bytes` is checked before parsing).
    max_depth: u32,
    max_attributes: usize,
    pages: Vec<Option<Arc<ParsedPage>>>,
    weight: usize,
}

impl BatchParses {
    fn is_for(&self, data: &ArrayData, limits: &Limits) -> bool {
        self.data.ptr_eq(data)
            && self.max_depth == limits.max_depth
            && self.max_attributes == limits.max_attributes
    }
}

thread_local! {
    static LAST_BATCH: RefCell<Option<BatchParses>> = const { RefCell::new(None) };
}

static PAGES_PARSED: AtomicU64 = AtomicU64::new(0);

/// How many pages the page functions of this process have parsed so far, a shared parse counted
/// once: the difference over a query shows whether it parsed each page once.
pub fn pages_parsed() -> u64 {
    PAGES_PARSED.load(Ordering::Relaxed)
}

/// The parses of the batch a page function is computing, row by row in order: call
/// [`SharedParses::next_row`] once for every row (NULL rows too), and [`SharedParses::parse`] for
/// the rows it processes. Dropping it leaves the parses for the next function of the batch.
pub(crate) struct SharedParses {
    batch: Option<BatchParses>,
    limits: Limits,
    row: usize,
}

impl SharedParses {
    /// The parses kept for `pages` by an earlier function of the batch, or a new, empty set.
    pub(crate) fn for_pages(pages: &dyn Array, limits: &Limits) -> SharedParses {
        let data = pages.to_data();
        let kept = LAST_BATCH
            .with(|last| last.borrow_mut().take())
            .filter(|batch| batch.is_for(&data, limits));
        let batch = kept.unwrap_or_else(|| BatchParses {
            pages: vec![None; data.len()],
            data,
            max_depth: limits.max_depth,
            max_attributes: limits.max_attributes,
            weight: 0,
        });
        SharedParses {
            batch: Some(batch),
            limits: *limits,
            row: 0,
        }
    }

    /// Moves to the next row; returns its index.
    pub(crate) fn next_row(&mut self) -> usize {
        self.row += 1;
        self.row - 1
    }

    /// Row `row`'s page, decoded and parsed, or as an earlier function of the batch parsed it.
    pub(crate) fn parse(
        &mut self,
        row: usize,
        page: PageRef<'_>,
    ) -> Result<Arc<ParsedPage>, JustextError> {
        let slot = self.batch.as_mut().and_then(|b| b.pages.get_mut(row));
        if let Some(Some(parsed)) = slot.as_deref() {
            return Ok(Arc::clone(parsed));
        }
        let decoded = match page {
            PageRef::Text(t) => t.to_owned(),
            PageRef::Bytes(b) => decode_for_justext(b)?.into_owned(),
        };
        let page = Page::parse_with(&decoded, &self.limits);
        PAGES_PARSED.fetch_add(1, Ordering::Relaxed);
        let parsed = Arc::new(ParsedPage { decoded, page });
        if let Some(batch) = self.batch.as_mut()
            && batch.weight + parsed.weight() <= KEPT_BYTES
            && let Some(slot) = batch.pages.get_mut(row)
        {
            batch.weight += parsed.weight();
            *slot = Some(Arc::clone(&parsed));
        }
        Ok(parsed)
    }
}

impl Drop for SharedParses {
    fn drop(&mut self) {
        let batch = self.batch.take();
        // Never panic in a drop (thread-local storage may be gone at thread exit).
        let _ = LAST_BATCH.try_with(|last| {
            if let Ok(mut last) = last.try_borrow_mut() {
                *last = batch;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::arrow::array::StringArray;

    #[test]
    fn a_later_function_of_the_batch_takes_the_kept_parse() {
        let pages = StringArray::from(vec![Some("<p>one</p>"), None, Some("<p>two</p>")]);
        let limits = Limits::default();
        let first = {
            let mut shared = SharedParses::for_pages(&pages, &limits);
            let row = shared.next_row();
            let p0 = shared.parse(row, PageRef::Text("<p>one</p>"));
            shared.next_row();
            let row = shared.next_row();
            let p2 = shared.parse(row, PageRef::Text("<p>two</p>"));
            [p0.ok(), p2.ok()]
        };
        let mut shared = SharedParses::for_pages(&pages, &limits);
        let again = shared.parse(0, PageRef::Text("<p>one</p>")).ok();
        assert!(Arc::ptr_eq(
            first[0].as_ref().unwrap(),
            again.as_ref().unwrap()
        ));
        drop(shared);

        // Another array with the same text, or other limits, parse anew.
        let copy = StringArray::from(vec![Some("<p>one</p>"), None, Some("<p>two</p>")]);
        let mut shared = SharedParses::for_pages(&copy, &limits);
        let fresh = shared.parse(0, PageRef::Text("<p>one</p>")).ok();
        assert!(!Arc::ptr_eq(
            first[0].as_ref().unwrap(),
            fresh.as_ref().unwrap()
        ));
        drop(shared);
        let shallow = Limits {
            max_depth: 3,
            ..limits
        };
        let mut shared = SharedParses::for_pages(&copy, &shallow);
        let other = shared.parse(0, PageRef::Text("<p>one</p>")).ok();
        assert!(!Arc::ptr_eq(
            fresh.as_ref().unwrap(),
            other.as_ref().unwrap()
        ));
    }
}
