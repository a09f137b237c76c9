//! Sharded output (`clean IN OUT/`, `sql --output OUT/`): the job's shards planned from its input
//! files, checked against what the folder already holds, and the manifest written last.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::Arc;

use crate::datasource::shard_writer::{
    ShardWriterExec, add_tallies, partition_per_shard, shards_done,
};
use crate::datasource::shards::{
    JOB_FILE, MANIFEST_FILE, Resumed, finish_folder, prepare_folder, unchosen_shard_bytes,
};
use crate::datasource::{
    InputKind, OutputFolder, Shard, ShardDone, ShardedJob, list_input_files, plan_shards,
};
use clap::Args;
use datafusion::dataframe::DataFrame;
use datafusion::execution::SessionStateBuilder;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_planner::{DefaultPhysicalPlanner, PhysicalPlanner};
use datafusion::prelude::SessionContext;
use futures::StreamExt;

use crate::jobs::output::OutputTarget;
use crate::jobs::progress::Progress;
use crate::jobs::{JobError, Result};

/// How a folder of shards is divided, and what may be replaced in it.
#[derive(Args, Clone, Debug)]
pub struct ShardingArgs {
    /// Sharded output: input files smaller than this are grouped into shards of at most this
    /// many bytes (0: one shard per input file) [default: 256 MiB, or the input's total over 64
    /// for a smaller input (at least 8 MiB), so that up to 64 cores have a shard each; a rerun
    /// keeps the size its job began with]
    #[arg(long, value_name = "BYTES")]
    pub shard_bytes: Option<u64>,
    /// Sharded output: replace what the folder holds (the Parquet files, the job's record and
    /// manifest), where a folder holding another job's output, or files that are not a job's, is
    /// refused
    #[arg(long)]
    pub overwrite: bool,
    /// Sharded output with --cluster: the shards are written by jobs of at most this many shards
    /// (a task each), two jobs in flight; a scheduler's work per task grows with the tasks of its
    /// job
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SHARDS_PER_JOB,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub shards_per_job: u64,
}

/// Shards per cluster job by default. Smaller jobs cost the scheduler less per task (the test
/// build: about 7 ms in a job of 250 tasks, 11 ms in one of 1,000; `benches/cluster_scale.sh`);
/// two jobs of 1,000 in flight keep up to 2,000 task slots busy.
const DEFAULT_SHARDS_PER_JOB: u64 = 1000;

impl Default for ShardingArgs {
    fn default() -> Self {
        ShardingArgs {
            shard_bytes: None,
            overwrite: false,
            shards_per_job: DEFAULT_SHARDS_PER_JOB,
        }
    }
}

/// A sharded run: its folder, its shards, and those an earlier run of the same job committed.
pub struct ShardedRun {
    pub folder: OutputFolder,
    command: &'static str,
    job: ShardedJob,
    resumed: Resumed,
    /// This run wrote the job's record (the folder held none, or --overwrite).
    new_record: bool,
    input_files: u64,
}

/// What a sharded run wrote: its shards and their rows, and the shards an earlier run of the
/// same job had committed (skipped).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardsWritten {
    pub written: usize,
    pub skipped: usize,
    /// The rows of the shards written by this run.
    pub rows: u64,
}

impl ShardedRun {
    /// Plans the shards of the files at `input` and readies `output` for them: a new job is
    /// recorded, the same job resumed, another job's folder refused (unless `--overwrite`).
    /// `settings` are what decides the output, which a rerun must repeat.
    pub async fn prepare(
        ctx: &SessionContext,
        command: &'static str,
        settings: BTreeMap<String, String>,
        (input, kind): (&str, &InputKind),
        output: &str,
        sharding: &ShardingArgs,
    ) -> Result<ShardedRun> {
        let folder = OutputFolder::open(&ctx.runtime_env(), output)?;
        let files = list_input_files(ctx, input, kind).await?;
        let input_files = files.len() as u64;
        let shard_bytes = match sharding.shard_bytes {
            Some(bytes) => bytes,
            None => unchosen_shard_bytes(&folder, &files, sharding.overwrite).await?,
        };
        let mut settings = settings;
        settings.insert("shard_bytes".into(), shard_bytes.to_string());
        let job = ShardedJob {
            command: command.into(),
            settings,
            shards: plan_shards(files, shard_bytes),
        };
        let new_record = sharding.overwrite || folder.read_text(JOB_FILE).await?.is_none();
        let resumed = prepare_folder(&folder, &job, sharding.overwrite)
            .await
            .map_err(|e| JobError::Usage(e.strip_backtrace()))?;
        crate::jobs::cleanup::resumable_at(output);
        if resumed.temporaries_removed > 0 {
            eprintln!(
                "webtext {command}: removed {} unfinished shard(s) an interrupted run left in {output}",
                resumed.temporaries_removed
            );
        }
        Ok(ShardedRun {
            folder,
            command,
            job,
            resumed,
            new_record,
            input_files,
        })
    }

    /// The shards still to write, in order.
    pub fn pending(&self) -> Vec<&Shard> {
        self.job
            .shards
            .iter()
            .filter(|s| !self.resumed.committed.contains_key(&s.name))
            .collect()
    }

    fn skipped_inputs(&self) -> u64 {
        self.job
            .shards
            .iter()
            .filter(|s| self.resumed.committed.contains_key(&s.name))
            .map(|s| s.inputs.len() as u64)
            .sum()
    }

    /// A progress bar counting input files, those of committed shards counted as skipped.
    pub fn progress(&self) -> Progress {
        let mut progress = Progress::new(Some(self.input_files), "input files");
        progress.skip(self.skipped_inputs());
        progress
    }

    /// After a failed run: the job's record is removed if this run wrote it and the folder holds
    /// no shard, so that the corrected command starts afresh rather than being refused as
    /// another job.
    pub async fn abandon(&self, written: &[ShardDone]) {
        if self.new_record && written.is_empty() && self.resumed.committed.is_empty() {
            let _ = self.folder.remove(JOB_FILE).await;
        }
    }

    /// [`ShardedRun::abandon`] after a run whose shards were written by others (a cluster's
    /// executors): only if the folder holds none of the job's shards.
    pub async fn abandon_unless_committed(&self) {
        let Ok(files) = self.folder.files().await else {
            return;
        };
        if !self.job.shards.iter().any(|s| files.contains_key(&s.name)) {
            self.abandon(&[]).await;
        }
    }

    /// Writes the manifest (after the last shard) and says what the run wrote and skipped.
    /// Temporary files that writers which did not finish left (a cluster's lost executors) are
    /// removed first.
    pub async fn finish(&self, written: Vec<ShardDone>) -> Result<ShardsWritten> {
        self.folder.remove_temporaries().await?;
        let count = written.len();
        let summary = ShardsWritten {
            written: count,
            skipped: self.resumed.committed.len(),
            rows: written.iter().map(|done| done.rows).sum(),
        };
        finish_folder(&self.folder, &self.job, written, &self.resumed.committed).await?;
        eprintln!(
            "webtext {}: {count} shard(s) written, {} skipped ({} of {} input files: committed by \
             an earlier run); manifest {}",
            self.command,
            self.resumed.committed.len(),
            self.skipped_inputs(),
            self.input_files,
            OutputTarget::in_folder(&self.folder, MANIFEST_FILE).shown()
        );
        Ok(summary)
    }

    /// The shards still to write, written by a cluster's executors, in jobs of at most
    /// `shards_per_job` shards with two jobs in flight (the next job's tasks take the cores the
    /// last tasks of the one before leave idle). For each job, `job_rows` gives a session on the
    /// cluster, the rows to write and the shards as the rows read them: a query over exactly that
    /// job's shards' input files (or over files made from them, one per shard, under the shard's
    /// name), row by row, planned here with a partition per shard under a writer of the shards.
    /// Each task commits its shard and sends back a row of counts, never the rows; the rows'
    /// last `tallied` columns are summed there, not written ([`ShardWriterExec::with_tallied`]),
    /// and returned summed over the shards written. After a failure the run is abandoned unless a
    /// shard was committed ([`ShardedRun::abandon_unless_committed`]).
    pub async fn write_on_cluster<F, Fut>(
        &self,
        cluster: &str,
        (shards_per_job, tallied): (u64, usize),
        job_rows: F,
    ) -> Result<(Vec<ShardDone>, Vec<u64>)>
    where
        F: Fn(Vec<Shard>) -> Fut,
        Fut: Future<Output = Result<(SessionContext, DataFrame, Vec<Shard>)>>,
    {
        let pending: Vec<Shard> = self.pending().into_iter().cloned().collect();
        let inputs: HashMap<&str, u64> = pending
            .iter()
            .map(|s| (s.name.as_str(), s.inputs.len() as u64))
            .collect();
        let progress = RefCell::new(self.progress());
        let mut written = Vec::new();
        let sums = RefCell::new(vec![0u64; tallied]);
        let result: Result<()> = async {
            let jobs = pending
                .chunks(usize::try_from(shards_per_job).unwrap_or(usize::MAX).max(1))
                .map(|shards| async {
                    let (ctx, rows, read) = job_rows(shards.to_vec()).await?;
                    let folder = self.folder.absolute_location();
                    let plan = plan_shard_writer(&ctx, rows, &read, folder, tallied).await?;
                    let mut stream =
                        crate::jobs::cluster::execute_physical(&ctx, cluster, plan).await?;
                    let mut written = Vec::new();
                    while let Some(batch) = stream.next().await {
                        let batch = batch.map_err(|e| self.job_failed(e))?;
                        add_tallies(&mut sums.borrow_mut(), &batch)?;
                        for done in shards_done(&batch)? {
                            let files = inputs.get(done.name.as_str()).copied().unwrap_or(0);
                            progress.borrow_mut().add(files, done.bytes);
                            written.push(done);
                        }
                    }
                    Ok::<_, JobError>(written)
                });
            let mut jobs = futures::stream::iter(jobs).buffered(2);
            while let Some(done) = jobs.next().await {
                written.extend(done?);
            }
            Ok(())
        }
        .await;
        progress.into_inner().finish();
        if result.is_err() {
            self.abandon_unless_committed().await;
        }
        result.map(|()| (written, sums.into_inner()))
    }

    fn job_failed(&self, e: impl std::fmt::Display) -> JobError {
        JobError::Usage(format!(
            "the job on the cluster failed: {e}; the shards it committed stay in {}, and rerunning \
             the command writes the others",
            self.folder.location()
        ))
    }
}

/// `rows` planned to write `shards` into the folder at `folder` (a local folder's absolute path or
/// an object-store URL): a partition per shard (none split or merged on the way) under a writer
/// of the shards, each under its shard's name; the last `tallied` columns summed, not written.
pub async fn plan_shard_writer(
    ctx: &SessionContext,
    rows: DataFrame,
    shards: &[Shard],
    folder: String,
    tallied: usize,
) -> Result<Arc<dyn ExecutionPlan>> {
    let config = ctx
        .copied_config()
        .with_target_partitions(shards.len())
        .with_round_robin_repartition(false)
        .with_repartition_file_scans(false);
    let state = SessionStateBuilder::new_from_existing(ctx.state())
        .with_config(config)
        .build();
    let logical = state.optimize(rows.logical_plan())?;
    let plan = DefaultPhysicalPlanner::default()
        .create_physical_plan(&logical, &state)
        .await?;
    let plan = partition_per_shard(plan, shards)?;
    let writer = ShardWriterExec::for_shards(plan, folder, shards)?.with_tallied(tallied)?;
    Ok(Arc::new(writer))
}
