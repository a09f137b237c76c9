//! The plan of a sharded job: its input files listed in order and divided into shards, a
//! Parquet file per input file or per group of small ones, each named after its first input. The
//! same files always give the same shards, which is how a rerun knows what an earlier run wrote.

use std::collections::HashMap;

use datafusion::common::{Result, plan_err};
use datafusion::prelude::SessionContext;
use futures::TryStreamExt;

use super::super::inputs::{InputFormat, InputKind, kind_of_name};
use super::super::paths::{is_glob, last_part, listing_url};

/// Inputs smaller than this are grouped into shards of at most this size, by default: a shard per
/// Common Crawl WARC file (about 1 GB), not a shard per file of a dump of small files.
pub const DEFAULT_SHARD_BYTES: u64 = 256 << 20;
/// The default grouping aims at this many shards at least, so that a job's shards (a task each,
/// on a cluster or in one process) keep that many cores busy: a crawl of eight 10 MB files is
/// eight shards, not one shard that one core writes while the others wait.
pub const MIN_DEFAULT_SHARDS: u64 = 64;
/// The default grouping never aims below this size: small files are still grouped, so a folder
/// of a thousand tiny files does not become a thousand tiny shards.
pub const MIN_DEFAULT_SHARD_BYTES: u64 = 8 << 20;

/// The default group size for `total` bytes of input: [`DEFAULT_SHARD_BYTES`] for big inputs,
/// `total` over [`MIN_DEFAULT_SHARDS`] for smaller ones, never below [`MIN_DEFAULT_SHARD_BYTES`].
/// It depends on the input only, so a job's shards are the same in one process and on a cluster
/// of any size.
pub fn default_shard_bytes(total: u64) -> u64 {
    (total / MIN_DEFAULT_SHARDS).clamp(MIN_DEFAULT_SHARD_BYTES, DEFAULT_SHARD_BYTES)
}

/// One input file: its URL (`file:///…`, `s3://…`) and its size in bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFile {
    pub url: String,
    pub size: u64,
}

/// The files a path names (a file, a folder, a glob; local or in an object store), in the order of
/// their URLs: the files a table of the path reads, hidden files (`.`, `_`) of a folder aside.
pub async fn list_input_files(
    ctx: &SessionContext,
    path: &str,
    kind: &InputKind,
) -> Result<Vec<InputFile>> {
    let url = listing_url(path)?;
    let store = ctx.runtime_env().object_store(&url)?;
    let single = kind_of_name(last_part(path)).is_some() && !is_glob(path);
    // A WARC table reads every WARC file of a folder, compressed or not (the reader finds out
    // which); its shards list the same files, not only those named as the first one is.
    let warc = kind.format == InputFormat::Warc;
    let extension = if single || warc {
        ""
    } else {
        kind.extension.as_str()
    };
    let state = ctx.state();
    let base = url.object_store();
    let mut files: Vec<InputFile> = url
        .list_all_files(&state, store.as_ref(), extension)
        .await?
        .try_filter(|meta| {
            let name = meta.location.filename().unwrap_or_default();
            let listed =
                !name.starts_with(['.', '_']) && (!warc || crate::datasource::is_warc_path(name));
            futures::future::ready(single || listed)
        })
        .map_ok(|meta| InputFile {
            url: format!("{}{}", base.as_str(), meta.location),
            size: meta.size,
        })
        .try_collect()
        .await?;
    if files.is_empty() {
        return plan_err!("{path}: no input files");
    }
    files.sort_by(|a, b| a.url.cmp(&b.url));
    Ok(files)
}

/// A shard of the output: its file name and the input files it is made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shard {
    pub name: String,
    pub inputs: Vec<InputFile>,
}

impl Shard {
    /// The inputs' URLs.
    pub fn urls(&self) -> Vec<&str> {
        self.inputs.iter().map(|f| f.url.as_str()).collect()
    }

    /// The inputs' bytes.
    pub fn input_bytes(&self) -> u64 {
        self.inputs.iter().map(|f| f.size).sum()
    }
}

/// Divides `files` (in order) into shards: consecutive files join a shard while it stays within
/// `group_bytes` (0: a shard per file), a bigger file is a shard of its own. A shard is named after
/// its first input (`CC-MAIN-…-00001.parquet`; `part-0001.and-15-more.parquet` for a group of 16),
/// with a short hash of that input's URL where two inputs of different folders share a name.
/// The same files always give the same shards.
pub fn plan_shards(files: Vec<InputFile>, group_bytes: u64) -> Vec<Shard> {
    let mut groups: Vec<(u64, Vec<InputFile>)> = Vec::new();
    for file in files {
        match groups.last_mut() {
            Some((bytes, group)) if *bytes < group_bytes && *bytes + file.size <= group_bytes => {
                *bytes += file.size;
                group.push(file);
            }
            _ => groups.push((file.size, vec![file])),
        }
    }
    let names: Vec<String> = groups
        .iter()
        .map(|(_, group)| shard_name(&group[0].url, group.len()))
        .collect();
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for name in &names {
        *uses.entry(name.as_str()).or_default() += 1;
    }
    let unique: Vec<String> = names
        .iter()
        .zip(&groups)
        .map(|(name, (_, group))| {
            if uses[name.as_str()] == 1 {
                name.clone()
            } else {
                let hash = twox_hash::XxHash64::oneshot(0, group[0].url.as_bytes());
                let stem = name.strip_suffix(".parquet").unwrap_or(name);
                format!("{stem}-{:08x}.parquet", hash as u32)
            }
        })
        .collect();
    unique
        .into_iter()
        .zip(groups)
        .map(|(name, (_, inputs))| Shard { name, inputs })
        .collect()
}

/// The shard name of a group of `count` inputs starting at `url`: the first input's file name
/// without its extension, in characters safe in any file system and object store.
pub(super) fn shard_name(url: &str, count: usize) -> String {
    let file_name = last_part(url);
    let extension_len = kind_of_name(file_name).map_or(0, |k| k.extension.len());
    let stem = &file_name[..file_name.len().saturating_sub(extension_len)];
    let mut safe: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '=') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.is_empty() || safe.starts_with(['.', '_']) {
        safe.insert_str(0, "part");
    }
    match count {
        1 => format!("{safe}.parquet"),
        n => format!("{safe}.and-{}-more.parquet", n - 1),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// An input file of `size` bytes at `url`.
    pub(in crate::datasource) fn file(url: &str, size: u64) -> InputFile {
        InputFile {
            url: url.to_owned(),
            size,
        }
    }

    fn names(shards: &[Shard]) -> Vec<&str> {
        shards.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn small_files_are_grouped_and_big_ones_stand_alone() {
        let files = vec![
            file("s3://b/crawl/a-1.warc.gz", 40),
            file("s3://b/crawl/a-2.warc.gz", 40),
            file("s3://b/crawl/a-3.warc.gz", 40),
            file("s3://b/crawl/b.warc.gz", 500),
            file("s3://b/crawl/c.warc.gz", 10),
        ];
        let shards = plan_shards(files.clone(), 100);
        assert_eq!(
            names(&shards),
            [
                "a-1.and-1-more.parquet",
                "a-3.parquet",
                "b.parquet",
                "c.parquet"
            ]
        );
        assert_eq!(
            shards[0].urls(),
            ["s3://b/crawl/a-1.warc.gz", "s3://b/crawl/a-2.warc.gz"]
        );
        let one_each = plan_shards(files, 0);
        assert_eq!(one_each.len(), 5);
        assert!(one_each.iter().all(|s| s.inputs.len() == 1));
    }

    #[test]
    fn the_default_group_size_leaves_every_core_a_shard() {
        const MIB: u64 = 1 << 20;
        // Eight files of 9 MB: a shard each, where 256 MiB groups would make one.
        let crawl: Vec<InputFile> = (0..8)
            .map(|i| file(&format!("file:///crawl/part-{i}.parquet"), 9 * MIB))
            .collect();
        let bytes = default_shard_bytes(crawl.iter().map(|f| f.size).sum());
        assert_eq!(bytes, MIN_DEFAULT_SHARD_BYTES);
        assert_eq!(plan_shards(crawl, bytes).len(), 8);
        // A thousand files of 8 KB are still grouped: one shard.
        let tiny: Vec<InputFile> = (0..1000)
            .map(|i| file(&format!("file:///tiny/{i:04}.jsonl"), 8_000))
            .collect();
        let bytes = default_shard_bytes(tiny.iter().map(|f| f.size).sum());
        assert_eq!(plan_shards(tiny, bytes).len(), 1);
        // 6.4 GB in files of 10 MB: groups of 100 MB, 64 shards; a big input keeps 256 MiB.
        assert_eq!(default_shard_bytes(640 * 10 * MIB), 100 * MIB);
        assert_eq!(default_shard_bytes(1 << 40), DEFAULT_SHARD_BYTES);
    }

    #[test]
    fn names_are_safe_and_unique() {
        let shards = plan_shards(
            vec![
                file("file:///data/2024/part 1.jsonl.gz", 1),
                file("file:///data/2025/part 1.jsonl.gz", 1),
                file("file:///data/_x.parquet", 1),
            ],
            0,
        );
        let names = names(&shards);
        assert!(names[0].starts_with("part_1-") && names[0].ends_with(".parquet"));
        assert!(names[1].starts_with("part_1-") && names[0] != names[1]);
        assert_eq!(names[2], "part_x.parquet");
        // The same files give the same names.
        let again = plan_shards(shards.iter().flat_map(|s| s.inputs.clone()).collect(), 0);
        assert_eq!(super::tests::names(&again), names);
    }

    /// A folder of WARC files compressed and not: the shards take every one of them, as the
    /// table reads them, and nothing else.
    #[tokio::test]
    async fn the_shards_of_a_warc_folder_list_every_warc_file() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "a.warc.gz",
            "b.warc",
            "c.wet.zst",
            "notes.txt",
            "_manifest.json",
        ] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let ctx = SessionContext::new();
        let path = dir.path().to_str().unwrap();
        let kind = kind_of_name("a.warc.gz").unwrap();
        let files = list_input_files(&ctx, path, &kind).await.unwrap();
        let names: Vec<&str> = files
            .iter()
            .map(|f| f.url.rsplit('/').next().unwrap())
            .collect();
        assert_eq!(names, ["a.warc.gz", "b.warc", "c.wet.zst"]);
    }
}
