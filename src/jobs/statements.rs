//! How one statement runs once planned: a `CREATE TABLE ... AS` on a cluster becomes a Parquet
//! file in the session's cluster folder, a `COPY` to one Parquet file is written by this project
//! (staged, committed whole), every other statement is DataFusion's.

use datafusion::dataframe::DataFrame;
use datafusion::datasource::file_format::options::ParquetReadOptions;
use datafusion::logical_expr::{DdlStatement, LogicalPlan};
use datafusion::prelude::SessionContext;
use datafusion::sql::parser::Statement;

use crate::jobs::session::ClusterTables;
use crate::jobs::{JobError, Result, output};

/// Plans a statement and starts it: the DataFrame of its result, or None for a `CREATE TABLE ...
/// AS` run on a cluster. Such a table cannot live in this process's memory as it does locally
/// (a plan that reads it could not be sent to the executors): its rows are written to a Parquet
/// file in the session's cluster folder and it is registered as that file.
pub async fn execute(ctx: &SessionContext, statement: Statement) -> Result<Option<DataFrame>> {
    execute_plan(ctx, ctx.state().statement_to_plan(statement).await?).await
}

/// [`execute`] of a planned statement.
pub async fn execute_plan(ctx: &SessionContext, plan: LogicalPlan) -> Result<Option<DataFrame>> {
    let tables = ctx.state().config().get_extension::<ClusterTables>();
    match (plan, tables) {
        (LogicalPlan::Ddl(DdlStatement::CreateMemoryTable(create)), Some(tables)) => {
            let exists = ctx.table_exist(create.name.clone())?;
            if exists && create.if_not_exists {
                return Ok(None);
            }
            if exists && !create.or_replace {
                return Err(JobError::Usage(format!(
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
        (LogicalPlan::Copy(copy), _) if writes_one_parquet_file(&copy) => {
            let rows = ctx
                .execute_logical_plan(copy.input.as_ref().clone())
                .await?;
            create_local_folder_of(&copy.output_url)?;
            let target = output::OutputTarget::at(ctx, &copy.output_url)?;
            let count = output::write_parquet(rows, &target).await?;
            Ok(Some(copied_count(count)?))
        }
        (plan, _) => Ok(Some(ctx.execute_logical_plan(plan).await?)),
    }
}

/// Whether a `COPY` writes one Parquet file, with no format option, which this project writes
/// itself: staged and committed whole, so a stopped run leaves no partial file, and on a cluster
/// written by an executor (DataFusion's writer there writes again beside a lost task's files).
/// Other copies (a folder, partitioned, CSV or JSON, format options) are DataFusion's.
pub fn writes_one_parquet_file(copy: &datafusion::logical_expr::dml::CopyTo) -> bool {
    let url = copy.output_url.to_ascii_lowercase();
    copy.file_type.get_ext().eq_ignore_ascii_case("parquet")
        && url.ends_with(".parquet")
        && copy.partition_by.is_empty()
        && copy.options.is_empty()
}

/// The folder of a local file `COPY` writes, made if missing, as DataFusion's `COPY` makes it.
pub fn create_local_folder_of(location: &str) -> Result<()> {
    if crate::datasource::is_store_url(location) {
        return Ok(());
    }
    match std::path::Path::new(location).parent() {
        Some(folder) if !folder.as_os_str().is_empty() => std::fs::create_dir_all(folder)
            .map_err(JobError::io(format!("cannot create {}", folder.display()))),
        _ => Ok(()),
    }
}

/// What a `COPY` returns: the rows written, as column `count`. In a session of its own, so
/// printing it runs here, never as a cluster job.
fn copied_count(rows: u64) -> Result<DataFrame> {
    use datafusion::arrow::array::{RecordBatch, UInt64Array};
    use datafusion::arrow::datatypes::{DataType, Field, Schema};
    let schema = Schema::new(vec![Field::new("count", DataType::UInt64, false)]);
    let batch = RecordBatch::try_new(
        std::sync::Arc::new(schema),
        vec![std::sync::Arc::new(UInt64Array::from(vec![rows]))],
    )?;
    Ok(SessionContext::new().read_batch(batch)?)
}
