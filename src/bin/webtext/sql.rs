//! `webtext sql`: statements from the command line or a file, run in order.

use std::path::PathBuf;

use clap::Args;
use datafusion::dataframe::DataFrame;
use datafusion::datasource::file_format::options::ParquetReadOptions;
use datafusion::logical_expr::{DdlStatement, LogicalPlan};
use datafusion::prelude::SessionContext;
use datafusion::sql::parser::{DFParserBuilder, Statement};
use datafusion::sql::sqlparser::dialect::GenericDialect;

use crate::session::{ClusterTables, TableSpec, is_remote, query_context, register_tables};
use crate::{CliError, ExecArgs, Format, Result, output};

#[derive(Args)]
pub(crate) struct SqlArgs {
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
    #[arg(long = "param", short = 'p', value_name = "NAME=VALUE", value_parser = crate::params::parse_assignment)]
    params: Vec<(String, String)>,
    /// How results are printed
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Write the last statement's result to this Parquet file (a path or an object-store URL)
    /// instead of printing it (streamed; the file appears only when complete)
    #[arg(long, short = 'o', value_name = "OUT.parquet")]
    output: Option<String>,
    #[command(flatten)]
    exec: ExecArgs,
}

pub(crate) async fn run(args: SqlArgs) -> Result<()> {
    let sql = match (&args.file, &args.query) {
        (Some(file), _) => std::fs::read_to_string(file)
            .map_err(CliError::io(format!("cannot read {}", file.display())))?,
        (None, Some(query)) => query.clone(),
        (None, None) => return Err(CliError::Usage("give a QUERY or --file".into())),
    };
    let sql = crate::params::substitute(&sql, &args.params)?;
    let ctx = query_context(&args.exec, Some(256)).await?;
    register_tables(&ctx, &args.tables, is_remote(&args.exec)).await?;
    run_statements(&ctx, &sql, args.format, args.output.as_deref()).await
}

/// Parses every statement first, so a syntax error anywhere stops the run before anything executes.
pub(crate) fn parse(sql: &str) -> Result<Vec<Statement>> {
    let statements: Vec<Statement> = DFParserBuilder::new(sql)
        .with_dialect(&GenericDialect {})
        .build()?
        .parse_statements()?
        .into();
    if statements.is_empty() {
        return Err(CliError::Usage("no SQL statement given".into()));
    }
    Ok(statements)
}

/// Runs every statement of `sql` but the last, in order, and returns the last one unrun: the
/// pipelines whose last statement a command streams itself.
pub(crate) async fn run_all_but_last(ctx: &SessionContext, sql: &str) -> Result<Statement> {
    let mut statements = parse(sql)?;
    // parse gives at least one statement.
    let last = statements
        .pop()
        .ok_or_else(|| CliError::Usage("no SQL statement given".into()))?;
    for statement in statements {
        if let Some(df) = execute(ctx, statement).await? {
            df.collect().await?;
        }
    }
    Ok(last)
}

/// Runs the statements in order, printing each result; with `output`, the last one's result is
/// written there instead.
pub(crate) async fn run_statements(
    ctx: &SessionContext,
    sql: &str,
    format: Format,
    output: Option<&str>,
) -> Result<()> {
    let statements = parse(sql)?;
    let last = statements.len() - 1;
    for (i, statement) in statements.into_iter().enumerate() {
        let Some(df) = execute(ctx, statement).await? else {
            continue;
        };
        match output {
            Some(location) if i == last => {
                let target = output::OutputTarget::at(ctx, location)?;
                let rows = output::write_parquet(df, &target).await?;
                eprintln!("wrote {rows} rows to {location}");
            }
            _ => output::print(df, format).await?,
        }
    }
    Ok(())
}

/// Plans a statement and starts it: the DataFrame of its result, or None for a `CREATE TABLE ...
/// AS` run on a cluster. Such a table cannot live in this process's memory as it does locally
/// (a plan that reads it could not be sent to the executors): its rows are written to a Parquet
/// file in the session's cluster folder and it is registered as that file.
pub(crate) async fn execute(
    ctx: &SessionContext,
    statement: Statement,
) -> Result<Option<DataFrame>> {
    let plan = ctx.state().statement_to_plan(statement).await?;
    let tables = ctx.state().config().get_extension::<ClusterTables>();
    match (plan, tables) {
        (LogicalPlan::Ddl(DdlStatement::CreateMemoryTable(create)), Some(tables)) => {
            let exists = ctx.table_exist(create.name.clone())?;
            if exists && create.if_not_exists {
                return Ok(None);
            }
            if exists && !create.or_replace {
                return Err(CliError::Usage(format!(
                    "table '{}' already exists",
                    create.name
                )));
            }
            let file = tables.next_file(create.name.table());
            let df = ctx
                .execute_logical_plan(create.input.as_ref().clone())
                .await?;
            output::write_parquet(df, &output::OutputTarget::local(&file)?).await?;
            if exists {
                ctx.deregister_table(create.name.clone())?;
            }
            let options = ParquetReadOptions::default().file_extension(".parquet");
            ctx.register_parquet(create.name.clone(), file.display().to_string(), options)
                .await?;
            Ok(None)
        }
        (plan, _) => Ok(Some(ctx.execute_logical_plan(plan).await?)),
    }
}
