//! Every paragraph field of our jusText equals Python jusText 3.0.2's on the fixture pages
//! (the edge pages, each pinning one quirk, and small pages of our own).

use crate::common::{OraclePage, data_dir, read_oracle};
use datafusion_webtext::justext::{Paragraph, Params, justext_bytes};
use datafusion_webtext::stoplists::Stoplist;
use serde_json::Value;

/// The fields of one paragraph as comparable strings.
fn fields_of_ours(p: &Paragraph) -> Vec<String> {
    vec![
        p.text.clone(),
        p.class.to_string(),
        p.cf_class.to_string(),
        p.heading.to_string(),
        p.words_count.to_string(),
        p.length.to_string(),
        p.chars_count_in_links.to_string(),
        p.stopwords_count.to_string(),
        p.tags_count.to_string(),
        p.dom_path.clone(),
        p.xpath.clone(),
        format!("{:?}", p.link_density()),
        format!("{:?}", p.stopword_density()),
    ]
}

fn fields_of_oracle(p: &Value) -> Vec<String> {
    let s = |k: &str| match &p[k] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    // Python prints 0 (an int) for densities of empty text and floats with repr; compare as f64.
    let f = |k: &str| format!("{:?}", p[k].as_f64().unwrap_or(f64::NAN));
    vec![
        s("text"),
        s("class_type"),
        s("cf_class"),
        s("heading"),
        s("words_count"),
        s("length"),
        s("chars_count_in_links"),
        s("stopwords_count"),
        s("tags_count"),
        s("dom_path"),
        s("xpath"),
        f("links_density"),
        f("stopwords_density"),
    ]
}

fn check(dir: &str, oracle_file: &str) {
    let english = Stoplist::by_name("English").unwrap();
    let pages: Vec<OraclePage> = read_oracle(&data_dir().join(dir).join(oracle_file));
    assert!(!pages.is_empty());
    let mut failures = Vec::new();
    for page in &pages {
        let bytes = std::fs::read(data_dir().join(dir).join(format!("{}.html", page.id))).unwrap();
        let ours = justext_bytes(&bytes, english, &Params::default());
        match (&page.error, ours) {
            (Some(_), Err(_)) => {}
            (None, Ok(ours)) => {
                let expected: Vec<Vec<String>> =
                    page.paragraphs.iter().map(fields_of_oracle).collect();
                let got: Vec<Vec<String>> = ours.iter().map(fields_of_ours).collect();
                if expected != got {
                    let i = expected
                        .iter()
                        .zip(&got)
                        .position(|(e, g)| e != g)
                        .unwrap_or(expected.len().min(got.len()));
                    failures.push(format!(
                        "{} ({} vs {} paragraphs), first difference at {i}:\n  expected {:?}\n  got      {:?}",
                        page.id,
                        expected.len(),
                        got.len(),
                        expected.get(i),
                        got.get(i)
                    ));
                }
            }
            (e, o) => failures.push(format!(
                "{}: oracle error {e:?}, ours {:?}",
                page.id,
                o.map(|p| p.len())
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} pages differ:\n{}",
        failures.len(),
        pages.len(),
        failures.join("\n")
    );
}

#[test]
fn edge_pages_match_python_justext_field_for_field() {
    check("edge", "justext-3.0.2.jsonl.gz");
}

#[test]
fn own_pages_match_python_justext_field_for_field() {
    check("", "river.justext-3.0.2.jsonl.gz");
}
