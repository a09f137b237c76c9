//! `${shard}` in a sharded `sql --output OUT/` run on a cluster. There the statements run once for
//! a whole job of shards, not once per shard as in one process, so `${shard}` cannot stand for
//! one shard's name in the SQL. It may still name a file per shard, which is how a script writes
//! its side outputs (FineWeb's decisions): a `COPY (...) TO 'decisions/${shard}.parquet'` over
//! the sharded table is written by the executors, a file per shard under the shard's name, and a
//! `CREATE EXTERNAL TABLE ... LOCATION 'decisions/${shard}.parquet'` is the job's files of them.
//! A last statement that reads such a table is written, a shard per task, from the files of each
//! shard, so the run's output is the one the same SQL gives in one process.

use crate::datasource::shard_writer::shards_done;
use crate::datasource::{InputFile, OutputFolder, Shard};
use datafusion::common::TableReference;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::dataframe::DataFrame;
use datafusion::datasource::listing::ListingTableUrl;
use datafusion::logical_expr::dml::CopyTo;
use datafusion::logical_expr::{DdlStatement, LogicalPlan};
use datafusion::prelude::SessionContext;
use datafusion::sql::parser::Statement;
use futures::StreamExt;

use crate::jobs::sharded::plan_shard_writer;
use crate::jobs::{JobError, Result};

/// What `${shard}` is left as in the SQL of a run on a cluster.
pub const SHARD: &str = "${shard}";

/// Refuses `${shard}` anywhere but in a `COPY`'s file and a `CREATE EXTERNAL TABLE`'s
/// locations: on a cluster it cannot be one shard's name elsewhere.
pub fn require_shard_in_file_names(statements: &[Statement]) -> Result<()> {
    let last = statements.len().saturating_sub(1);
    for (i, statement) in statements.iter().enumerate() {
        let names_files = match statement {
            Statement::CopyTo(copy) => {
                copy.target.contains(SHARD) && !copy.source.to_string().contains(SHARD)
            }
            Statement::CreateExternalTable(create) => {
                create.locations.iter().any(|l| l.contains(SHARD))
                    && !create.name.to_string().contains(SHARD)
            }
            _ => false,
        };
        if statement.to_string().contains(SHARD) && (i == last || !names_files) {
            return Err(JobError::Usage(format!(
                "with --cluster the statements run once for a whole job of shards, so ${{shard}} \
                 can name only a file per shard, in a COPY's file or a CREATE EXTERNAL TABLE's \
                 location, before the last statement; not in: {}",
                shortened(&statement.to_string())
            )));
        }
    }
    Ok(())
}

/// What `${shard}` stands for while a sharded run's SQL is checked in one process, where each
/// shard gets its own name later: a word no script holds otherwise, valid in a name and a path.
pub const SHARD_IN_CHECK: &str = "webtext_shard_name";

/// Refuses a `COPY` to one file in a sharded run: every shard (in one process, several at once)
/// or every job of shards (on a cluster) runs the statements, so each would write that file
/// again, and it would end with one shard's rows. `shard` is what `${shard}` became.
pub fn require_a_file_per_shard(statements: &[Statement], shard: &str) -> Result<()> {
    for statement in statements {
        if let Statement::CopyTo(copy) = statement
            && !copy.target.contains(shard)
        {
            return Err(JobError::Usage(format!(
                "a sharded run (--output OUT/) runs the statements for every shard, so a COPY to \
                 one file would be written again by each shard, some at once; name a file per \
                 shard with ${{shard}} (TO 'decisions/${{shard}}.parquet'): {}",
                shortened(&statement.to_string())
            )));
        }
    }
    Ok(())
}

fn shortened(text: &str) -> String {
    match text.char_indices().nth(120) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}

/// A table read from a file per shard: its name and its locations, with `${shard}`.
pub struct PerShardTable {
    name: TableReference,
    locations: Vec<String>,
}

/// Runs one statement of a job of `shards` on the cluster at `cluster` (all but the last):
/// a `COPY` into a file per shard written by the executors; a table of files per shard made the
/// job's files of it (and returned); any other statement run and its result dropped, as a
/// sharded run does.
pub async fn run_statement(
    ctx: &SessionContext,
    statement: Statement,
    shards: &[Shard],
    cluster: &str,
) -> Result<Option<PerShardTable>> {
    match ctx.state().statement_to_plan(statement).await? {
        LogicalPlan::Copy(copy) if copy.output_url.contains(SHARD) => {
            copy_per_shard(ctx, copy, shards, cluster).await?;
        }
        LogicalPlan::Ddl(DdlStatement::CreateExternalTable(mut create))
            if create.locations.iter().any(|l| l.contains(SHARD)) =>
        {
            let table = PerShardTable {
                name: create.name.clone(),
                locations: create.locations.clone(),
            };
            create.locations = shards
                .iter()
                .flat_map(|shard| table.files_of(shard))
                .collect();
            let plan = LogicalPlan::Ddl(DdlStatement::CreateExternalTable(create));
            ctx.execute_logical_plan(plan).await?;
            return Ok(Some(table));
        }
        plan => {
            if let Some(df) = crate::jobs::statements::execute_plan(ctx, plan).await? {
                crate::jobs::cluster::collect(df).await?;
            }
        }
    }
    Ok(None)
}

impl PerShardTable {
    /// The files of `shard`: each location with `${shard}` its name.
    fn files_of(&self, shard: &Shard) -> Vec<String> {
        self.locations
            .iter()
            .map(|location| file_of(location, shard))
            .collect()
    }
}

/// `location` with `${shard}` the shard's name, as a shard of one process names its files.
fn file_of(location: &str, shard: &Shard) -> String {
    location.replace(SHARD, shard.name.trim_end_matches(".parquet"))
}

/// The shards as `rows` reads them: the shards themselves, or, when `rows` reads a table of
/// `tables`, a shard per shard of its files under the same name.
pub fn shards_read(
    rows: &DataFrame,
    tables: &[PerShardTable],
    shards: Vec<Shard>,
) -> Result<Vec<Shard>> {
    let mut scanned = Vec::new();
    rows.logical_plan().apply_with_subqueries(|node| {
        if let LogicalPlan::TableScan(scan) = node {
            scanned.push(scan.table_name.clone());
        }
        Ok(TreeNodeRecursion::Continue)
    })?;
    let Some(table) = tables
        .iter()
        .rev()
        .find(|t| scanned.iter().any(|s| s.resolved_eq(&t.name)))
    else {
        return Ok(shards);
    };
    shards
        .into_iter()
        .map(|shard| {
            let inputs = table
                .files_of(&shard)
                .iter()
                .map(|file| {
                    let url = ListingTableUrl::parse(file)?;
                    let url = format!("{}{}", url.object_store().as_str(), url.prefix());
                    Ok(InputFile { url, size: 0 })
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Shard {
                name: shard.name,
                inputs,
            })
        })
        .collect()
}

/// A `COPY (...) TO 'FOLDER/...${shard}....parquet'` of a job of `shards`: each shard's rows
/// written by an executor to the file of its name, committed whole; the rows stay there.
async fn copy_per_shard(
    ctx: &SessionContext,
    copy: CopyTo,
    shards: &[Shard],
    cluster: &str,
) -> Result<()> {
    let target = copy.output_url.clone();
    let refused = |why: &str| Err(JobError::Usage(format!("COPY TO '{target}': {why}")));
    if !crate::jobs::statements::writes_one_parquet_file(&copy) {
        return refused(
            "with --cluster a file per shard (${shard}) is a Parquet file written without format \
             options or partitions",
        );
    }
    let (folder, name) = OutputFolder::of_file(&ctx.runtime_env(), &target)?;
    if !name.contains(SHARD) || folder.location().contains(SHARD) {
        return refused("${shard} may name the file per shard, not its folder");
    }
    let named: Vec<Shard> = shards
        .iter()
        .map(|shard| Shard {
            name: file_of(&name, shard),
            inputs: shard.inputs.clone(),
        })
        .collect();
    let rows = ctx
        .execute_logical_plan(copy.input.as_ref().clone())
        .await?;
    let plan = plan_shard_writer(ctx, rows, &named, folder.absolute_location(), 0)
        .await
        .map_err(|e| JobError::Usage(format!("COPY TO '{target}': {e}")))?;
    crate::jobs::statements::create_local_folder_of(&target)?;
    let job = async {
        let mut stream = crate::jobs::cluster::execute_physical(ctx, cluster, plan).await?;
        let mut written = 0;
        while let Some(batch) = stream.next().await {
            written += shards_done(&batch?)?.len();
        }
        Ok::<_, JobError>(written)
    }
    .await;
    // A writer on an executor lost in the middle left its temporary file there.
    let names: Vec<&str> = named.iter().map(|s| s.name.as_str()).collect();
    if let Err(e) = folder.remove_temporaries_of(&names).await {
        eprintln!("webtext: {e}");
    }
    match job {
        Ok(written) if written == named.len() => Ok(()),
        Ok(written) => refused(&format!(
            "the cluster reported {written} files written of {}",
            named.len()
        )),
        Err(e) => refused(&format!("the job on the cluster failed: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(sql: &str) -> Result<()> {
        require_shard_in_file_names(&crate::jobs::sql::parse(sql).unwrap())
    }

    #[test]
    fn shard_names_only_files_before_the_last_statement() {
        let side_outputs = "COPY (SELECT url FROM crawl) TO 'd/${shard}.parquet' STORED AS PARQUET; \
             CREATE EXTERNAL TABLE d STORED AS PARQUET LOCATION 'd/${shard}.parquet'; \
             SELECT url FROM d";
        assert!(check(side_outputs).is_ok());
        assert!(check("SELECT url FROM crawl").is_ok());
        for one_shards_name in [
            "SELECT url, '${shard}' AS shard FROM crawl",
            "COPY (SELECT '${shard}' AS s FROM crawl) TO 'd/${shard}.parquet'; SELECT 1",
            "CREATE VIEW v AS SELECT '${shard}' AS s; SELECT 1",
            "SELECT 1; COPY (SELECT url FROM crawl) TO 'd/${shard}.parquet'",
        ] {
            let error = check(one_shards_name).unwrap_err().to_string();
            assert!(error.contains("can name only a file per shard"), "{error}");
        }
    }

    #[test]
    fn a_copy_to_one_file_is_refused_in_a_sharded_run() {
        for shard in [SHARD, SHARD_IN_CHECK] {
            let check = |sql: &str| {
                let sql = sql.replace("${shard}", shard);
                require_a_file_per_shard(&crate::jobs::sql::parse(&sql).unwrap(), shard)
            };
            assert!(
                check("COPY (SELECT url FROM crawl) TO 'd/${shard}.parquet'; SELECT 1").is_ok()
            );
            assert!(check("CREATE VIEW v AS SELECT 1; SELECT url FROM crawl").is_ok());
            let error = check("COPY (SELECT url FROM crawl) TO 'd/all.parquet'; SELECT 1")
                .unwrap_err()
                .to_string();
            assert!(
                error.contains("a COPY to one file would be written again by each shard")
                    && error.contains("d/all.parquet"),
                "{error}"
            );
        }
    }

    #[test]
    fn a_shards_file_is_named_as_one_process_names_it() {
        let shard = Shard {
            name: "part-0.and-2-more.parquet".into(),
            inputs: Vec::new(),
        };
        assert_eq!(
            file_of("s3://lake/d/${shard}.parquet", &shard),
            "s3://lake/d/part-0.and-2-more.parquet"
        );
    }
}
