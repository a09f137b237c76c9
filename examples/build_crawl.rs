//! Builds a crawl table (Parquet: url, set, id, fetch_time, html as Binary) from unpacked
//! evaluation sets (`../shared/eval/unpack.sh DEST` gives `DEST/<set>/html/<id>.html` with the
//! set's `manifest.tsv` beside it).
//!
//!     cargo run --release --example build_crawl -- OUT.parquet [--max-page-bytes N] SET_DIR...
//!
//! `tools/build_sample_crawl.sh` and `tools/build_eval_crawl.sh` call it with the arguments that
//! made `examples/data/sample_crawl.parquet` and the ~3,000-page table of the scaling runs. Pages
//! are written in manifest order; row groups of 64 pages let a scan spread over cores.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use datafusion::arrow::array::{
    ArrayRef, BinaryBuilder, RecordBatch, StringBuilder, TimestampSecondBuilder,
};
use datafusion::arrow::datatypes::{DataType, Field, Schema, TimeUnit};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::basic::{Compression, ZstdLevel};
use datafusion::parquet::file::properties::WriterProperties;

type Error = Box<dyn std::error::Error>;

struct Page {
    url: String,
    set: String,
    id: String,
    html: Vec<u8>,
}

/// The pages of one set, in manifest order, with the manifest's url (or `<set>:<id>` where the set
/// records none).
fn read_set(dir: &Path, max_page_bytes: usize) -> Result<Vec<Page>, Error> {
    let set = dir
        .file_name()
        .ok_or("SET_DIR has no name")?
        .to_string_lossy()
        .into_owned();
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv"))?;
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next().ok_or("empty manifest")?.split('\t').collect();
    let column = |name: &str| header.iter().position(|h| *h == name);
    let id_col = column("id").ok_or("manifest has no id column")?;
    let url_col = column("url");
    let mut pages = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        let id = fields
            .get(id_col)
            .ok_or_else(|| format!("manifest line without an id: {line}"))?
            .to_string();
        let html = std::fs::read(dir.join("html").join(format!("{id}.html")))?;
        if html.len() > max_page_bytes {
            continue;
        }
        let url = url_col
            .and_then(|c| fields.get(c))
            .filter(|u| !u.is_empty())
            .map(|u| u.to_string())
            .unwrap_or_else(|| format!("{set}:{id}"));
        pages.push(Page {
            url,
            set: set.clone(),
            id,
            html,
        });
    }
    Ok(pages)
}

fn write(pages: &[Page], out: &Path) -> Result<(), Error> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("url", DataType::Utf8, false),
        Field::new("set", DataType::Utf8, false),
        Field::new("id", DataType::Utf8, false),
        // The benchmarks do not record when each page was fetched.
        Field::new(
            "fetch_time",
            DataType::Timestamp(TimeUnit::Second, Some("UTC".into())),
            true,
        ),
        Field::new("html", DataType::Binary, false),
    ]));
    let properties = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(9)?))
        .set_max_row_group_row_count(Some(64))
        .build();
    let mut writer = ArrowWriter::try_new(
        std::fs::File::create(out)?,
        schema.clone(),
        Some(properties),
    )?;
    for chunk in pages.chunks(64) {
        let mut url = StringBuilder::new();
        let mut set = StringBuilder::new();
        let mut id = StringBuilder::new();
        let mut fetch_time = TimestampSecondBuilder::new().with_timezone("UTC");
        let mut html = BinaryBuilder::new();
        for p in chunk {
            url.append_value(&p.url);
            set.append_value(&p.set);
            id.append_value(&p.id);
            fetch_time.append_null();
            html.append_value(&p.html);
        }
        let columns: Vec<ArrayRef> = vec![
            Arc::new(url.finish()),
            Arc::new(set.finish()),
            Arc::new(id.finish()),
            Arc::new(fetch_time.finish()),
            Arc::new(html.finish()),
        ];
        writer.write(&RecordBatch::try_new(schema.clone(), columns)?)?;
    }
    writer.close()?;
    Ok(())
}

fn main() -> Result<(), Error> {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(
        args.next()
            .ok_or("usage: build_crawl OUT.parquet [--max-page-bytes N] SET_DIR...")?,
    );
    let mut max_page_bytes = usize::MAX;
    let mut sets = Vec::new();
    while let Some(a) = args.next() {
        if a == "--max-page-bytes" {
            max_page_bytes = args
                .next()
                .ok_or("--max-page-bytes needs a value")?
                .parse()?;
        } else {
            sets.push(PathBuf::from(a));
        }
    }
    let mut pages = Vec::new();
    for dir in &sets {
        pages.extend(read_set(dir, max_page_bytes)?);
    }
    write(&pages, &out)?;
    let bytes: usize = pages.iter().map(|p| p.html.len()).sum();
    eprintln!(
        "{}: {} pages, {:.1} MB of html, {:.1} MB on disk",
        out.display(),
        pages.len(),
        bytes as f64 / 1e6,
        std::fs::metadata(&out)?.len() as f64 / 1e6
    );
    Ok(())
}
