use datafusion::physical_plan::collect;
use datafusion::prelude::{ParquetReadOptions, SessionConfig, SessionContext};

use super::*;
use crate::datasource::InputFile;

/// Three Parquet files of ten rows each (`file`, `n`), in a folder.
pub(crate) async fn three_files(dir: &std::path::Path) -> Vec<InputFile> {
    let ctx = SessionContext::new();
    let mut files = Vec::new();
    for file in 0..3 {
        let path = dir.join(format!("in-{file}.parquet"));
        let sql = format!(
            "COPY (SELECT {file} AS file, value AS n FROM generate_series(1, 10)) TO '{}' \
             STORED AS PARQUET",
            path.display()
        );
        ctx.sql(&sql).await.unwrap().collect().await.unwrap();
        files.push(InputFile {
            url: format!("file://{}", path.display()),
            size: std::fs::metadata(&path).unwrap().len(),
        });
    }
    files
}

pub(crate) async fn plan(
    dir: &std::path::Path,
    sql: &str,
) -> (SessionContext, Arc<dyn ExecutionPlan>) {
    let config = SessionConfig::new()
        .with_target_partitions(2)
        .with_round_robin_repartition(false);
    let ctx = SessionContext::new_with_config(config);
    let options = ParquetReadOptions::default();
    ctx.register_parquet("t", dir.to_str().unwrap(), options)
        .await
        .unwrap();
    let plan = ctx
        .sql(sql)
        .await
        .unwrap()
        .create_physical_plan()
        .await
        .unwrap();
    (ctx, plan)
}

#[tokio::test]
async fn each_partition_becomes_the_shard_of_its_files_committed_whole() {
    let input = tempfile::tempdir().unwrap();
    let files = three_files(input.path()).await;
    let shards = vec![
        Shard {
            name: "b.parquet".into(),
            inputs: vec![files[2].clone()],
        },
        Shard {
            name: "a.parquet".into(),
            inputs: vec![files[0].clone(), files[1].clone()],
        },
    ];
    let (ctx, plan) = plan(input.path(), "SELECT file, n * 2 AS m FROM t WHERE n > 3").await;
    let plan = partition_per_shard(plan, &shards).unwrap();
    assert_eq!(plan.output_partitioning().partition_count(), 2);
    let output = tempfile::tempdir().unwrap();
    let folder = output.path().join("out");
    let writer = ShardWriterExec::for_shards(plan, folder.display().to_string(), &shards).unwrap();
    assert_eq!(
        writer.renamed(),
        [
            (files[2].url.clone(), "b.parquet".to_owned()),
            (files[0].url.clone(), "a.parquet".to_owned())
        ]
    );
    let batches = collect(Arc::new(writer), ctx.task_ctx()).await.unwrap();
    let mut done: Vec<ShardDone> = batches
        .iter()
        .flat_map(|b| shards_done(b).unwrap())
        .collect();
    done.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(
        done.iter()
            .map(|d| (d.name.as_str(), d.rows))
            .collect::<Vec<_>>(),
        [("a.parquet", 14), ("b.parquet", 7)]
    );
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["a.parquet", "b.parquet"]);
    assert_eq!(
        std::fs::metadata(folder.join("a.parquet")).unwrap().len(),
        done[0].bytes
    );
    // Each shard holds its own files' rows, and only those.
    let read = SessionContext::new();
    for (name, expected) in [("a.parquet", vec![0i64, 1]), ("b.parquet", vec![2])] {
        let path = folder.join(name);
        let table = name.replace('.', "_");
        read.register_parquet(
            &table,
            path.to_str().unwrap(),
            ParquetReadOptions::default(),
        )
        .await
        .unwrap();
        let sql = format!("SELECT DISTINCT file FROM {table} ORDER BY file");
        let batches = read.sql(&sql).await.unwrap().collect().await.unwrap();
        let seen: Vec<i64> = batches
            .iter()
            .flat_map(|b| {
                let column = b
                    .column(0)
                    .as_any()
                    .downcast_ref::<datafusion::arrow::array::Int64Array>()
                    .unwrap();
                column.values().to_vec()
            })
            .collect();
        assert_eq!(seen, expected, "{name}");
    }
}

#[tokio::test]
async fn a_query_that_combines_partitions_or_misses_files_is_refused() {
    let input = tempfile::tempdir().unwrap();
    let files = three_files(input.path()).await;
    let one_shard = vec![Shard {
        name: "all.parquet".into(),
        inputs: files.clone(),
    }];
    let (_, grouped) = plan(input.path(), "SELECT file, count(*) FROM t GROUP BY file").await;
    let error = partition_per_shard(grouped, &one_shard)
        .unwrap_err()
        .strip_backtrace();
    assert!(error.contains("the query is not row by row ("), "{error}");
    let (_, rows) = plan(input.path(), "SELECT n FROM t").await;
    let missing = vec![Shard {
        name: "some.parquet".into(),
        inputs: files[..2].to_vec(),
    }];
    let error = partition_per_shard(rows, &missing)
        .unwrap_err()
        .strip_backtrace();
    assert!(
        error.contains("is read by the query but is in no shard"),
        "{error}"
    );
    let (_, rows) = plan(input.path(), "SELECT n FROM t").await;
    let renamed = vec![(files[0].url.clone(), "../up.parquet".to_owned())];
    let error = ShardWriterExec::try_new(rows, "/tmp/x".into(), renamed)
        .unwrap_err()
        .strip_backtrace();
    assert!(error.contains("is not a plain file name"), "{error}");
}

/// The rows of column `column` (Int64) of the Parquet file at `path`, in file order.
pub(crate) async fn column_of(path: &std::path::Path, column: &str) -> Vec<i64> {
    let read = SessionContext::new();
    let options = ParquetReadOptions::default();
    read.register_parquet("f", path.to_str().unwrap(), options)
        .await
        .unwrap();
    let sql = format!("SELECT {column} FROM f");
    let batches = read.sql(&sql).await.unwrap().collect().await.unwrap();
    batches
        .iter()
        .flat_map(|b| {
            let values = b
                .column(0)
                .as_any()
                .downcast_ref::<datafusion::arrow::array::Int64Array>()
                .unwrap();
            values.values().to_vec()
        })
        .collect()
}

#[tokio::test]
async fn one_file_holds_every_partition_and_keeps_a_sorted_order() {
    let input = tempfile::tempdir().unwrap();
    three_files(input.path()).await;
    let output = tempfile::tempdir().unwrap();
    let folder = output.path().display().to_string();
    // Sorted within each of its partitions, not merged yet: the writer merges in order.
    // Its last two columns tallied: summed, not written.
    let sql = "SELECT n * 3 + file AS k, n > 5 AS big, file FROM t ORDER BY k";
    let (ctx, sorted) = plan(input.path(), sql).await;
    let per_partition = Arc::clone(sorted.children()[0]);
    assert_eq!(per_partition.output_partitioning().partition_count(), 2);
    let writer = ShardWriterExec::one_file(per_partition, folder.clone(), "all.parquet".into())
        .and_then(|writer| writer.with_tallied(2))
        .unwrap();
    assert_eq!(writer.properties().partitioning.partition_count(), 1);
    let batches = collect(Arc::new(writer), ctx.task_ctx()).await.unwrap();
    let done: Vec<ShardDone> = batches
        .iter()
        .flat_map(|b| shards_done(b).unwrap())
        .collect();
    assert_eq!(done.len(), 1);
    // n > 5 in 5 rows of each file; files 0, 1 and 2 of ten rows each.
    let mut sums = [0, 0];
    add_tallies(&mut sums, &batches[0]).unwrap();
    assert_eq!(sums, [15, 30]);
    assert_eq!((done[0].name.as_str(), done[0].rows), ("all.parquet", 30));
    let path = output.path().join("all.parquet");
    assert_eq!(std::fs::metadata(&path).unwrap().len(), done[0].bytes);
    let read = SessionContext::new();
    let written = read
        .read_parquet(path.to_str().unwrap(), ParquetReadOptions::default())
        .await
        .unwrap();
    assert_eq!(written.schema().fields().len(), 1);
    // Its order is in the file, for a reader not to sort it again.
    let scan = written.create_physical_plan().await.unwrap();
    let shown = datafusion::physical_plan::displayable(scan.as_ref())
        .indent(true)
        .to_string();
    assert!(shown.contains("output_ordering=[k@0 ASC"), "{shown}");
    let keys = column_of(&path, "k").await;
    let expected: Vec<i64> = (1..=10)
        .flat_map(|n| (0..3).map(move |file| n * 3 + file))
        .collect();
    assert_eq!(keys, expected);
    // Unsorted partitions are merged as they come; nothing but the file is left.
    let (ctx, rows) = plan(input.path(), "SELECT n FROM t").await;
    let writer = ShardWriterExec::one_file(rows, folder, "n.parquet".into()).unwrap();
    collect(Arc::new(writer), ctx.task_ctx()).await.unwrap();
    let mut n = column_of(&output.path().join("n.parquet"), "n").await;
    n.sort_unstable();
    let mut expected: Vec<i64> = (1..=10).flat_map(|n| [n; 3]).collect();
    expected.sort_unstable();
    assert_eq!(n, expected);
    let mut names: Vec<String> = std::fs::read_dir(output.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["all.parquet", "n.parquet"]);
    let (_, rows) = plan(input.path(), "SELECT n FROM t").await;
    let writer =
        |name: &str| ShardWriterExec::one_file(Arc::clone(&rows), "/tmp/x".into(), name.into());
    let error = writer(".hidden").unwrap_err().strip_backtrace();
    assert!(error.contains("is not a plain file name"), "{error}");
    let error = writer("x")
        .and_then(|w| w.with_tallied(1))
        .unwrap_err()
        .strip_backtrace();
    assert!(error.contains("leave none of 1 to write"), "{error}");
    let (_, named) = plan(input.path(), "SELECT n, 'a' AS name FROM t").await;
    let error = ShardWriterExec::one_file(named, "/tmp/x".into(), "x".into())
        .and_then(|writer| writer.with_tallied(1))
        .unwrap_err()
        .strip_backtrace();
    assert!(error.contains("not an integer or a Boolean"), "{error}");
}
