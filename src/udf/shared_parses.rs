//! One decode and one parse per tree per page for every page function of a projection.
//!
//! DataFusion evaluates `SELECT justext(html), boilerpipe(html) FROM crawl` one expression at a
//! time over the whole batch, on one thread. The first page function to see a batch keeps its
//! parsed pages in a thread-local store, by row; the functions after it on the same batch take a
//! row's parse from there when the row holds the very same page (compared byte for byte, so a
//! later batch can never be mistaken for it) and asks for the same limits. jusText's functions
//! read the tree libxml2 builds and boilerpipe's the HTML5 one ([`Tree`]), as their references
//! do, so a query calling both decodes each page once and builds both trees. At most
//! [`KEPT_BYTES`] of parses are kept per thread: a batch larger than that shares only its first
//! pages. Nothing of the batch itself is held, only the parses.
//!
//! No memory pool counts the kept parses, so they are kept only where they will be read
//! ([`BatchReaders`]): a projection with one page function (`webtext clean`'s extractor, `SELECT
//! justext(html)`) keeps nothing once it has begun, where it kept up to [`KEPT_BYTES`] per
//! thread; a projection with several shares from its second batch on each thread.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use datafusion::arrow::array::Array;

use super::arrays::PageRef;
use super::thread_store::BatchReaders;
use crate::html::dom::{Node, Page};
use crate::html::limits::Limits;
use crate::justext::{JustextError, decode_for_justext};

/// What the kept parses of one thread may weigh: source, decoded text and tree nodes.
pub(crate) const KEPT_BYTES: usize = 32 << 20;

/// Which tree of a page a function reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tree {
    /// [`Page::parse_as_libxml2`]: the tree of jusText's reference (lxml).
    Libxml2,
    /// [`Page::parse_with`]: html5ever's tree builder, for boilerpipe.
    Html5,
}

/// A page as decoded (bytes the way jusText decodes them, text as is), and its trees as they
/// are asked for.
#[derive(Debug)]
pub(crate) struct ParsedPage {
    pub decoded: String,
    limits: Limits,
    libxml2: OnceLock<Page>,
    html5: OnceLock<Page>,
}

impl ParsedPage {
    fn new(decoded: String, limits: Limits) -> Self {
        ParsedPage {
            decoded,
            limits,
            libxml2: OnceLock::new(),
            html5: OnceLock::new(),
        }
    }

    fn cell(&self, tree: Tree) -> &OnceLock<Page> {
        match tree {
            Tree::Libxml2 => &self.libxml2,
            Tree::Html5 => &self.html5,
        }
    }

    /// The page's `tree`, built on first use.
    pub(crate) fn tree(&self, tree: Tree) -> &Page {
        self.cell(tree).get_or_init(|| {
            PAGES_PARSED.fetch_add(1, Ordering::Relaxed);
            #[cfg(test)]
            tests::PARSED_HERE.with(|count| count.set(count.get() + 1));
            match tree {
                Tree::Libxml2 => Page::parse_as_libxml2(&self.decoded, &self.limits),
                Tree::Html5 => Page::parse_with(&self.decoded, &self.limits),
            }
        })
    }

    /// What the page's trees built so far weigh.
    fn trees_weight(&self) -> usize {
        [&self.libxml2, &self.html5]
            .into_iter()
            .filter_map(OnceLock::get)
            .map(|page| page.nodes.len() * std::mem::size_of::<Node>())
            .sum()
    }
}

/// A kept parse and what it was made from.
struct Kept {
    /// The raw bytes of a binary page; `None` when the page was text (then `decoded` is it).
    bytes: Option<Box<[u8]>>,
    parsed: Arc<ParsedPage>,
}

impl Kept {
    fn is_of(&self, page: PageRef<'_>, limits: &Limits) -> bool {
        let built = &self.parsed.limits;
        built.max_depth == limits.max_depth
            && built.max_attributes == limits.max_attributes
            && match page {
                PageRef::Text(t) => self.bytes.is_none() && self.parsed.decoded == t,
                PageRef::Bytes(b) => self.bytes.as_deref() == Some(b),
            }
    }

    fn weight(&self) -> usize {
        self.bytes.as_ref().map_or(0, |b| b.len())
            + self.parsed.decoded.len()
            + self.parsed.trees_weight()
    }
}

/// The parses kept on a thread, by row of the last batch that stored them.
#[derive(Default)]
struct Store {
    rows: Vec<Option<Kept>>,
    weight: usize,
    readers: BatchReaders,
}

impl Store {
    /// Notes that a page function reads `pages`; another batch drops the last one's parses.
    fn reading(&mut self, pages: &dyn Array) {
        if self.readers.reading(pages) {
            self.rows.clear();
            self.weight = 0;
        }
    }

    /// Puts `kept` in `row` (or only empties it when the store would weigh too much, or keeps
    /// nothing for this batch).
    fn set(&mut self, row: usize, kept: Kept) {
        let Some(slot) = self.rows.get_mut(row) else {
            return;
        };
        if let Some(old) = slot.take() {
            self.weight -= old.weight();
        }
        if self.readers.keeping() && self.weight + kept.weight() <= KEPT_BYTES {
            self.weight += kept.weight();
            *slot = Some(kept);
        }
    }

    /// Weighs row `row`'s parse again after a tree was added to it (it weighed `weighed`
    /// before); drops it if the store is now too heavy.
    fn reweigh(&mut self, row: usize, weighed: usize) {
        if let Some(kept) = self.rows.get_mut(row).and_then(Option::take) {
            self.weight -= weighed;
            self.set(row, kept);
        }
    }

    fn resize(&mut self, rows: usize) {
        for old in self.rows.drain(rows.min(self.rows.len())..).flatten() {
            self.weight -= old.weight();
        }
        self.rows.resize_with(rows, || None);
    }
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::new(Store::default());
}

static PAGES_PARSED: AtomicU64 = AtomicU64::new(0);

/// How many trees the page functions of this process have built so far, a shared tree counted
/// once: the difference over a query shows whether it parsed each page once per tree it needs.
pub fn pages_parsed() -> u64 {
    PAGES_PARSED.load(Ordering::Relaxed)
}

/// The parses of the batch a page function is computing, row by row in order: call
/// [`SharedParses::next_row`] once for every row (NULL rows too), and [`SharedParses::parse`] for
/// the rows it processes. Dropping it leaves the parses for the next function of the batch.
pub(crate) struct SharedParses {
    store: Store,
    limits: Limits,
    row: usize,
}

impl SharedParses {
    /// The parses kept on this thread, for a batch of `pages`.
    pub(crate) fn for_pages(pages: &dyn Array, limits: &Limits) -> SharedParses {
        let mut store = super::thread_store::take(&STORE);
        store.reading(pages);
        store.resize(pages.len());
        SharedParses {
            store,
            limits: *limits,
            row: 0,
        }
    }

    /// Moves to the next row; returns its index.
    pub(crate) fn next_row(&mut self) -> usize {
        self.row += 1;
        self.row - 1
    }

    /// Row `row`'s page, decoded and with its `tree` built, or as an earlier function of the
    /// batch left it.
    pub(crate) fn parse(
        &mut self,
        row: usize,
        page: PageRef<'_>,
        tree: Tree,
    ) -> Result<Arc<ParsedPage>, JustextError> {
        if let Some(Some(kept)) = self.store.rows.get(row)
            && kept.is_of(page, &self.limits)
        {
            let parsed = Arc::clone(&kept.parsed);
            if parsed.cell(tree).get().is_none() {
                let weighed = kept.weight();
                parsed.tree(tree);
                self.store.reweigh(row, weighed);
            }
            return Ok(parsed);
        }
        let (decoded, bytes) = match page {
            PageRef::Text(t) => (t.to_owned(), None),
            PageRef::Bytes(b) => (decode_for_justext(b)?.into_owned(), Some(b.into())),
        };
        let parsed = Arc::new(ParsedPage::new(decoded, self.limits));
        parsed.tree(tree);
        let kept = Kept {
            bytes,
            parsed: Arc::clone(&parsed),
        };
        self.store.set(row, kept);
        Ok(parsed)
    }
}

impl Drop for SharedParses {
    fn drop(&mut self) {
        super::thread_store::put_back(&STORE, std::mem::take(&mut self.store));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    use datafusion::arrow::array::{ArrayRef, RecordBatch, StringArray};
    use datafusion::prelude::{SessionConfig, SessionContext};

    thread_local! {
        /// The trees built on this thread: [`pages_parsed`] counts those of every test running
        /// beside this one.
        pub(super) static PARSED_HERE: Cell<u64> = const { Cell::new(0) };
    }

    fn parse(
        pages: &StringArray,
        limits: &Limits,
        row: usize,
        page: PageRef<'_>,
    ) -> Arc<ParsedPage> {
        let mut shared = SharedParses::for_pages(pages, limits);
        for _ in 0..=row {
            shared.next_row();
        }
        shared.parse(row, page, Tree::Libxml2).expect("parses")
    }

    /// A batch of this thread read by two functions, after which the next batch's parses are
    /// kept.
    fn read_twice_before(limits: &Limits) {
        let before = StringArray::from(vec![Some("<p>before</p>")]);
        parse(&before, limits, 0, PageRef::Text("<p>before</p>"));
        parse(&before, limits, 0, PageRef::Text("<p>before</p>"));
    }

    fn kept_weight() -> usize {
        STORE.with(|store| store.borrow().weight)
    }

    #[test]
    fn a_later_function_of_the_batch_takes_the_kept_parse_of_the_same_page() {
        let pages = StringArray::from(vec![Some("<p>one</p>"), None, Some("<p>two</p>")]);
        let limits = Limits::default();
        read_twice_before(&limits);
        let one = parse(&pages, &limits, 0, PageRef::Text("<p>one</p>"));
        let two = parse(&pages, &limits, 2, PageRef::Text("<p>two</p>"));
        assert!(Arc::ptr_eq(
            &one,
            &parse(&pages, &limits, 0, PageRef::Text("<p>one</p>"))
        ));
        assert!(Arc::ptr_eq(
            &two,
            &parse(&pages, &limits, 2, PageRef::Text("<p>two</p>"))
        ));
        // Another page in the row, the same page as bytes, or other limits: parsed anew.
        let other = parse(&pages, &limits, 0, PageRef::Text("<p>une</p>"));
        assert!(!Arc::ptr_eq(&one, &other));
        let bytes = parse(&pages, &limits, 0, PageRef::Bytes(b"<p>une</p>"));
        assert!(!Arc::ptr_eq(&other, &bytes));
        let shallow = Limits {
            max_depth: 3,
            ..limits
        };
        assert!(!Arc::ptr_eq(
            &bytes,
            &parse(&pages, &shallow, 0, PageRef::Bytes(b"<p>une</p>"))
        ));
        // A shorter batch drops the rows past its end.
        let short = StringArray::from(vec![Some("<p>one</p>")]);
        parse(&short, &limits, 0, PageRef::Text("<p>one</p>"));
        let again = parse(&pages, &limits, 2, PageRef::Text("<p>two</p>"));
        assert!(!Arc::ptr_eq(&two, &again));
    }

    /// Parses are kept for a batch only when more than one function read the batch before it on
    /// the thread: one function alone keeps nothing once its first batch is read.
    #[test]
    fn a_batch_read_by_one_function_leaves_nothing_kept_for_the_next() {
        let limits = Limits::default();
        let batch = |text: &'static str| StringArray::from(vec![Some(text)]);
        let (first, second, third, fourth) = (
            batch("<p>1</p>"),
            batch("<p>2</p>"),
            batch("<p>3</p>"),
            batch("<p>4</p>"),
        );
        let read = |pages: &StringArray| {
            let page = PageRef::Text(pages.value(0));
            parse(pages, &limits, 0, page)
        };
        // The thread's first batch: nothing is known of the projection, nothing kept.
        let once = read(&first);
        assert!(!Arc::ptr_eq(&once, &read(&first)));
        assert_eq!(kept_weight(), 0);
        // Read twice before: kept and shared.
        let once = read(&second);
        assert!(kept_weight() > 0);
        assert!(Arc::ptr_eq(&once, &read(&second)));
        // Read twice before, read once now: kept (the projection cannot be known before its end).
        read(&third);
        assert!(kept_weight() > 0);
        // Read once before: the last batch's parses dropped, this one's not kept.
        let once = read(&fourth);
        assert_eq!(kept_weight(), 0);
        assert!(!Arc::ptr_eq(&once, &read(&fourth)));
    }

    /// A query calling several page functions decodes each page once and builds each tree it
    /// needs once: jusText's functions read libxml2's tree, boilerpipe's the HTML5 one. On a
    /// runtime of one thread, which evaluates the functions where the count is kept.
    #[tokio::test(flavor = "current_thread")]
    async fn the_page_functions_of_one_projection_parse_each_page_once() {
        let config = crate::configure(SessionConfig::new().with_target_partitions(1));
        let mut ctx = SessionContext::new_with_config(config);
        crate::register_all(&mut ctx).unwrap();
        // The parses of a batch are kept where the batch before it was read by several
        // functions: each query runs over other pages first, its parses counted the second time.
        let parses_of = |sql: &'static str, round: usize| {
            let ctx = ctx.clone();
            async move {
                parses_over(&ctx, sql, round * 2).await;
                parses_over(&ctx, sql, round * 2 + 1).await
            }
        };
        async fn parses_over(ctx: &SessionContext, sql: &str, round: usize) -> u64 {
            {
                // Other pages each time: a later query over the same pages would reuse their
                // parses.
                let pages = StringArray::from(vec![
                    Some(format!("<title>t</title><p>page {round}</p>")),
                    None,
                    Some(format!("<p>another page {round}</p>")),
                ]);
                let batch =
                    RecordBatch::try_from_iter([("html", Arc::new(pages) as ArrayRef)]).unwrap();
                ctx.deregister_table("pages").unwrap();
                ctx.register_batch("pages", batch).unwrap();
                let before = PARSED_HERE.with(Cell::get);
                let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
                assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 3);
                PARSED_HERE.with(Cell::get) - before
            }
        }
        assert_eq!(parses_of("SELECT justext(html) FROM pages", 1).await, 2);
        let justext =
            "SELECT justext(html), justext_paragraphs(html), justext_extract(html) FROM pages";
        assert_eq!(parses_of(justext, 2).await, 2);
        let boilerpipe = "SELECT boilerpipe(html), boilerpipe(html, 'article_head'), \
                          boilerpipe_blocks(html), html_title(html) FROM pages";
        assert_eq!(parses_of(boilerpipe, 3).await, 2);
        // Two trees per page: one for the jusText functions, one for the boilerpipe ones.
        let all = "SELECT justext(html), justext_paragraphs(html), justext_extract(html), \
                   boilerpipe(html), boilerpipe(html, 'article_head'), boilerpipe_blocks(html), \
                   html_title(html) FROM pages";
        assert_eq!(parses_of(all, 4).await, 4);
        // Other limits build other trees: those pages are parsed again.
        let limits =
            "SELECT boilerpipe(html), boilerpipe(html, 'article', 'max_depth=8') FROM pages";
        assert_eq!(parses_of(limits, 5).await, 4);
    }
}
