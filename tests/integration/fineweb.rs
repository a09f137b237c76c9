//! `webtext fineweb`: FineWeb's recipe from WARC records to kept documents, each step doing what
//! datatrove's block does (the whole chain is compared with datatrove itself on the evaluation
//! archive by eval/parity/fineweb.py).

use std::io::Write;

use crate::common::{stderr, webtext};

/// A WARC response record as Common Crawl writes one: id, date, the payload type it identified.
fn record(number: usize, url: &str, payload_type: &str, body: &str) -> Vec<u8> {
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: {payload_type}\r\n\r\n{body}");
    let mut record = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{number:012}>\r\n\
         WARC-Date: 2024-01-0{}T00:00:00Z\r\nWARC-Target-URI: {url}\r\n\
         WARC-Identified-Payload-Type: {payload_type}\r\nContent-Length: {}\r\n\r\n",
        1 + number % 9,
        http.len()
    )
    .into_bytes();
    record.extend_from_slice(http.as_bytes());
    record.extend_from_slice(b"\r\n\r\n");
    record
}

fn page(title: &str, paragraphs: &[&str]) -> String {
    let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>")).collect();
    format!(
        "<html><head><title>{title}</title></head><body><article><h1>{title}</h1>{body}</article></body></html>"
    )
}

const GARDEN: [&str; 3] = [
    "Most vegetables grow best in a sunny spot that gets at least six hours of light each day. \
     Before you plant anything, spend a week watching how the shadows move across your yard, \
     and write down which corners stay bright through the afternoon.",
    "Good soil matters more than any fertiliser you can buy. Dig in a few inches of compost \
     every spring, and the earth will hold water longer during the dry months of summer. Worms \
     will arrive on their own once there is something for them to eat.",
    "Start with crops that forgive mistakes, such as beans, lettuce and radishes. They come up \
     quickly, so you will learn from each season without waiting too long. If you have questions, \
     write to the club at garden.club@example.net and a member will answer within the week.",
];

const BREAD: [&str; 3] = [
    "Baking bread at home takes patience, but the steps themselves are simple. You mix flour, \
     water, salt and yeast, then let the dough rest while the yeast does its slow work on the \
     sugars hidden in the grain.",
    "Kneading builds the gluten that gives a loaf its shape and chew. Push the dough away with \
     the heel of your hand, fold it back over itself, and turn it a quarter of the way around \
     before you push again, for about ten minutes in all.",
    "A hot oven is the secret to a good crust. Put a tray of water on the lowest shelf so that \
     steam fills the oven for the first part of the bake, and resist the urge to open the door \
     until the loaf has browned on top.",
];

/// One archive: an article, a near-copy of it, a page copied four times, a French page and a
/// record that is not HTML.
fn crawl(path: &std::path::Path) {
    let garden = page("Planning a first vegetable garden", &GARDEN);
    let mut near_copy = GARDEN;
    near_copy[0] = "Most vegetables grow best in a sunny spot that gets at least six hours of light \
                    each day. Before you plant anything, spend a week watching how the shadows move \
                    across your garden, and write down which corners stay bright through the afternoon.";
    let bread = page("Baking your first loaf", &BREAD);
    let french = page(
        "Le jardin",
        &[
            "Les légumes poussent mieux dans un endroit ensoleillé qui reçoit au moins six heures \
           de lumière par jour. Avant de planter quoi que ce soit, observez pendant une semaine \
           comment les ombres se déplacent dans votre jardin et notez les coins qui restent \
           lumineux tout l'après-midi.",
        ],
    );
    let records: Vec<Vec<u8>> = vec![
        record(1, "https://a.example/garden", "text/html", &garden),
        record(
            2,
            "https://b.example/garden",
            "text/html",
            &page("Planning a first vegetable garden", &near_copy),
        ),
        record(3, "https://a.example/bread", "text/html", &bread),
        record(4, "https://b.example/bread", "text/html", &bread),
        record(5, "https://c.example/bread", "text/html", &bread),
        record(6, "https://d.example/bread", "text/html", &bread),
        record(7, "https://a.example/jardin", "text/html", &french),
        record(
            8,
            "https://a.example/robots.txt",
            "text/plain",
            "User-agent: *\nDisallow:\n",
        ),
    ];
    let mut file = std::fs::File::create(path).unwrap();
    for r in records {
        file.write_all(&r).unwrap();
    }
}

fn rows(table: &str, sql: &str) -> Vec<serde_json::Value> {
    let o = webtext(&[
        "sql",
        "--table",
        &format!("t={table}"),
        "--format",
        "jsonl",
        sql,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn id(number: usize) -> String {
    format!("<urn:uuid:00000000-0000-0000-0000-{number:012}>")
}

#[test]
#[cfg(feature = "langid")]
fn fineweb_keeps_removes_and_formats_as_datatroves_blocks_do() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("crawl.warc");
    crawl(&warc);
    let out = dir.path().join("out");
    let removed = dir.path().join("removed");
    let o = webtext(&[
        "fineweb",
        warc.to_str().unwrap(),
        out.to_str().unwrap(),
        "--removed",
        removed.to_str().unwrap(),
        "--url-filter",
        "block_list=none",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("fineweb: kept 2 documents"),
        "{}",
        stderr(&o)
    );

    let kept = rows(
        &out.join("documents.parquet").display().to_string(),
        "SELECT id, url, CAST(date AS VARCHAR) AS date, language, text FROM t ORDER BY id",
    );
    let ids: Vec<&str> = kept.iter().map(|r| r["id"].as_str().unwrap()).collect();
    // The first of each group of near-duplicates, as datatrove's clustering keeps it.
    assert_eq!(ids, [id(1), id(3)]);
    assert_eq!(kept[0]["language"], "en");
    let garden = kept[0]["text"].as_str().unwrap();
    // PIIFormatter: the first e-mail replacement of its cycle.
    assert!(
        garden.contains("write to the club at email@example.com and"),
        "{garden}"
    );
    assert!(!garden.contains("garden.club@"), "{garden}");
    assert!(
        garden.starts_with("Planning a first vegetable garden\n"),
        "{garden}"
    );

    let removed = rows(
        &removed.join("removed.parquet").display().to_string(),
        "SELECT id, removed_by, reason FROM t ORDER BY id",
    );
    let fates: Vec<(String, &str, Option<&str>)> = removed
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().to_owned(),
                r["removed_by"].as_str().unwrap(),
                r["reason"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        fates,
        [
            // The near-copy and the second and third copies: MinHash, which gives no reason.
            (id(2), "minhash", None),
            (id(4), "minhash", None),
            (id(5), "minhash", None),
            // The fourth copy: every paragraph seen three times before, trafilatura's
            // de-duplication leaves nothing.
            (id(6), "extraction", Some("empty")),
            (id(7), "language", Some("fr")),
        ]
    );
    // The plain-text record is no document: datatrove's reader takes HTML only.
    assert!(!fates.iter().any(|(i, _, _)| *i == id(8)));
}

#[test]
fn fineweb_names_a_missing_input() {
    let dir = tempfile::tempdir().unwrap();
    let o = webtext(&[
        "fineweb",
        dir.path().join("absent.warc.gz").to_str().unwrap(),
        dir.path().join("out").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("absent.warc.gz"), "{}", stderr(&o));
    assert!(!dir.path().join("out").exists());
}

/// The two stages run apart write what one run writes; a rerun of the filtering stage finds its
/// file done; the de-duplication stage alone, before any filtering, says what to run first.
#[test]
#[cfg(feature = "langid")]
fn fineweb_stages_apart_write_what_one_run_writes() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("crawl.warc");
    crawl(&warc);
    let run = |out: &std::path::Path, stage: Option<&str>| {
        let mut args = vec!["fineweb", warc.to_str().unwrap(), out.to_str().unwrap()];
        args.extend(["--url-filter", "block_list=none"]);
        if let Some(stage) = stage {
            args.extend(["--stage", stage]);
        }
        webtext(&args)
    };
    let apart = dir.path().join("apart");
    let o = run(&apart, Some("dedup"));
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("the filtering stage has not finished"),
        "{}",
        stderr(&o)
    );
    assert!(!apart.join("documents.parquet").exists());

    for (stage, shown) in [
        ("filter", "1 shard(s) written, 0 skipped"),
        ("filter", "0 shard(s) written, 1 skipped"),
        ("dedup", "fineweb: kept 2 documents"),
    ] {
        let o = run(&apart, Some(stage));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains(shown), "{stage}: {}", stderr(&o));
    }
    assert!(apart.join("filtered/_manifest.json").exists());
    let whole = dir.path().join("whole");
    assert!(run(&whole, None).status.success());
    let texts = |out: &std::path::Path| {
        rows(
            &out.join("documents.parquet").display().to_string(),
            "SELECT id, text FROM t ORDER BY id",
        )
    };
    assert_eq!(texts(&apart), texts(&whole));
    assert_eq!(texts(&whole).len(), 2);
}
