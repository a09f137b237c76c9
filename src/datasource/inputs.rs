//! Tables from paths, read by their extension: Parquet, WARC (WET, WAT), JSON lines and CSV/TSV,
//! the text formats also compressed. A path is a file, a folder (whose files' extensions decide),
//! a glob, or the URL of any of those in an object store.

use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::TableProvider;
use datafusion::common::{DataFusionError, Result, plan_err};
use datafusion::datasource::file_format::file_compression_type::FileCompressionType;
use std::sync::Arc;

use datafusion::datasource::file_format::options::{
    CsvReadOptions, JsonReadOptions, ParquetReadOptions, ReadOptions,
};
use datafusion::datasource::listing::{ListingTable, ListingTableConfig};
use datafusion::prelude::SessionContext;
use futures::TryStreamExt;

use super::paths::{is_glob, last_part, listing_url};
use super::warc::format::WarcOptions;
use super::warc::table::warc_table_at;

/// How the files of a path are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    Parquet,
    /// WARC, WET and WAT files, plain, gzip or zstd (the WARC reader's own decoding).
    Warc,
    /// One JSON object per line (datatrove's output, most dataset dumps).
    JsonLines,
    Csv,
    Tsv,
}

/// A path's format, the compression of its files and the extension that selects them in a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputKind {
    pub format: InputFormat,
    pub compression: FileCompressionType,
    /// The files' extension, compression included (`.jsonl.gz`).
    pub extension: String,
}

const TEXT_FORMATS: [(&str, InputFormat); 5] = [
    (".jsonl", InputFormat::JsonLines),
    (".ndjson", InputFormat::JsonLines),
    (".json", InputFormat::JsonLines),
    (".csv", InputFormat::Csv),
    (".tsv", InputFormat::Tsv),
];

const COMPRESSIONS: [(&str, FileCompressionType); 4] = [
    (".gz", FileCompressionType::GZIP),
    (".zst", FileCompressionType::ZSTD),
    (".bz2", FileCompressionType::BZIP2),
    (".xz", FileCompressionType::XZ),
];

/// The extensions a path can end with, for error messages.
pub const KNOWN_EXTENSIONS: &str = ".parquet; .warc, .wet, .wat (also .gz, .zst); .jsonl, \
     .ndjson, .json, .csv, .tsv (also .gz, .zst, .bz2, .xz)";

/// The kind of the file (or glob) `name` by its extension; `None` for an unknown one.
pub fn kind_of_name(name: &str) -> Option<InputKind> {
    let lower = name.to_ascii_lowercase();
    if super::is_warc_path(&lower) {
        let extension = [".gz", ".zst"]
            .iter()
            .find(|c| lower.ends_with(*c))
            .map_or("", |c| c);
        let stem = &lower[..lower.len() - extension.len()];
        let base = [".warc", ".wet", ".wat"]
            .iter()
            .find(|e| stem.ends_with(*e))
            .map_or("", |e| e);
        return Some(InputKind {
            format: InputFormat::Warc,
            compression: FileCompressionType::UNCOMPRESSED,
            extension: format!("{base}{extension}"),
        });
    }
    if lower.ends_with(".parquet") {
        return Some(InputKind {
            format: InputFormat::Parquet,
            compression: FileCompressionType::UNCOMPRESSED,
            extension: ".parquet".to_owned(),
        });
    }
    let (stem, compression, suffix) = COMPRESSIONS
        .iter()
        .find(|(suffix, _)| lower.ends_with(suffix))
        .map_or(
            (lower.as_str(), FileCompressionType::UNCOMPRESSED, ""),
            |(s, c)| (&lower[..lower.len() - s.len()], *c, *s),
        );
    let (extension, format) = TEXT_FORMATS.iter().find(|(e, _)| stem.ends_with(e))?;
    Some(InputKind {
        format: *format,
        compression,
        extension: format!("{extension}{suffix}"),
    })
}

/// The kind of the files at `path`: by its name for a file or a glob, by its files' names for a
/// folder or an object-store prefix (they must agree). An unknown extension, a missing path and
/// a folder of mixed or no known files are one-line errors.
pub async fn input_kind(ctx: &SessionContext, path: &str) -> Result<InputKind> {
    if let Some(kind) = kind_of_name(last_part(path)) {
        return Ok(kind);
    }
    let is_url = path.contains("://");
    let local = std::path::Path::new(path);
    if !is_url && !is_glob(path) {
        if !local.exists() {
            return plan_err!("no such file or folder: {path}");
        }
        if local.is_file() {
            return unknown_extension(path);
        }
    }
    if is_glob(path) {
        return unknown_extension(path);
    }
    folder_kind(ctx, path).await
}

fn unknown_extension<T>(path: &str) -> Result<T> {
    plan_err!("{path}: unknown file extension; known: {KNOWN_EXTENSIONS}")
}

/// The kind all the files in a folder or under a prefix share (hidden files aside).
async fn folder_kind(ctx: &SessionContext, path: &str) -> Result<InputKind> {
    let folder = if path.ends_with('/') {
        path.to_owned()
    } else {
        format!("{path}/")
    };
    let url = listing_url(&folder)?;
    let store = ctx.runtime_env().object_store(&url)?;
    let mut files: Vec<_> = store
        .list(Some(url.prefix()))
        .try_collect()
        .await
        .map_err(|e| DataFusionError::Plan(format!("{path}: {e}")))?;
    files.sort_by(|a, b| a.location.cmp(&b.location));
    let mut kinds = files
        .iter()
        .map(|meta| meta.location.filename().unwrap_or_default())
        .filter(|name| !name.starts_with(['.', '_']))
        .map(|name| kind_of_name(name).ok_or(name));
    let Some(first) = kinds.next() else {
        return plan_err!("{path}: no files in the folder");
    };
    let first = first.or_else(|name| unknown_extension(&format!("{path}: {name}")))?;
    for kind in kinds {
        match kind {
            Ok(k) if k.format == first.format && k.compression == first.compression => {}
            Ok(k) => {
                return plan_err!(
                    "{path}: the folder mixes {} and {} files; name one kind with a glob",
                    first.extension,
                    k.extension
                );
            }
            Err(name) => return unknown_extension(&format!("{path}: {name}")),
        }
    }
    Ok(first)
}

/// Registers the files at `path`, of `kind` (see [`input_kind`]), as table `name`; WARC files
/// with `warc_options`.
pub async fn register_input(
    ctx: &SessionContext,
    name: &str,
    path: &str,
    kind: &InputKind,
    warc_options: WarcOptions,
) -> Result<()> {
    let table = input_table(ctx, &[path], kind, warc_options, None).await?;
    ctx.register_table(name, table)?;
    Ok(())
}

/// The table of the files at `paths`, of `kind`: each path a file, a folder or a glob, as in
/// [`register_input`]. With `schema`, the files are read as that schema (the schema of a whole
/// input, for a table of some of its files); without, it is inferred from the first path.
pub async fn input_table(
    ctx: &SessionContext,
    paths: &[&str],
    kind: &InputKind,
    warc_options: WarcOptions,
    schema: Option<SchemaRef>,
) -> Result<Arc<dyn TableProvider>> {
    // A single file is read whatever its name; a folder or glob by its files' extension.
    let all_files = paths
        .iter()
        .all(|path| kind_of_name(last_part(path)).is_some() && !is_glob(path));
    let extension = if all_files {
        ""
    } else {
        kind.extension.as_str()
    };
    let (config, table_options) = (ctx.copied_config(), ctx.copied_table_options());
    let options = match kind.format {
        InputFormat::Warc => return Ok(warc_table_at(paths, warc_options)?),
        InputFormat::Parquet => ParquetReadOptions::default()
            .file_extension(extension)
            .to_listing_options(&config, table_options),
        InputFormat::JsonLines => JsonReadOptions::default()
            .file_extension(extension)
            .file_compression_type(kind.compression)
            .to_listing_options(&config, table_options),
        InputFormat::Csv | InputFormat::Tsv => CsvReadOptions::new()
            .delimiter(if kind.format == InputFormat::Tsv {
                b'\t'
            } else {
                b','
            })
            .file_extension(extension)
            .file_compression_type(kind.compression)
            .to_listing_options(&config, table_options),
    };
    let urls = paths
        .iter()
        .map(|path| listing_url(path))
        .collect::<Result<Vec<_>>>()?;
    let Some(first) = urls.first() else {
        return plan_err!("a table needs at least one path");
    };
    let schema = match schema {
        Some(schema) => schema,
        None => options.infer_schema(&ctx.state(), first).await?,
    };
    let table = ListingTableConfig::new_with_multi_paths(urls)
        .with_listing_options(options)
        .with_schema(schema);
    Ok(Arc::new(ListingTable::try_new(table)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format_of(name: &str) -> Option<(InputFormat, FileCompressionType, String)> {
        kind_of_name(name).map(|k| (k.format, k.compression, k.extension))
    }

    #[test]
    fn formats_and_compressions_come_from_the_extension() {
        use FileCompressionType as C;
        use InputFormat as F;
        let cases = [
            ("crawl.parquet", F::Parquet, C::UNCOMPRESSED, ".parquet"),
            ("CC-MAIN-1.warc.gz", F::Warc, C::UNCOMPRESSED, ".warc.gz"),
            ("x.wet.zst", F::Warc, C::UNCOMPRESSED, ".wet.zst"),
            ("docs.jsonl.gz", F::JsonLines, C::GZIP, ".jsonl.gz"),
            ("docs.ndjson", F::JsonLines, C::UNCOMPRESSED, ".ndjson"),
            ("dump.json.zst", F::JsonLines, C::ZSTD, ".json.zst"),
            ("table.csv.bz2", F::Csv, C::BZIP2, ".csv.bz2"),
            ("table.TSV.xz", F::Tsv, C::XZ, ".tsv.xz"),
            ("*.jsonl.gz", F::JsonLines, C::GZIP, ".jsonl.gz"),
        ];
        for (name, format, compression, extension) in cases {
            assert_eq!(
                format_of(name),
                Some((format, compression, extension.to_owned())),
                "{name}"
            );
        }
        assert_eq!(format_of("notes.txt"), None);
        assert_eq!(format_of("archive.gz"), None);
    }

    #[test]
    fn a_glob_in_a_url_lists_its_prefix_and_matches_the_rest() {
        let url = listing_url("s3://lake/crawl/2026/*.warc.gz").unwrap();
        assert_eq!(url.as_str(), "s3://lake/crawl/2026/");
        assert_eq!(url.prefix().as_ref(), "crawl/2026");
        let matching = datafusion::object_store::path::Path::from("crawl/2026/part-1.warc.gz");
        let other = datafusion::object_store::path::Path::from("crawl/2026/notes.txt");
        assert!(url.contains(&matching, true) && !url.contains(&other, true));
        let top = listing_url("gs://bucket/*.parquet").unwrap();
        assert_eq!(top.as_str(), "gs://bucket/");
        assert_eq!(
            listing_url("s3://lake/a.parquet").unwrap().as_str(),
            "s3://lake/a.parquet"
        );
    }

    #[tokio::test]
    async fn an_unknown_extension_is_one_line_listing_the_known_ones() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join("notes.txt");
        std::fs::write(&file, "x").unwrap();
        let ctx = SessionContext::new();
        let error = input_kind(&ctx, file.to_str().unwrap())
            .await
            .unwrap_err()
            .strip_backtrace();
        assert!(
            error.contains("notes.txt: unknown file extension; known: .parquet;"),
            "{error}"
        );
        assert!(!error.contains('\n'), "{error}");
    }

    #[tokio::test]
    async fn a_folder_is_read_by_its_files_extension_and_must_not_mix_kinds() {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join("a.jsonl.gz"), "").unwrap();
        std::fs::write(folder.path().join("b.jsonl.gz"), "").unwrap();
        std::fs::write(folder.path().join("_SUCCESS"), "").unwrap();
        let ctx = SessionContext::new();
        let path = folder.path().to_str().unwrap();
        let kind = input_kind(&ctx, path).await.expect("one kind");
        assert_eq!(
            (kind.format, kind.extension.as_str()),
            (InputFormat::JsonLines, ".jsonl.gz")
        );
        std::fs::write(folder.path().join("c.parquet"), "").unwrap();
        let error = input_kind(&ctx, path).await.unwrap_err().strip_backtrace();
        assert!(
            error.contains("mixes .jsonl.gz and .parquet files"),
            "{error}"
        );
    }
}
