//! `webtext dedup`, `near-dedup` and FineWeb's SQL: their decisions as the functions make them.

use super::*;

#[test]
fn dedup_writes_one_row_per_paragraph_with_onions_decision_in_id_order() {
    let dir = scratch("dedup");
    let docs = small_documents(&dir);
    let out = dir.join("paragraphs.parquet").display().to_string();
    let o = webtext(&["dedup", &docs, &out, "--no-smoothing"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not in strictly ascending 'doc_id' order"),
        "{}",
        stderr(&o)
    );
    // Document 1 comes first although it is second in the file; document 2's first paragraph
    // repeats all 8 tokens of document 1's (the 7-grams ending at its tokens 7 and 8: 7 + 1 bad
    // tokens of 8); its second paragraph is new. NULL text has no paragraphs.
    assert_eq!(
        dedup_rows(&out),
        "doc_id,par_idx,kept,text\n\
         1,0,true,alpha beta gamma delta epsilon zeta eta theta\n\
         1,1,true,short line here\n\
         2,0,false,alpha beta gamma delta epsilon zeta eta theta\n\
         2,1,true,new words only in two here today\n"
    );
    // With smoothing (onion's default) document 1 (11 tokens, no duplicate) is a stub and goes;
    // protect_unique_documents keeps it. Document 2's 7-token tail after a duplicate goes too.
    let o = webtext(&["dedup", &docs, &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dedup_rows(&out).contains("1,0,false,"));
    let o = webtext(&["dedup", &docs, &out, "--protect-unique-documents"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        dedup_rows(&out),
        "doc_id,par_idx,kept,text\n\
         1,0,true,alpha beta gamma delta epsilon zeta eta theta\n\
         1,1,true,short line here\n\
         2,0,false,alpha beta gamma delta epsilon zeta eta theta\n\
         2,1,false,new words only in two here today\n"
    );
    assert_eq!(
        files_in(&dir),
        ["docs.parquet", "paragraphs.parquet"],
        "no scratch file left"
    );
    assert_fails_naming(
        &webtext(&["dedup", &docs, &out, "--text-column", "body"]),
        "no column 'body' (--text-column); columns: doc_id, text",
    );
}

/// sql/fineweb.sql against the chain computed here step by step from the library (URL, language,
/// Gopher repetition, Gopher quality, FineWeb's C4 and FineWeb quality on C4's text): the same
/// step and reason for every page of the sample crawl, and the kept text.
#[test]
#[cfg(feature = "langid")]
fn fineweb_sql_removes_what_the_chain_of_filters_removes() {
    use datafusion_webtext::datatrove::filters::{
        C4QualityParams, FineWebQualityParams, GopherQualityParams, GopherRepetitionParams,
        c4_quality, fineweb_quality, gopher_quality, gopher_repetition,
    };
    let dir = scratch("fineweb");
    let decisions = dir.join("decisions.parquet").display().to_string();
    let kept = dir.join("kept.parquet").display().to_string();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql/fineweb.sql");
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={}", sample()),
        "--file",
        &file.display().to_string(),
        "--param",
        &format!("decisions={decisions}"),
        // datatrove's block list is not in the repository: its word lists alone.
        "--param",
        "url_filter=block_list=none",
        // The sample crawl has no record order: trafilatura page by page.
        "--param",
        "extraction=trafilatura(page, 'favor_precision=true, include_comments=false')",
        "--format",
        "csv",
        "--output",
        &kept,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("step,documents_in,removed,removed_share,kept"),
        "{}",
        stdout(&o)
    );

    let rows = |sql: &str| -> Vec<serde_json::Value> {
        let o = webtext(&[
            "sql",
            "--table",
            &format!("crawl={}", sample()),
            "--table",
            &format!("d={decisions}"),
            "--format",
            "jsonl",
            sql,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let extracted = rows(
        "SELECT url, trafilatura(html, 'favor_precision=true, include_comments=false') AS text \
         FROM crawl",
    );
    let ours = rows("SELECT url, removed_by, reason, text FROM d");
    let by_url: std::collections::HashMap<&str, &serde_json::Value> = ours
        .iter()
        .map(|r| (r["url"].as_str().unwrap(), r))
        .collect();
    let model = datafusion_webtext::langid::LanguageModel::load("").unwrap();
    let fineweb_c4 = C4QualityParams {
        filter_no_terminal_punct: false,
        ..C4QualityParams::default()
    };
    let url_filter = datafusion_webtext::datatrove::url_filter::UrlFilter::new(
        &datafusion_webtext::datatrove::url_filter::UrlFilterParams::default(),
    )
    .unwrap();
    let mut kept_pages = 0;
    for page in &extracted {
        let text = page["text"].as_str().unwrap_or_default();
        let url = page["url"].as_str().unwrap();
        let chain = || -> (Option<&str>, Option<String>, Option<String>) {
            if let Some(reason) = url_filter.filter(url).unwrap().reason {
                return (Some("url_filter"), Some(reason.into()), None);
            }
            if text.is_empty() {
                return (Some("extraction"), Some("empty".into()), None);
            }
            let best = model.predict(text, Some(1)).unwrap().remove(0);
            if !(best.language == "en" && f64::from(best.score) > 0.65) {
                return (Some("language"), Some(best.language), None);
            }
            if let Some(r) = gopher_repetition(text, &GopherRepetitionParams::default()).reason {
                return (Some("gopher_repetition"), Some(r), None);
            }
            if let Some(r) = gopher_quality(text, &GopherQualityParams::default()).reason {
                return (Some("gopher_quality"), Some(r.into()), None);
            }
            let c4 = c4_quality(text, &fineweb_c4);
            if let Some(r) = c4.reason {
                return (Some("c4_quality"), Some(r.into()), None);
            }
            if let Some(r) = fineweb_quality(&c4.text, &FineWebQualityParams::default()).reason {
                return (Some("fineweb_quality"), Some(r.into()), None);
            }
            (None, None, Some(c4.text))
        };
        let (step, reason, kept_text) = chain();
        kept_pages += usize::from(step.is_none());
        let row = by_url[url];
        assert_eq!(row["removed_by"].as_str(), step, "{url}");
        assert_eq!(row["reason"].as_str(), reason.as_deref(), "{url}");
        assert_eq!(row["text"].as_str(), kept_text.as_deref(), "{url}");
    }
    assert_eq!(ours.len(), extracted.len());
    assert!(kept_pages > 50, "{kept_pages}");
    let o = sql_csv(&[format!("k={kept}")], "SELECT count(*) FROM k");
    assert_eq!(
        stdout(&o).lines().nth(1),
        Some(kept_pages.to_string().as_str())
    );
}

#[test]
fn near_dedup_writes_every_document_with_its_cluster_and_keeps_the_root() {
    let dir = scratch("near-dedup");
    let docs = dir.join("docs.parquet").display().to_string();
    // 3 and 1 are the same words once simplified (case, punctuation), so they share every band;
    // 1 comes first in id order and, a tie of two singletons, is the root and kept. 2 is
    // unrelated, 4 is too short for a 5-word shingle: both alone and kept.
    let o = webtext(&[
        "sql",
        "--output",
        &docs,
        "SELECT column1 AS doc_id, column2 AS text, column3 AS url FROM (VALUES \
         (3, 'The QUICK brown fox -- jumps over the lazy dog!', 'c'), \
         (2, 'a completely different story about rivers and mountains', 'b'), \
         (1, 'the quick brown fox jumps over the lazy dog', 'a'), \
         (4, 'too short', 'd'))",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("out.parquet").display().to_string();
    let o = webtext(&["near-dedup", &docs, &out]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("4 documents, 2 in clusters, 1 removed"),
        "{}",
        stderr(&o)
    );
    let o = sql_csv(
        &[format!("r={out}")],
        "SELECT doc_id, url, cluster_id, cluster_size, kept FROM r ORDER BY doc_id",
    );
    assert_eq!(
        stdout(&o),
        "doc_id,url,cluster_id,cluster_size,kept\n\
         1,a,0,2,true\n\
         2,b,-1,1,true\n\
         3,c,0,2,false\n\
         4,d,-1,1,true\n"
    );
    // The same file through `webtext sql`, and --kept-only.
    let sql_out = dir.join("sql.parquet").display().to_string();
    let sql_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("sql/near_dedup.sql");
    let o = webtext(&[
        "sql",
        "--table",
        &format!("documents={docs}"),
        "--file",
        sql_file.to_str().unwrap(),
        "--output",
        &sql_out,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = sql_csv(
        &[format!("r={sql_out}")],
        "SELECT doc_id, cluster_id, kept FROM r ORDER BY doc_id",
    );
    assert_eq!(
        stdout(&o),
        "doc_id,cluster_id,kept\n1,0,true\n2,-1,true\n3,0,false\n4,-1,true\n"
    );
    let o = webtext(&[
        "near-dedup",
        &docs,
        &out,
        "--kept-only",
        "--config",
        "fineweb",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = sql_csv(
        &[format!("r={out}")],
        "SELECT doc_id FROM r ORDER BY doc_id",
    );
    assert_eq!(stdout(&o), "doc_id\n1\n2\n4\n");
    assert_fails_naming(
        &webtext(&["near-dedup", &docs, &out, "--id-column", "url"]),
        "the id column 'url' (--id-column) is Utf8",
    );
    assert_fails_naming(
        &webtext(&["near-dedup", &docs, &out, "--rows", "0"]),
        "--rows must be from 1 to 1000",
    );
}
