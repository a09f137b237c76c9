//! The input and output of a sharded run (`clean IN OUT/`): the pages of its shards one after
//! the other, each followed by its end, and the shard files, each committed at its end.

use std::sync::Arc;

use crate::datasource::{OutputFolder, Shard, ShardDone};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::internal_datafusion_err;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::prelude::SessionContext;
use futures::StreamExt;

use super::crawl::Crawl;
use super::pipeline::{CleanedBatch, CleanedSink, PageSource, Piece};
use crate::jobs::Result;
use crate::jobs::output::{OutputTarget, ParquetFile};
use crate::jobs::progress::Progress;

/// The pages of a sharded run's shards, one after the other, each followed by its end.
pub(super) struct ShardPages<'a> {
    pub(super) ctx: &'a SessionContext,
    pub(super) crawl: &'a Crawl,
    pub(super) shards: std::slice::Iter<'a, &'a Shard>,
    pub(super) current: Option<SendableRecordBatchStream>,
}

impl PageSource for ShardPages<'_> {
    async fn next_piece(&mut self) -> Option<Result<Piece>> {
        if self.current.is_none() {
            let shard = self.shards.next()?;
            match self.open(shard).await {
                Ok(stream) => self.current = Some(stream),
                Err(e) => return Some(Err(e)),
            }
        }
        let stream = self.current.as_mut()?;
        match stream.next().await {
            Some(batch) => Some(batch.map(Piece::Pages).map_err(Into::into)),
            None => {
                self.current = None;
                Some(Ok(Piece::EndOfPart))
            }
        }
    }
}

impl ShardPages<'_> {
    /// The shard's pages. The table is registered anew for each shard once the plan of the one
    /// before it is running, which holds its own files.
    async fn open(&self, shard: &Shard) -> Result<SendableRecordBatchStream> {
        self.crawl.register_shard(self.ctx, shard).await?;
        Ok(self.crawl.pages(self.ctx).await?.execute_stream().await?)
    }
}

/// The shards of a sharded run, in the order of `ShardPages`: each written under a temporary
/// name and committed at its end; the progress counted in input files.
pub(super) struct ShardFiles<'a> {
    pub(super) folder: &'a OutputFolder,
    pub(super) schema: SchemaRef,
    pub(super) shards: std::slice::Iter<'a, &'a Shard>,
    /// The shard being written, created at its first batch (or its end, for an empty shard).
    pub(super) file: Option<ParquetFile>,
    pub(super) html_bytes: u64,
    pub(super) written: Vec<ShardDone>,
    pub(super) progress: &'a mut Progress,
}

impl ShardFiles<'_> {
    fn current(&self) -> Result<&Shard> {
        self.shards
            .as_slice()
            .first()
            .copied()
            .ok_or_else(|| internal_datafusion_err!("more shard ends than shards").into())
    }

    fn create(&self) -> Result<ParquetFile> {
        let target = OutputTarget::in_folder(self.folder, &self.current()?.name);
        ParquetFile::create(&target, Arc::clone(&self.schema))
    }
}

impl CleanedSink for ShardFiles<'_> {
    fn write(&mut self, batch: &CleanedBatch) -> Result<()> {
        if self.file.is_none() {
            self.file = Some(self.create()?);
        }
        if let Some(file) = self.file.as_mut() {
            file.write(&batch.batch)?;
        }
        self.html_bytes += batch.html_bytes;
        Ok(())
    }

    async fn end_of_part(&mut self) -> Result<()> {
        let file = match self.file.take() {
            Some(file) => file,
            None => self.create()?,
        };
        let (rows, bytes) = file.close()?.commit_counted().await?;
        let shard = self.current()?;
        let (name, inputs) = (shard.name.clone(), shard.inputs.len() as u64);
        self.written.push(ShardDone { name, rows, bytes });
        self.progress
            .add(inputs, std::mem::take(&mut self.html_bytes));
        self.shards.next();
        Ok(())
    }
}
