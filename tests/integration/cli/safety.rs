//! What a stopped, hostile or planted run leaves: nothing half-written, no link followed, memory
//! bounded.

use super::*;

/// The sample crawl `copies` times over, as links to it in a folder: a run of some seconds.
fn linked_crawl(dir: &Path, copies: usize) -> String {
    let folder = dir.join("crawl");
    std::fs::create_dir_all(&folder).unwrap();
    for i in 0..copies {
        std::os::unix::fs::symlink(sample(), folder.join(format!("part-{i}.parquet"))).unwrap();
    }
    folder.display().to_string()
}

/// What a run left that only a run makes: a temporary output or scratch folder beside the
/// output, a folder of its own in the temporary directory.
fn leftovers(out_dir: &Path, tmp: &Path) -> Vec<String> {
    let mut left: Vec<String> = files_in(out_dir)
        .into_iter()
        .filter(|n| n.contains(".webtext-"))
        .collect();
    left.extend(files_in(tmp));
    left
}

/// Sends `signal` to a run once it has started writing (something of its own is on disk), and
/// returns how it ended.
fn interrupt(args: &[&str], tmp: &Path, out_dir: &Path, signal: &str) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_webtext"))
        .args(args)
        .env("TMPDIR", tmp)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while leftovers(out_dir, tmp).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "webtext {args:?} wrote nothing"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    child.wait_with_output().unwrap()
}

/// Ctrl-C or SIGTERM in the middle of clean, dedup and report: the run exits with 130 or 143 as
/// a shell reports the signal, says so in one line, and leaves nothing behind: no temporary
/// output beside the output, no scratch folder, no folder in the temporary directory.
#[test]
fn an_interrupted_run_leaves_nothing_behind() {
    let dir = scratch("interrupt");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let crawl = linked_crawl(&dir, 128);
    let documents = dir.join("documents.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--table",
        &format!("crawl={crawl}"),
        "--output",
        &documents,
        "SELECT CAST(row_number() OVER (ORDER BY url) AS BIGINT) AS doc_id, justext(html) AS text FROM crawl",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = |name: &str| out_dir.join(name).display().to_string();
    for (args, signal, status) in [
        (vec!["clean", &crawl, &out("cleaned.parquet")], "-INT", 130),
        (
            vec!["dedup", &documents, &out("paragraphs.parquet")],
            "-TERM",
            143,
        ),
        (vec!["report", &crawl, &out("report.html")], "-INT", 130),
    ] {
        let o = interrupt(&args, &tmp, &out_dir, signal);
        assert_eq!(o.status.code(), Some(status), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("nothing was written"), "{}", stderr(&o));
        assert_eq!(
            leftovers(&out_dir, &tmp),
            Vec::<String>::new(),
            "{args:?} left files"
        );
        assert_eq!(files_in(&out_dir), Vec::<String>::new(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A link planted where an output is to be created is replaced, never followed: its target is
/// untouched. A planted demo folder is refused.
#[test]
fn a_planted_link_is_never_followed() {
    let dir = scratch("planted");
    let victim = dir.join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    for (name, args) in [
        ("cleaned.parquet", vec!["clean", &sample()]),
        ("report.html", vec!["report", &sample()]),
    ] {
        let out = dir.join(name);
        std::os::unix::fs::symlink(&victim, &out).unwrap();
        let mut args = args.clone();
        let out_text = out.display().to_string();
        args.push(&out_text);
        let o = webtext(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious", "{args:?}");
        let meta = std::fs::symlink_metadata(&out).unwrap();
        assert!(meta.is_file(), "{name} is still a link");
    }
    // The demo's folder, planted as a link to a folder of somebody else.
    let tmp = dir.join("tmp");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let uid = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(&victim).unwrap());
    std::os::unix::fs::symlink(&elsewhere, tmp.join(format!("webtext-demo-{uid}"))).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_webtext"))
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    assert_fails_naming(&o, "is not a private folder of this user");
    assert_eq!(files_in(&elsewhere), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hostile archive cleaned on 16 threads under a 4 GiB address-space limit: a response of 64 MiB
/// of HTTP header lines without an end, and 64 gzip bombs of 1 MiB that would inflate to 1 GiB
/// each, 48 of them HTML pages and 16 behind a 404. The run ends; the pages' bombs are decoded
/// up to the ceiling only, given a NULL page and counted; the 404s are never decoded; the one
/// real page is cleaned.
#[test]
fn a_hostile_archive_is_cleaned_within_four_gibibytes() {
    use std::io::Write;
    let dir = scratch("hostile-archive");
    let archive = dir.join("hostile.warc");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&archive).unwrap());
    let endless_head: Vec<u8> = b"a:b\r\n".repeat((64 << 20) / 5);
    let mut head_block = b"HTTP/1.1 200 OK\r\n".to_vec();
    head_block.extend_from_slice(&endless_head);
    write!(
        file,
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/head\r\n\
         Content-Length: {}\r\n\r\n",
        head_block.len()
    )
    .unwrap();
    file.write_all(&head_block).unwrap();
    file.write_all(b"\r\n\r\n").unwrap();
    let bomb = gzip_bomb(1 << 30);
    assert!(bomb.len() < 2 << 20, "{}", bomb.len());
    for i in 0..64 {
        let status = if i % 4 == 3 { 404 } else { 200 };
        let url = format!("http://a.example/bomb-{i}");
        file.write_all(&response(&url, status, "text/html", true, &bomb))
            .unwrap();
    }
    let page = format!(
        "<html><body><h1>A real page</h1><p>{}</p></body></html>",
        "This is a paragraph of plain English text, written to be kept by the extractor. "
            .repeat(8)
    );
    let real = response(
        "http://a.example/real",
        200,
        "text/html",
        false,
        page.as_bytes(),
    );
    file.write_all(&real).unwrap();
    drop(file);

    let out = dir.join("cleaned.parquet").display().to_string();
    let o = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 4194304 && exec \"$@\"",
            "sh",
            env!("CARGO_BIN_EXE_webtext"),
        ])
        .args([
            "clean",
            &archive.display().to_string(),
            &out,
            "--partitions",
            "16",
        ])
        // Decoding stops one byte past the ceiling; a ceiling lower than the default (64 MiB)
        // keeps the tests' unoptimised zlib quick.
        .args(["--max-payload-bytes", "8388608"])
        .output()
        .expect("sh runs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("48 response(s) had a payload over --max-payload-bytes"),
        "{}",
        stderr(&o)
    );
    let o = sql_csv(
        &[format!("cleaned={out}")],
        "SELECT count(*) AS pages, count(text) AS texts, max(url) FILTER (WHERE text <> '') AS url FROM cleaned",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "pages,texts,url\n49,1,http://a.example/real\n");
    let _ = std::fs::remove_dir_all(&dir);
}
