//! The WARC reader against warcio 1.8.1 and FastWARC 2.0.0 on the 159 files of
//! the evaluation data's `eval/warc` (`WEBTEXT_SHARED`; its README describes the oracle).
//!
//! - The 88 files both tools read alike and without error: the same records in the same order,
//!   with the same WARC headers, target URI, stored offset and length, HTTP status and content
//!   type, and the same sha1 of the raw and of the decoded payload.
//! - The other WARC files: never fewer records than the better of the two tools, never fewer
//!   intact (not cut short) records than warcio, and where our records differ from what a tool
//!   read, the difference is one of `EXPLAINED` (the README's table says why).
//! - ARC and LZ4 files are not read: each gives one fault and no record.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;

use datafusion_webtext::warc::{
    MAX_PAYLOAD_BYTES_LIMIT, ReadOptions, WarcFault, WarcReader, WarcRecord,
};
use serde_json::Value;

use crate::common;

/// The WARC files of the evaluation data and warcio's and FastWARC's readings of them; the tests
/// return first when there is none.
fn warc_dir() -> PathBuf {
    common::shared_dir("warc_oracle")
        .expect("checked by the test")
        .join("eval/warc")
}

struct OracleFile {
    file: Value,
    records: Vec<Value>,
}

fn oracle(name: &str) -> OracleFile {
    let path = warc_dir().join("oracle").join(format!("{name}.jsonl.gz"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .unwrap();
    let mut lines = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap());
    let file = lines.next().unwrap();
    OracleFile {
        file,
        records: lines.collect(),
    }
}

fn summary() -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(warc_dir().join("oracle/summary.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .map(|line| {
            header
                .iter()
                .zip(line.split('\t'))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

struct Read_ {
    records: Vec<WarcRecord>,
    faults: Vec<WarcFault>,
}

fn read_file(name: &str) -> Read_ {
    let file = std::fs::File::open(warc_dir().join("files").join(name)).unwrap();
    let mut out = Read_ {
        records: Vec::new(),
        faults: Vec::new(),
    };
    match WarcReader::new(file, ReadOptions::default()) {
        Err(fault) => out.faults.push(fault),
        Ok(reader) => {
            for item in reader {
                match item {
                    Ok(record) => out.records.push(record),
                    Err(fault) => out.faults.push(fault),
                }
            }
        }
    }
    out
}

fn sha1(bytes: &[u8]) -> String {
    sha1_smol::Sha1::from(bytes).digest().to_string()
}

fn str_of(value: &Value) -> Option<&str> {
    value.as_str()
}

/// The fields of one record that differ from the oracle's.
fn differences(ours: &WarcRecord, theirs: &Value, compare_offsets: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |field: &str, a: Option<String>, b: Option<String>| {
        if a != b {
            out.push(format!("{field}: ours {a:?}, warcio {b:?}"));
        }
    };
    let get = |k: &str| str_of(&theirs[k]).map(str::to_owned);
    check(
        "warc_type",
        ours.warc_type().map(Into::into),
        get("warc_type"),
    );
    check(
        "record_id",
        ours.header("WARC-Record-ID").map(Into::into),
        get("record_id"),
    );
    check("target_uri", ours.target_uri.clone(), get("target_uri"));
    check(
        "date",
        ours.header("WARC-Date").map(Into::into),
        get("date"),
    );
    check(
        "content_type",
        ours.header("Content-Type").map(Into::into),
        get("content_type"),
    );
    check(
        "content_length",
        ours.header("Content-Length").map(Into::into),
        get("content_length"),
    );
    check("warc_version", Some(ours.version()), get("warc_version"));
    let headers: Vec<(String, String)> = theirs["warc_headers"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    (
                        p[0].as_str().unwrap().to_owned(),
                        p[1].as_str().unwrap().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    // warcio rewrites WARC-Target-URI in its header list too.
    let ours_headers: Vec<(String, String)> = ours
        .warc
        .fields()
        .map(|(n, v)| {
            let rewritten = n.eq_ignore_ascii_case("WARC-Target-URI")
                && ours.header("WARC-Target-URI") == Some(v);
            (
                n.to_owned(),
                if rewritten {
                    ours.target_uri.clone().unwrap_or_default()
                } else {
                    v.to_owned()
                },
            )
        })
        .collect();
    if ours_headers != headers {
        check(
            "warc_headers",
            Some(format!("{ours_headers:?}")),
            Some(format!("{headers:?}")),
        );
    }
    if compare_offsets && !theirs["offset"].is_null() {
        check(
            "offset",
            Some(ours.offset.to_string()),
            theirs["offset"].as_u64().map(|n| n.to_string()),
        );
        check(
            "length",
            ours.length.map(|n| n.to_string()),
            theirs["length"].as_u64().map(|n| n.to_string()),
        );
    }
    let status = theirs["http"].get("status").and_then(Value::as_i64);
    let request = ours.warc_type() == Some("request");
    if !request {
        check(
            "http_status",
            ours.http_status().map(|s| s.to_string()),
            status.map(|s| s.to_string()),
        );
    }
    check(
        "http",
        Some(ours.http.is_some().to_string()),
        Some((!theirs["http"].is_null()).to_string()),
    );
    check(
        "http_content_type",
        ours.http_header("Content-Type").map(Into::into),
        get("http_content_type"),
    );
    check(
        "payload_raw",
        Some(sha1(ours.payload_raw())),
        str_of(&theirs["payload_raw"]["sha1"]).map(Into::into),
    );
    check(
        "payload",
        // warcio has no ceiling; ours is set to the highest a batch can hold (1 GiB).
        ours.payload_within(MAX_PAYLOAD_BYTES_LIMIT)
            .ok()
            .map(|payload| sha1(&payload)),
        str_of(&theirs["payload"]["sha1"]).map(Into::into),
    );
    check(
        "truncated",
        Some(ours.truncated.to_string()),
        Some(
            theirs["block_truncated"]
                .as_bool()
                .unwrap_or(false)
                .to_string(),
        ),
    );
    out
}

/// Faults expected in files both tools read without error, with the reason.
const CUT: &str = "the file ends before the Content-Length: both tools deliver the short record \
                   without a word; we deliver it too (truncated) and report the cut";
const FAULTS_IN_AGREEING_FILES: &[(&str, usize, &str)] = &[
    (
        "fastwarc/clipped.warc.gz",
        1,
        "the gzip stream is cut short: the record is delivered as far as it inflates",
    ),
    ("webarchive-go/invalid-warcheaderfieldpolicy-3.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderfieldpolicy-4.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderfieldpolicy-5.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderfieldpolicy-6.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderfieldpolicy-7.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderfieldpolicy-8.warc", 1, CUT),
    (
        "webarchive-go/invalid-warcheaderfieldpolicy-14.warc",
        1,
        CUT,
    ),
    (
        "webarchive-go/invalid-warcheaderfieldpolicy-15.warc",
        1,
        CUT,
    ),
    (
        "webarchive-go/invalid-warcheaderfieldpolicy-16.warc",
        1,
        CUT,
    ),
    (
        "webarchive-go/invalid-warcheaderfieldpolicy-17.warc",
        1,
        CUT,
    ),
    ("webarchive-go/invalid-warcheaderversion-2.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderversion-3.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderversion-6.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderversion-7.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderversion-22.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderversion-23.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderversion-24.warc", 1, CUT),
    ("webarchive-go/invalid-warcheaderversion-25.warc", 1, CUT),
];

#[test]
fn files_both_tools_read_alike_are_read_alike() {
    if common::shared_dir("files_both_tools_read_alike_are_read_alike").is_none() {
        return;
    }
    let rows = summary();
    let agreeing: Vec<_> = rows
        .iter()
        .filter(|r| {
            r["fastwarc_diffs"] == "0"
                && r["warcio_error"].is_empty()
                && r["fastwarc_error"].is_empty()
        })
        .collect();
    assert_eq!(agreeing.len(), 88, "the oracle's agreeing files");
    let mut failures = Vec::new();
    let mut records = 0;
    for row in agreeing {
        let name = &row["file"];
        let oracle = oracle(name);
        let ours = read_file(name);
        let expected_faults = FAULTS_IN_AGREEING_FILES
            .iter()
            .find(|(f, ..)| f == name)
            .map_or(0, |(_, n, _)| *n);
        if ours.faults.len() != expected_faults {
            failures.push(format!("{name}: faults {:?}", ours.faults));
        }
        if ours.records.len() != oracle.records.len() {
            failures.push(format!(
                "{name}: {} records, warcio {}",
                ours.records.len(),
                oracle.records.len()
            ));
            continue;
        }
        let compare_offsets = oracle.file["listing_source"] == "original";
        for (i, (a, b)) in ours.records.iter().zip(&oracle.records).enumerate() {
            for d in differences(a, b, compare_offsets) {
                failures.push(format!("{name} record {i}: {d}"));
            }
        }
        records += ours.records.len();
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(records, 1327, "records of the agreeing files");
}

/// Files where our records differ from warcio's in some fields, with the fields and why.
const EXPLAINED: &[(&str, &[&str], &str)] = &[
    (
        "jwat/invalid-warcfile-lonely-continuation.warc",
        &["length", "payload_raw", "payload"],
        NO_LENGTH,
    ),
    (
        "jwat/invalid-warcfile-lonely-monkeys.warc",
        &["length", "payload_raw", "payload"],
        NO_LENGTH,
    ),
    (
        "jwat/invalid-warcfile-lonely-warcinfo-metadata.warc",
        &["length", "payload_raw", "payload"],
        NO_LENGTH,
    ),
    (
        "webarchive-go/invalid-warcrecord-1.warc",
        &["length", "payload_raw", "payload"],
        NO_LENGTH,
    ),
    (
        "warcio-pr66/standard-torture-validate-field.warc",
        &["target_uri", "warc_headers"],
        "four WARC-Target-URI fields: we give the first one normalised (`<…>` removed); warcio's \
         rewrite lands on the fourth field and leaves the first as written",
    ),
];
const NO_LENGTH: &str = "a record without Content-Length: warcio takes its block to the end of the file, \
                         we take it as empty and read the records that follow";

/// WARC files where we read fewer records than a tool, and why.
const FEWER: &[(&str, &str)] = &[
    (
        "webarchive-go/invalid-warcheaderversion-20.warc",
        "the file is one blank line: warcio's record has no header at all",
    ),
    (
        "webarchive-go/invalid-warcreader-diagnosis-1.warc",
        "prose without a WARC/ line: warcio's record is its first blank line; we report a file that is not WARC",
    ),
];

fn is_arc_or_lz4(name: &str) -> bool {
    name.ends_with(".arc") || name.ends_with(".arc.gz") || name.ends_with(".lz4")
}

#[test]
fn other_files_never_lose_records_and_every_difference_is_explained() {
    if common::shared_dir("other_files_never_lose_records_and_every_difference_is_explained")
        .is_none()
    {
        return;
    }
    let rows = summary();
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in rows.iter().filter(|r| {
        !(r["fastwarc_diffs"] == "0"
            && r["warcio_error"].is_empty()
            && r["fastwarc_error"].is_empty())
    }) {
        let name = row["file"].as_str();
        let oracle = oracle(name);
        let ours = read_file(name);
        checked += 1;
        if is_arc_or_lz4(name) {
            if !ours.records.is_empty() || ours.faults.len() != 1 {
                failures.push(format!(
                    "{name}: ARC/LZ4 should give one fault and no record: {} records, {:?}",
                    ours.records.len(),
                    ours.faults
                ));
            }
            continue;
        }
        let intact = ours.records.iter().filter(|r| !r.truncated).count();
        let warcio_intact = oracle
            .records
            .iter()
            .filter(|r| !r["block_truncated"].as_bool().unwrap_or(false))
            .count();
        let fastwarc: usize = row["fastwarc_records"].parse().unwrap();
        let better = oracle.records.len().max(fastwarc);
        if (ours.records.len() < better || intact < warcio_intact)
            && !FEWER.iter().any(|(f, _)| *f == name)
        {
            failures.push(format!("{name}: {} records ({intact} intact), warcio {} ({warcio_intact}), FastWARC {fastwarc}", ours.records.len(), oracle.records.len()));
        }
        let explained: &[&str] = EXPLAINED
            .iter()
            .find(|(f, ..)| *f == name)
            .map_or(&[], |(_, fields, _)| fields);
        let compare_offsets = oracle.file["listing_source"] == "original";
        // Records are compared by position while both lists agree on record ids.
        for (i, (a, b)) in ours.records.iter().zip(&oracle.records).enumerate() {
            if a.header("WARC-Record-ID") != b["record_id"].as_str() {
                break;
            }
            for d in differences(a, b, compare_offsets) {
                let field = d.split(':').next().unwrap_or_default();
                if !explained.contains(&field) {
                    failures.push(format!("{name} record {i}: {d}"));
                }
            }
        }
    }
    assert_eq!(checked, 71);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
