//! `webtext sql`: statements from the command line or a file, run in order.

use std::path::PathBuf;

use clap::Args;
use datafusion::logical_expr::LogicalPlan;
use datafusion::prelude::SessionContext;
use datafusion::sql::parser::{DFParserBuilder, Statement};
use datafusion::sql::sqlparser::dialect::GenericDialect;
use futures::StreamExt;

use crate::datasource::{InputKind, Shard, WarcOptions, input_table, is_folder_location};
use crate::jobs::per_shard_files::{
    SHARD, SHARD_IN_CHECK, require_a_file_per_shard, require_shard_in_file_names, run_statement,
    shards_read,
};
use crate::jobs::session::{
    BATCH_ROWS, ClusterTables, TableSpec, compact_for_client, input_kind, is_remote, query_context,
    register_kind, register_tables, sibling_context,
};
use crate::jobs::sharded::{ShardedRun, ShardingArgs, ShardsWritten};
use crate::jobs::statements::execute;
use crate::jobs::{ExecArgs, Format, JobError, Result, output};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::tree_node::TreeNodeRecursion;

#[derive(Args)]
pub struct SqlArgs {
    /// A table for the queries: PATH is a file, a folder or a glob, local or in an object store
    /// (s3://, gs://, az://, https://), read by its extension: .parquet; .warc, .wet (.gz, .zst)
    /// as WARC records (`read_warc()`); .jsonl, .ndjson, .json, .csv, .tsv (also .gz, .zst, .bz2,
    /// .xz)
    #[arg(long = "table", short = 't', value_name = "NAME=PATH")]
    tables: Vec<TableSpec>,
    /// Read the statements from this file (several statements run in order)
    #[arg(long, short = 'f', value_name = "QUERY.sql", conflicts_with = "query")]
    file: Option<PathBuf>,
    /// The statements, separated by ';'
    #[arg(value_name = "QUERY", required_unless_present = "file")]
    query: Option<String>,
    /// Set a parameter the SQL declares with a line `-- @param NAME = DEFAULT`; `${NAME}` in the
    /// SQL is replaced by its value
    #[arg(long = "param", short = 'p', value_name = "NAME=VALUE", value_parser = crate::jobs::params::parse_assignment)]
    params: Vec<(String, String)>,
    /// How results are printed
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Write the last statement's result to this Parquet file (a path or an object-store URL)
    /// instead of printing it (streamed; the file appears only when complete). A folder (a path
    /// ending in `/`, an existing folder, `s3://bucket/out/`) is written as shards: the statements
    /// run once per shard of the sharded table's input files, in a session where that table is
    /// the shard's files (`${shard}` is the shard's name), the last one's result committed whole
    /// as the shard; it must work row by row (no GROUP BY, ORDER BY, join, LIMIT, window or
    /// DISTINCT), and the results of the others are not printed. With --cluster the statements
    /// run once per job of shards (--shards-per-job), over those shards' files, and the
    /// executors write the shards (a task per shard; ${shard} may name only a COPY's file per
    /// shard and a CREATE EXTERNAL TABLE's location). Rerunning the same command resumes,
    /// skipping the shards already written
    #[arg(long, short = 'o', value_name = "OUT.parquet|OUT/")]
    output: Option<String>,
    /// Sharded output: the table whose input files are divided into shards (needed when more
    /// than one --table is given)
    #[arg(long, value_name = "NAME")]
    shard_table: Option<String>,
    #[command(flatten)]
    sharding: ShardingArgs,
    #[command(flatten)]
    exec: ExecArgs,
}

impl SqlArgs {
    /// `webtext sql --table NAME=PATH ... QUERY --output FOLDER/` run by another command: the
    /// statements once per shard of `shard_table`, resumable as that command is.
    pub fn sharded(
        tables: Vec<TableSpec>,
        query: String,
        params: Vec<(String, String)>,
        (output, shard_table): (&str, &str),
        sharding: ShardingArgs,
        exec: ExecArgs,
    ) -> SqlArgs {
        SqlArgs {
            tables,
            file: None,
            query: Some(query),
            params,
            format: Format::Table,
            output: Some(output.to_owned()),
            shard_table: Some(shard_table.to_owned()),
            sharding,
            exec,
        }
    }

    /// What decides a sharded run's output, for the record a rerun is checked against.
    fn settings(&self, sql: &str) -> std::collections::BTreeMap<String, String> {
        let mut settings = std::collections::BTreeMap::from([
            ("sql".to_owned(), sql.to_owned()),
            (
                "tables".to_owned(),
                self.tables
                    .iter()
                    .map(|t| format!("{}={}", t.name, t.path))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
        ]);
        for (name, value) in &self.params {
            settings.insert(format!("param {name}"), value.clone());
        }
        settings
    }
}

/// What `sql` did: the rows its last statement wrote to `--output` (none printed), and with a
/// folder as output, its shards.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SqlSummary {
    pub rows_written: Option<u64>,
    pub shards: Option<ShardsWritten>,
}

impl From<ShardsWritten> for SqlSummary {
    fn from(shards: ShardsWritten) -> Self {
        SqlSummary {
            rows_written: Some(shards.rows),
            shards: Some(shards),
        }
    }
}

/// Runs the statements of `args` (a query or a file), printing each result, or writing the
/// last one to `--output`: one file, or a folder of shards, one per shard of the sharded table.
pub async fn run(args: SqlArgs) -> Result<SqlSummary> {
    let sql = match (&args.file, &args.query) {
        (Some(file), _) => std::fs::read_to_string(file)
            .map_err(JobError::io(format!("cannot read {}", file.display())))?,
        (None, Some(query)) => query.clone(),
        (None, None) => return Err(JobError::Usage("give a QUERY or --file".into())),
    };
    if let Some(output) = args.output.as_deref().filter(|o| is_folder_location(o)) {
        return run_sharded(&args, &sql, output).await.map(SqlSummary::from);
    }
    let sql = crate::jobs::params::substitute(&sql, &args.params)?;
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    register_tables(&ctx, &args.tables).await?;
    let rows_written = run_statements(&ctx, &sql, args.format, args.output.as_deref()).await?;
    Ok(SqlSummary {
        rows_written,
        shards: None,
    })
}

/// `sql --output OUT/`: the statements run once per shard of the sharded table, each in a session
/// of its own where that table is the shard's files (read with the whole table's schema); the
/// last statement's result is the shard, committed whole; the manifest last.
async fn run_sharded(args: &SqlArgs, sql: &str, output: &str) -> Result<ShardsWritten> {
    let on_cluster = is_remote(&args.exec);
    let sharded = shard_table(&args.tables, args.shard_table.as_deref())?;
    // Checked before anything is written: an unknown parameter, a syntax error, a ${shard} a
    // cluster cannot give, a COPY every shard would write again.
    let shard = if on_cluster { SHARD } else { SHARD_IN_CHECK };
    let statements = parse(&crate::jobs::params::substitute_with(
        sql,
        &args.params,
        &[("shard", shard)],
    )?)?;
    if on_cluster {
        require_shard_in_file_names(&statements)?;
    }
    require_a_file_per_shard(&statements, shard)?;
    let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
    let kind = input_kind(&ctx, &sharded.name, &sharded.path).await?;
    register_kind(
        &ctx,
        &sharded.name,
        &sharded.path,
        &kind,
        WarcOptions::default(),
    )
    .await?;
    let schema = ctx.table_provider(sharded.name.as_str()).await?.schema();
    let run = ShardedRun::prepare(
        &ctx,
        "sql",
        args.settings(sql),
        (&sharded.path, &kind),
        output,
        &args.sharding,
    )
    .await?;
    let others: Vec<TableSpec> = args
        .tables
        .iter()
        .filter(|t| t.name != sharded.name)
        .cloned()
        .collect();
    if on_cluster {
        return run_sharded_on_cluster(args, sql, (sharded, &kind, schema), &others, &run).await;
    }
    let mut progress = run.progress();
    let mut written = Vec::new();
    // As many shards at once as the session has partitions, their sessions sharing its memory
    // limit: a shard's statements alone often keep one core busy.
    let at_once = ctx.state().config().target_partitions().max(1);
    let result: Result<()> = async {
        let (ctx, others, kind, schema, run) = (&ctx, &others, &kind, &schema, &run);
        let mut shards = futures::stream::iter(run.pending())
            .map(|shard| async move {
                let ctx = sibling_context(ctx)?;
                register_tables(&ctx, others).await?;
                let table = input_table(
                    &ctx,
                    &shard.urls(),
                    kind,
                    WarcOptions::default(),
                    Some(schema.clone()),
                )
                .await?;
                ctx.register_table(sharded.name.as_str(), table)?;
                let (rows, bytes) = run_shard(&ctx, args, sql, run, shard).await?;
                let done = crate::datasource::ShardDone {
                    name: shard.name.clone(),
                    rows,
                    bytes,
                };
                Ok::<_, JobError>((shard, done))
            })
            .buffer_unordered(at_once);
        while let Some(finished) = shards.next().await {
            let (shard, done) = finished?;
            written.push(done);
            progress.add(shard.inputs.len() as u64, shard.input_bytes());
        }
        Ok(())
    }
    .await;
    progress.finish();
    if result.is_err() {
        run.abandon(&written).await;
    }
    result?;
    run.finish(written).await
}

/// `sql --output OUT/ --cluster`: the statements run once per job, in a session where the sharded
/// table is the job's shards' files; the last one's rows are written by the executors, a shard
/// per task, and only counts come back here.
async fn run_sharded_on_cluster(
    args: &SqlArgs,
    sql: &str,
    (sharded, kind, schema): (&TableSpec, &InputKind, SchemaRef),
    others: &[TableSpec],
    run: &ShardedRun,
) -> Result<ShardsWritten> {
    let started = std::time::Instant::now();
    let cluster = args.exec.cluster.as_deref().unwrap_or_default();
    // ${shard} stays, naming the files per shard of COPY and CREATE EXTERNAL TABLE.
    let sql = crate::jobs::params::substitute_with(sql, &args.params, &[("shard", SHARD)])?;
    let (sql, schema) = (sql.as_str(), &schema);
    let (written, _) = run
        .write_on_cluster(
            cluster,
            (args.sharding.shards_per_job, 0),
            |shards| async move {
                let ctx = query_context(&args.exec, Some(BATCH_ROWS)).await?;
                register_tables(&ctx, others).await?;
                let urls: Vec<&str> = shards.iter().flat_map(Shard::urls).collect();
                let table = input_table(
                    &ctx,
                    &urls,
                    kind,
                    WarcOptions::default(),
                    Some(schema.clone()),
                )
                .await?;
                ctx.register_table(sharded.name.as_str(), table)?;
                let mut statements = parse(sql)?;
                let last = statements
                    .pop()
                    .ok_or_else(|| JobError::Usage("no SQL statement given".into()))?;
                let mut per_shard_tables = Vec::new();
                for statement in statements {
                    per_shard_tables
                        .extend(run_statement(&ctx, statement, &shards, cluster).await?);
                }
                let df = execute(&ctx, last).await?.ok_or_else(|| {
                    JobError::Usage("the last statement gives no rows to write".into())
                })?;
                require_row_by_row(&df.clone().into_optimized_plan()?)?;
                let read = shards_read(&df, &per_shard_tables, shards)?;
                Ok((ctx, df, read))
            },
        )
        .await?;
    let rows: u64 = written.iter().map(|d| d.rows).sum();
    eprintln!(
        "webtext sql: {rows} rows in {:.2} s on the cluster, written by its executors as {} \
         shard(s) -> {}",
        started.elapsed().as_secs_f64(),
        written.len(),
        run.folder.location()
    );
    run.finish(written).await
}

/// The statements over one shard; the rows and bytes of the shard committed.
async fn run_shard(
    ctx: &SessionContext,
    args: &SqlArgs,
    sql: &str,
    run: &ShardedRun,
    shard: &Shard,
) -> Result<(u64, u64)> {
    let name = shard.name.trim_end_matches(".parquet");
    let sql = crate::jobs::params::substitute_with(sql, &args.params, &[("shard", name)])?;
    let last = run_all_but_last(ctx, &sql).await?;
    let df = execute(ctx, last)
        .await?
        .ok_or_else(|| JobError::Usage("the last statement gives no rows to write".into()))?;
    require_row_by_row(&df.clone().into_optimized_plan()?)?;
    let target = output::OutputTarget::in_folder(&run.folder, &shard.name);
    output::write_parquet_counted(df, &target).await
}

/// The table a sharded run divides: `--shard-table`, or the only table given.
fn shard_table<'a>(tables: &'a [TableSpec], named: Option<&str>) -> Result<&'a TableSpec> {
    let names = || {
        tables
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (named, tables) {
        (Some(name), _) => tables
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                JobError::Usage(format!(
                    "--shard-table {name}: no such --table (given: {})",
                    names()
                ))
            }),
        (None, [only]) => Ok(only),
        (None, []) => Err(JobError::Usage(
            "a sharded --output divides the input files of a table: give it with --table NAME=PATH"
                .into(),
        )),
        (None, _) => Err(JobError::Usage(format!(
            "a sharded --output divides the input files of one table: name it with --shard-table \
             (given: {})",
            names()
        ))),
    }
}

/// Refuses a last statement that combines rows (GROUP BY, ORDER BY, a join, LIMIT, a window,
/// DISTINCT, UNION): over shards, its result would be one per shard, not the query's.
fn require_row_by_row(plan: &LogicalPlan) -> Result<()> {
    let mut combining = None;
    plan.apply_with_subqueries(|node| {
        Ok(match node {
            LogicalPlan::Projection(_)
            | LogicalPlan::Filter(_)
            | LogicalPlan::SubqueryAlias(_)
            | LogicalPlan::TableScan(_)
            | LogicalPlan::Unnest(_)
            | LogicalPlan::EmptyRelation(_)
            | LogicalPlan::Values(_) => TreeNodeRecursion::Continue,
            other => {
                let shown = other.display().to_string();
                combining = Some(shown.split(':').next().unwrap_or_default().to_owned());
                TreeNodeRecursion::Stop
            }
        })
    })?;
    match combining {
        None => Ok(()),
        Some(node) => Err(JobError::Usage(format!(
            "a sharded --output writes each shard from its own input files, so the last statement \
             must work row by row (SELECT ... FROM ... WHERE ...); this one has {node}: write one \
             file (--output OUT.parquet), or aggregate the shards afterwards"
        ))),
    }
}

/// Parses every statement first, so a syntax error anywhere stops the run before anything executes.
pub fn parse(sql: &str) -> Result<Vec<Statement>> {
    let statements: Vec<Statement> = DFParserBuilder::new(sql)
        .with_dialect(&GenericDialect {})
        .build()?
        .parse_statements()?
        .into();
    if statements.is_empty() {
        return Err(JobError::Usage("no SQL statement given".into()));
    }
    Ok(statements)
}

/// Runs every statement of `sql` but the last, in order, and returns the last one unrun: the
/// pipelines whose last statement a command streams itself.
pub async fn run_all_but_last(ctx: &SessionContext, sql: &str) -> Result<Statement> {
    let mut statements = parse(sql)?;
    // parse gives at least one statement.
    let last = statements
        .pop()
        .ok_or_else(|| JobError::Usage("no SQL statement given".into()))?;
    for statement in statements {
        if let Some(df) = execute(ctx, statement).await? {
            crate::jobs::cluster::collect(df).await?;
        }
    }
    Ok(last)
}

/// Writes the result of a pipeline's last statement (as [`run_all_but_last`] returns it) to
/// `output` as Parquet, only its rows whose column `kept` is true with `kept_only`; returns the
/// rows written. On a cluster an executor writes the file; only its counts come back.
pub(crate) async fn write_last_statement(
    ctx: &SessionContext,
    last: Statement,
    kept_only: bool,
    output: &str,
) -> Result<u64> {
    let plan = ctx.state().statement_to_plan(last).await?;
    let mut frame = ctx.execute_logical_plan(plan).await?;
    if kept_only {
        frame = frame.filter(datafusion::prelude::col("kept"))?;
    }
    output::write_parquet(frame, &output::OutputTarget::at(ctx, output)?).await
}

/// Runs the statements in order, printing each result; with `output`, the last one's result is
/// written there instead, and its rows are returned.
pub async fn run_statements(
    ctx: &SessionContext,
    sql: &str,
    format: Format,
    output: Option<&str>,
) -> Result<Option<u64>> {
    let statements = parse(sql)?;
    let last = statements.len() - 1;
    let on_cluster = ctx
        .state()
        .config()
        .get_extension::<ClusterTables>()
        .is_some();
    for (i, statement) in statements.into_iter().enumerate() {
        let Some(df) = execute(ctx, statement).await? else {
            continue;
        };
        let df = if on_cluster {
            compact_for_client(df)?
        } else {
            df
        };
        match output {
            Some(location) if i == last => {
                let target = output::OutputTarget::at(ctx, location)?;
                let rows = output::write_parquet(df, &target).await?;
                eprintln!("wrote {rows} rows to {location}");
                return Ok(Some(rows));
            }
            _ => output::print(df, format).await?,
        }
    }
    Ok(None)
}
