//! `webtext report`: the page opens in a real browser (Debian's `chromium`, headless) without a
//! console message, every chart is drawn, and the headline numbers equal what plain SQL over the
//! same crawl gives; bad input fails in one line and leaves no report.
//!
//! Chromium is required when `WEBTEXT_REQUIRE_BROWSER` is set (`.ci/run` installs it and sets
//! it); elsewhere the browser test says it was skipped.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{stderr, webtext};

/// What one browser run may take; the whole process group is killed after it.
const BROWSER_SECONDS: &str = "120";
const CHARTS: [&str; 5] = [
    "chart-kept-share",
    "chart-length",
    "chart-stopwords",
    "chart-links",
    "chart-classes",
];

fn run_ok(args: &[&str]) -> String {
    let o = webtext(args);
    assert!(o.status.success(), "webtext {args:?}: {}", stderr(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/data/sample_crawl.parquet")
        .display()
        .to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("webtext-report-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// `dir/crawl.parquet`: the result of `query` over the sample crawl as table `c`.
fn crawl_from_sample(dir: &Path, query: &str) -> String {
    let crawl = path(&dir.join("crawl.parquet"));
    run_ok(&[
        "sql",
        "--table",
        &format!("c={}", sample()),
        "--output",
        &crawl,
        query,
    ]);
    crawl
}

/// One row of `webtext sql --format csv`, by column name.
fn sql_row(table: &str, query: &str) -> BTreeMap<String, String> {
    let out = run_ok(&["sql", "--table", table, "--format", "csv", query]);
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let values: Vec<&str> = lines.next().expect("a row").split(',').collect();
    header
        .into_iter()
        .map(str::to_owned)
        .zip(values.into_iter().map(str::to_owned))
        .collect()
}

/// The headline tiles of a report: `data-name` → `data-value`.
fn headline(html: &str) -> BTreeMap<String, String> {
    html.split("data-name=\"")
        .skip(1)
        .filter_map(|rest| {
            let (name, rest) = rest.split_once('"')?;
            let value = rest.split("data-value=\"").nth(1)?.split('"').next()?;
            Some((name.to_owned(), value.to_owned()))
        })
        .collect()
}

/// The headline numbers by SQL of their own: another function (`justext_extract`) over the crawl, not the report's queries.
fn expected_headline(crawl: &str) -> BTreeMap<String, String> {
    sql_row(
        &format!("crawl={crawl}"),
        "SELECT count(*) AS pages, sum(byte_length(html)) AS html_bytes, \
                count(*) FILTER (WHERE e['kept_chars'] > 0) AS pages_with_text, \
                sum(e['kept_chars']) AS kept_chars, sum(e['paragraphs']) AS paragraphs \
         FROM (SELECT html, justext_extract(html, 'English') AS e FROM crawl)",
    )
}

fn assert_headline(html: &str, expected: &BTreeMap<String, String>) {
    let shown = headline(html);
    for (name, value) in expected {
        assert_eq!(shown.get(name), Some(value), "headline {name}: {shown:?}");
    }
}

/// The SVG element of a chart, from `<svg id=...` to its `</svg>`.
fn chart<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<svg id=\"{id}\""))
        .unwrap_or_else(|| panic!("chart {id} is on the page"));
    let end = html[start..].find("</svg>").expect("the chart ends") + start;
    &html[start..end]
}

/// `chromium --headless` with a profile of its own, in its own process group under `timeout`
/// (killed whole after the run, so no renderer outlives the test).
fn chromium(dir: &Path, args: &[&str]) -> Option<Output> {
    let found = Command::new("chromium").arg("--version").output();
    if found.is_err() {
        assert!(
            std::env::var_os("WEBTEXT_REQUIRE_BROWSER").is_none(),
            "chromium is not installed (apt-get install chromium)"
        );
        eprintln!("skipped: chromium is not installed (apt-get install chromium)");
        return None;
    }
    let mut command = Command::new("timeout");
    command
        .args([
            "-s",
            "KILL",
            BROWSER_SECONDS,
            "chromium",
            "--headless",
            "--no-sandbox",
        ])
        .args([
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-extensions",
        ])
        .args([
            "--disable-background-networking",
            "--disable-component-update",
        ])
        .arg(format!("--user-data-dir={}", path(&dir.join("profile"))))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let child = command.spawn().expect("timeout runs");
    let id = child.id();
    let output = child.wait_with_output().expect("chromium ends");
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{id}")])
        .status();
    Some(output)
}

#[test]
fn the_report_of_the_sample_opens_in_a_browser_with_every_chart_and_the_sql_numbers() {
    let dir = scratch("browser");
    let report = dir.join("report.html");
    let o = webtext(&["report", &sample(), &path(&report)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("report: 156 pages"), "{}", stderr(&o));
    let url = format!("file://{}", path(&report));

    let Some(dom) = chromium(&dir, &["--dump-dom", &url]) else {
        return;
    };
    let log = stderr(&dom);
    assert!(dom.status.success(), "{log}");
    let dom = String::from_utf8_lossy(&dom.stdout).into_owned();
    assert!(
        dom.contains("<h1>Corpus report</h1>"),
        "the page loaded: {log}"
    );
    assert_headline(&dom, &expected_headline(&sample()));
    for id in CHARTS {
        let svg = chart(&dom, id);
        assert!(
            svg.matches("<rect").count() >= 5,
            "{id} draws its bars or cells"
        );
        assert!(svg.matches("<text").count() >= 5, "{id} has its labels");
    }
    for threshold in [
        "length_low 70",
        "length_high 200",
        "stopwords_low 0.3",
        "stopwords_high 0.32",
        "max_link_density 0.2",
    ] {
        assert!(dom.contains(threshold), "the {threshold} line is drawn");
    }
    assert_eq!(
        dom.matches("<article class=\"sample\">").count(),
        5,
        "five sample pages"
    );

    let screenshot = dir.join("report.png");
    let shot = chromium(
        &dir,
        &[
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1280,2400",
            &format!("--screenshot={}", path(&screenshot)),
            &url,
        ],
    )
    .expect("chromium ran once already");
    let log = stderr(&shot);
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(
        console.is_empty(),
        "no console message (a blocked fetch, an error): {console:?}"
    );
    let image = Png::read(&screenshot);
    assert_eq!((image.width, image.height), (1280, 2400));
    let white = image.share_of(|rgb| rgb == [255, 255, 255]);
    assert!(white < 0.97, "the screenshot is not blank: {white} white");
    let bars = image.share_of(|rgb| rgb == [0x2f, 0x85, 0x5a]);
    assert!(bars > 0.003, "the charts' green bars are painted: {bars}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn duplicates_are_counted_as_sql_over_the_kept_text_counts_them() {
    let dir = scratch("dedup");
    // The sample with its first 12 pages twice.
    let crawl = crawl_from_sample(
        &dir,
        "SELECT * FROM c UNION ALL SELECT * FROM (SELECT * FROM c ORDER BY url LIMIT 12)",
    );
    let report = dir.join("report.html");
    run_ok(&["report", &crawl, &path(&report), "--dedup", "--sample", "2"]);
    let html = std::fs::read_to_string(&report).unwrap();
    let mut expected = expected_headline(&crawl);
    let exact = sql_row(
        &format!("crawl={crawl}"),
        "SELECT count(*) AS exact_duplicate_pages FROM ( \
           SELECT count(*) OVER (PARTITION BY t) AS copies \
           FROM (SELECT justext(html) AS t FROM crawl) WHERE t <> '') WHERE copies > 1",
    );
    expected.extend(exact);
    assert_headline(&html, &expected);
    let exact: u64 = expected["exact_duplicate_pages"].parse().unwrap();
    assert!(
        exact >= 2,
        "the repeated pages with text are duplicates: {exact}"
    );
    // Near duplicates: the documents `webtext near-dedup` puts in a cluster.
    let documents = path(&dir.join("documents.parquet"));
    run_ok(&[
        "sql",
        "--table",
        &format!("c={crawl}"),
        "--output",
        &documents,
        "SELECT CAST(row_number() OVER (ORDER BY url) AS BIGINT) AS doc_id, justext(html) AS text FROM c",
    ]);
    let clusters = path(&dir.join("clusters.parquet"));
    run_ok(&["near-dedup", &documents, &clusters]);
    let near = sql_row(
        &format!("n={clusters}"),
        "SELECT count(*) AS near_duplicate_pages FROM n WHERE cluster_id >= 0",
    );
    assert_headline(&html, &near);
    assert_eq!(
        html.matches("<article class=\"sample\">").count(),
        2,
        "--sample 2"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The filters' table of a report: per `data-step`, its `data-removed` and `data-kept`, in order.
fn filter_rows(html: &str) -> Vec<(String, u64, u64)> {
    let attribute = |row: &str, name: &str| -> String {
        let start = row.find(&format!("{name}=\"")).expect(name) + name.len() + 2;
        row[start..].split('"').next().unwrap().to_owned()
    };
    html.split("<tr data-step=")
        .skip(1)
        .map(|row| {
            let row = format!("data-step={row}");
            (
                attribute(&row, "data-step"),
                attribute(&row, "data-removed").parse().unwrap(),
                attribute(&row, "data-kept").parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_filters_table_counts_what_finewebs_chain_decided_for_each_page() {
    let dir = scratch("filters");
    let report = dir.join("report.html");
    let (url_filter, sample) = ("block_list=none", sample());
    run_ok(&[
        "report",
        &sample,
        &path(&report),
        "--filters",
        "--url-filter",
        url_filter,
        "--sample",
        "0",
    ]);
    let html = std::fs::read_to_string(&report).unwrap();
    let rows = filter_rows(&html);
    let steps: Vec<&str> = rows.iter().map(|(step, _, _)| step.as_str()).collect();
    assert_eq!(
        steps,
        [
            "url_filter",
            "extraction",
            "language",
            "gopher_repetition",
            "gopher_quality",
            "c4_quality",
            "fineweb_quality",
            "c4_badwords"
        ]
    );
    // Each step passes on what the one before kept, from all 156 pages.
    let mut documents = 156;
    for (step, removed, kept) in &rows {
        assert_eq!(removed + kept, documents, "{step}: {rows:?}");
        documents = *kept;
    }
    // The same chain through `webtext sql`: its decisions, counted per step here.
    let decisions = path(&dir.join("decisions.parquet"));
    run_ok(&[
        "sql",
        "--table",
        &format!("crawl={sample}"),
        "--file",
        concat!(env!("CARGO_MANIFEST_DIR"), "/sql/fineweb.sql"),
        "--param",
        &format!("url_filter={url_filter}"),
        "--param",
        &format!("decisions={decisions}"),
        // The report's extraction.
        "--param",
        "extraction=justext(page)",
    ]);
    let removed = run_ok(&[
        "sql",
        "--table",
        &format!("d={decisions}"),
        "--format",
        "csv",
        "SELECT removed_by, count(*) AS n FROM d WHERE removed_by IS NOT NULL GROUP BY removed_by",
    ]);
    let removed: BTreeMap<String, u64> = removed
        .lines()
        .skip(1)
        .map(|line| {
            let (step, n) = line.split_once(',').unwrap();
            (step.to_owned(), n.parse().unwrap())
        })
        .collect();
    for (step, shown, _) in &rows {
        assert_eq!(removed.get(step).copied().unwrap_or(0), *shown, "{step}");
    }
    assert!(
        removed.values().sum::<u64>() > 0,
        "the chain removes pages of the sample: {removed:?}"
    );
    // The URL filter's step, by the function alone.
    let by_function = sql_row(
        &format!("crawl={sample}"),
        "SELECT count(*) AS n FROM crawl WHERE NOT url_filter(url, 'block_list=none')['passed']",
    );
    assert_eq!(by_function["n"].parse::<u64>().unwrap(), rows[0].1);
    assert!(
        html.contains("url_filter block_list=none"),
        "the settings name it"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Asserts a failed run: one line on stderr naming `what`, and no report (nor a temporary one).
fn assert_fails_without_report(dir: &Path, args: &[&str], what: &str) {
    let o = webtext(args);
    let err = stderr(&o);
    assert!(!o.status.success(), "should fail: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains(what), "names {what}: {err}");
    let left: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
    assert!(left.is_empty(), "nothing written: {left:?}");
}

#[test]
fn bad_input_is_a_one_line_error_and_leaves_no_report() {
    let dir = scratch("errors");
    let inputs = scratch("errors-inputs");
    let out = path(&dir.join("report.html"));
    let no_html = path(&inputs.join("no_html.parquet"));
    run_ok(&[
        "sql",
        "--output",
        &no_html,
        "SELECT 'http://a.b/' AS url, 'x' AS text",
    ]);
    let not_parquet = inputs.join("broken.parquet");
    std::fs::write(&not_parquet, b"not a parquet file").unwrap();
    let cases: [(&[&str], &str); 7] = [
        (
            &[
                "report",
                &sample(),
                &path(&dir.join("no/such/folder/r.html")),
            ],
            "no folder",
        ),
        (
            &["report", "/no/such/crawl.parquet", &out],
            "/no/such/crawl.parquet",
        ),
        (
            &["report", &no_html, &out],
            "no column 'html' (--html-column)",
        ),
        (&["report", &path(&not_parquet), &out], "broken.parquet"),
        (
            &["report", &sample(), &out, "--language", "Klingon"],
            "Klingon",
        ),
        (
            &["report", &sample(), &out, "--options", "length_low=x"],
            "length_low",
        ),
        (
            &["report", &sample(), &out, "--cluster", "df://127.0.0.1:1"],
            "--cluster",
        ),
    ];
    for (args, what) in cases {
        assert_fails_without_report(&dir, args, what);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&inputs);
}

/// A PNG's pixels as RGB: enough of the format for Chromium's screenshots (8-bit RGB or RGBA,
/// not interlaced).
struct Png {
    width: usize,
    height: usize,
    rgb: Vec<[u8; 3]>,
}

impl Png {
    fn read(file: &Path) -> Png {
        let bytes = std::fs::read(file).expect("the screenshot was written");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
        let (mut at, mut header, mut data) = (8, Vec::new(), Vec::new());
        while at + 8 <= bytes.len() {
            let length = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            let kind = &bytes[at + 4..at + 8];
            let body = &bytes[at + 8..at + 8 + length];
            match kind {
                b"IHDR" => header = body.to_vec(),
                b"IDAT" => data.extend_from_slice(body),
                _ => {}
            }
            at += 12 + length;
        }
        let width = u32::from_be_bytes(header[0..4].try_into().unwrap()) as usize;
        let height = u32::from_be_bytes(header[4..8].try_into().unwrap()) as usize;
        let channels = match (header[8], header[9], header[12]) {
            (8, 2, 0) => 3,
            (8, 6, 0) => 4,
            other => panic!("unexpected PNG format (depth, colour type, interlace) {other:?}"),
        };
        let mut raw = Vec::new();
        flate2::read::ZlibDecoder::new(&data[..])
            .read_to_end(&mut raw)
            .expect("the image data inflates");
        let pixels = unfilter(&raw, width * channels, height, channels);
        let rgb = pixels
            .chunks(channels)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        Png { width, height, rgb }
    }

    fn share_of(&self, wanted: impl Fn([u8; 3]) -> bool) -> f64 {
        self.rgb.iter().filter(|p| wanted(**p)).count() as f64 / self.rgb.len().max(1) as f64
    }
}

/// Undoes PNG's per-row filters (none, sub, up, average, Paeth).
fn unfilter(raw: &[u8], stride: usize, height: usize, bpp: usize) -> Vec<u8> {
    let mut out = vec![0u8; stride * height];
    for row in 0..height {
        let line = &raw[row * (stride + 1)..(row + 1) * (stride + 1)];
        let (filter, line) = (line[0], &line[1..]);
        for i in 0..stride {
            let left = if i >= bpp {
                out[row * stride + i - bpp]
            } else {
                0
            };
            let up = if row > 0 {
                out[(row - 1) * stride + i]
            } else {
                0
            };
            let up_left = if row > 0 && i >= bpp {
                out[(row - 1) * stride + i - bpp]
            } else {
                0
            };
            let predictor = match filter {
                0 => 0,
                1 => left,
                2 => up,
                3 => ((left as u16 + up as u16) / 2) as u8,
                4 => paeth(left, up, up_left),
                other => panic!("unknown PNG filter {other}"),
            };
            out[row * stride + i] = line[i].wrapping_add(predictor);
        }
    }
    out
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = a as i16 + b as i16 - c as i16;
    let (pa, pb, pc) = (
        (p - a as i16).abs(),
        (p - b as i16).abs(),
        (p - c as i16).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[test]
fn a_warc_crawl_is_reported_as_its_parquet_conversion_is() {
    let dir = scratch("warc");
    let warc = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/http_charset.warc");
    let pages = path(&dir.join("pages.parquet"));
    run_ok(&[
        "sql",
        "--table",
        &format!("warc={}", path(&warc)),
        "--file",
        "sql/warc_to_parquet.sql",
        "--output",
        &pages,
    ]);
    let from_warc = dir.join("warc.html");
    let from_parquet = dir.join("parquet.html");
    run_ok(&["report", &path(&warc), &path(&from_warc)]);
    run_ok(&["report", &pages, &path(&from_parquet)]);
    let warc_headline = headline(&std::fs::read_to_string(&from_warc).unwrap());
    assert!(
        warc_headline["pages"].parse::<u64>().unwrap() > 0,
        "{warc_headline:?}"
    );
    assert_eq!(
        warc_headline,
        headline(&std::fs::read_to_string(&from_parquet).unwrap())
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_empty_crawl_gives_a_report_of_zeros() {
    let dir = scratch("empty");
    let crawl = crawl_from_sample(&dir, "SELECT url, html FROM c WHERE false");
    let report = dir.join("report.html");
    run_ok(&["report", &crawl, &path(&report)]);
    let shown = headline(&std::fs::read_to_string(&report).unwrap());
    assert_eq!(shown["pages"], "0");
    assert_eq!(shown["kept_chars"], "0");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_statistics_table_is_webtext_stats_summary_of_the_kept_texts() {
    let dir = scratch("stats");
    let report = dir.join("report.html");
    run_ok(&[
        "report",
        &sample(),
        &path(&report),
        "--stats",
        "--sample",
        "0",
    ]);
    let html = std::fs::read_to_string(&report).unwrap();
    let mean_of = |stat: &str| -> f64 {
        let row = format!("<tr data-stat=\"{stat}\" data-mean=\"");
        let start = html.find(&row).unwrap_or_else(|| panic!("{stat}")) + row.len();
        html[start..].split('"').next().unwrap().parse().unwrap()
    };
    // The same kept texts through `webtext stats`, whose files are datatrove's (its parity check).
    let documents = path(&dir.join("documents.parquet"));
    run_ok(&[
        "sql",
        "--table",
        &format!("c={}", sample()),
        "--output",
        &documents,
        "SELECT url, text FROM (SELECT url, justext(html) AS text FROM c) WHERE text <> ''",
    ]);
    let stats = dir.join("stats");
    run_ok(&["stats", &documents, &path(&stats), "--group-by", "summary"]);
    for stat in ["n_words", "avg_sentence_length", "length"] {
        let file = stats.join(format!("summary/{stat}/metric.json"));
        let json = std::fs::read_to_string(&file).unwrap();
        let start = json.find("\"mean\": ").unwrap() + 8;
        let mean: f64 = json[start..]
            .split([',', '}'])
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let ours = mean_of(stat);
        assert!(
            (ours - mean).abs() <= 1e-9 * mean.abs(),
            "{stat}: {ours} against {mean}"
        );
    }
    // Without --stats, no table.
    run_ok(&["report", &sample(), &path(&report), "--sample", "0"]);
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(!html.contains("<section id=\"stats\">"));
    let _ = std::fs::remove_dir_all(&dir);
}
