//! `webtext decont-index` and `ngram_decontamination`: datatrove's n-gram decontamination, an
//! index folder written whole and documents checked against it in SQL.

use super::*;

/// An evaluation set of two tasks: a question with its answer, and an answer alone.
fn evaluation_set(dir: &Path) -> String {
    let path = dir.join("trivia.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--output",
        &path,
        "SELECT column1 AS query, column2 AS text, column3 AS task FROM (VALUES \
         ('Which city is the capital of France?', 'Paris, the city of light.', 'geo'), \
         (NULL, 'Water boils at 100 degrees Celsius at sea level.', 'science'))",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

#[test]
fn decont_index_writes_datatroves_files_and_sql_finds_the_first_shared_ngram() {
    let dir = scratch("decont");
    let eval = evaluation_set(&dir);
    let index = dir.join("index");
    let o = webtext(&[
        "decont-index",
        &eval,
        &index.display().to_string(),
        "--task-column",
        "task",
        "--n-grams",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // geo: the label "paris the city of light" (5 words) has 2 4-grams; with the query's last
    // words, 3 overlapping ones ("capital of france paris", "of france paris the", "france
    // paris the city"); the query's own 4-grams are not indexed. science: "water boils at 0 degrees celsius at sea level" (numbers as
    // 0), 9 words, 6 4-grams and no query. 8 bytes a hash.
    assert_eq!(
        files_in(&index),
        ["geo.index.hashes", "science.index.hashes"]
    );
    let size = |name: &str| std::fs::metadata(index.join(name)).unwrap().len();
    assert_eq!(size("geo.index.hashes"), 5 * 8);
    assert_eq!(size("science.index.hashes"), 6 * 8);

    let documents = dir.join("documents.parquet").display().to_string();
    let o = webtext(&[
        "sql",
        "--output",
        &documents,
        "SELECT column1 AS id, column2 AS text FROM (VALUES \
         (1, 'Quiz. The capital of FRANCE? Paris! The city of light, they say.'), \
         (2, 'At sea level, water boils at 100.5 degrees Celsius... or so.'), \
         (3, 'Nothing to see here at all, nothing whatsoever.'), \
         (4, NULL))",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let query = format!(
        "SELECT id, d['passed'] AS passed, d['reason'] AS reason, d['task'] AS task, \
         d['ngram'] AS ngram FROM (SELECT id, ngram_decontamination(text, '{}', 'n_grams=4') AS d \
         FROM docs) ORDER BY id",
        index.display()
    );
    let o = sql_csv(&[format!("docs={documents}")], &query);
    assert!(o.status.success(), "{}", stderr(&o));
    // 1: "quiz the capital of france paris the city of light they say": "capital of france
    // paris" is the first 4-gram the index holds (an overlap; "the capital of france" is the
    // query's own). 2: "water boils at 0 degrees" (100.5 is
    // one number). 3 shares nothing; 4 is NULL.
    assert_eq!(
        stdout(&o),
        "id,passed,reason,task,ngram\n\
         1,false,contaminated,geo,capital of france paris\n\
         2,false,contaminated,science,water boils at 0\n\
         3,true,,,\n\
         4,,,,\n"
    );
}

#[test]
fn decontamination_errors_name_the_function_and_the_argument() {
    let dir = scratch("decont-errors");
    let missing = dir.join("no-index").display().to_string();
    let o = sql_csv(
        &[],
        &format!("SELECT ngram_decontamination('x', '{missing}')"),
    );
    assert_fails_naming(&o, "ngram_decontamination: argument 2 (index)");
    let o = sql_csv(&[], "SELECT ngram_decontamination('x')");
    assert_fails_naming(&o, "ngram_decontamination: argument 2 (index)");
    let eval = evaluation_set(&dir);
    let refused = webtext(&["decont-index", &eval, &dir.display().to_string()]);
    assert_fails_naming(&refused, "--overwrite");
}
