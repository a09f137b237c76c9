//! The crawl a `clean` run reads: its files, how they are read, and its table's schema.

use std::sync::Arc;

use crate::datasource::{InputFormat, InputKind, OnError, Shard, WarcOptions, input_table};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::dataframe::DataFrame;
use datafusion::prelude::SessionContext;

use crate::jobs::Result;
use crate::jobs::session::{input_kind, register_kind};

/// The crawl a run reads: how its files are read, and its table's schema (every shard of a
/// sharded run is read with the whole input's schema, so all shards have the same columns).
pub(super) struct Crawl {
    pub(super) kind: InputKind,
    warc_options: WarcOptions,
    table_schema: SchemaRef,
}

impl Crawl {
    pub(super) async fn register(
        ctx: &SessionContext,
        input: &str,
        max_payload_bytes: u64,
    ) -> Result<Crawl> {
        let kind = input_kind(ctx, "crawl", input).await?;
        // A WARC crawl: its HTML responses, the page as `html`; a fault of an archive is skipped
        // and counted (reported at the end), so one bad file does not end the job.
        let mut warc_options = WarcOptions {
            on_error: OnError::Skip,
            ..Default::default()
        };
        warc_options.set("max_payload_bytes", &max_payload_bytes.to_string())?;
        let crawl = Crawl {
            table_schema: crate::datasource::warc_schema(),
            warc_options,
            kind,
        };
        register_kind(
            ctx,
            crawl.table_name(),
            input,
            &crawl.kind,
            crawl.warc_options.clone(),
        )
        .await?;
        let table_schema = ctx.table_provider(crawl.table_name()).await?.schema();
        Ok(Crawl {
            table_schema,
            ..crawl
        })
    }

    pub(super) fn is_warc(&self) -> bool {
        self.kind.format == InputFormat::Warc
    }

    pub(super) fn table_name(&self) -> &'static str {
        if self.is_warc() { "warc" } else { "crawl" }
    }

    /// The pages of the registered table: the table itself, or a WARC table's HTML responses.
    pub(super) async fn pages(&self, ctx: &SessionContext) -> Result<DataFrame> {
        Ok(if self.is_warc() {
            ctx.sql(WARC_PAGES).await?
        } else {
            ctx.table("crawl").await?
        })
    }

    /// Registers the shard's input files as the table, in place of what it was.
    pub(super) async fn register_shard(&self, ctx: &SessionContext, shard: &Shard) -> Result<()> {
        self.register_files(ctx, &shard.urls()).await
    }

    /// Registers the input files at `urls` (some of the crawl's) as the table, in place of what
    /// it was.
    pub(super) async fn register_files(&self, ctx: &SessionContext, urls: &[&str]) -> Result<()> {
        let table = input_table(
            ctx,
            urls,
            &self.kind,
            self.warc_options.clone(),
            Some(Arc::clone(&self.table_schema)),
        )
        .await?;
        ctx.deregister_table(self.table_name())?;
        ctx.register_table(self.table_name(), table)?;
        Ok(())
    }
}

/// The pages of a WARC crawl (table `warc`): HTML responses, with what identifies them; the same
/// selection users run to convert an archive.
const WARC_PAGES: &str = include_str!("../../../sql/warc_to_parquet.sql");
