use super::*;
use crate::dedup::tokenize::for_each_token;

fn run(params: OnionParams, docs: &[&str]) -> Vec<Vec<bool>> {
    let mut onion = Onion::new(params, TokenOptions::default());
    let mut out = Vec::new();
    for d in docs {
        let mut kept = Vec::new();
        onion.process(d, &mut kept);
        out.push(kept);
    }
    out
}

/// The n-grams that occur at least twice in the documents, counted here with a hash map (not
/// with the library's `DuplicateCounter`).
fn duplicate_set(docs: &[&str], n: usize) -> DupSet {
    let mut counts: std::collections::HashMap<u64, usize> = Default::default();
    let mut s = String::new();
    for d in docs {
        let mut w = NgramWindow::new(n);
        TokenOptions::default().for_each_token_hash(d, &mut s, |t| {
            if let Some(h) = w.push(t) {
                *counts.entry(h).or_default() += 1;
            }
        });
    }
    let dups: Vec<u64> = counts
        .into_iter()
        .filter(|&(_, c)| c > 1)
        .map(|(h, _)| h)
        .collect();
    DupSet::from_hashes(dups).unwrap()
}

/// The same run with the duplicate set built from all documents' n-grams.
fn run_with_duplicates(params: OnionParams, docs: &[&str]) -> Vec<Vec<bool>> {
    let set = Arc::new(duplicate_set(docs, params.n));
    let mut onion = Onion::with_duplicates(params, TokenOptions::default(), set);
    docs.iter()
        .map(|d| {
            let mut kept = Vec::new();
            onion.process(d, &mut kept);
            kept
        })
        .collect()
}

fn words(prefix: &str, count: usize) -> String {
    (0..count).map(|i| format!("{prefix}{i} ")).collect()
}

fn no_smoothing(n: usize) -> OnionParams {
    OnionParams {
        n,
        smoothing: false,
        ..Default::default()
    }
}

#[test]
fn a_repeated_paragraph_is_dropped_and_its_first_copy_kept() {
    let a = words("a", 30);
    let b = words("b", 30);
    let c = words("c", 30);
    let docs = [format!("{a}\n{b}"), format!("{c}\n{a}")];
    let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
    let expected = vec![vec![true, true], vec![true, false]];
    assert_eq!(run(OnionParams::default(), &docs), expected);
    assert_eq!(run_with_duplicates(OnionParams::default(), &docs), expected);
}

#[test]
fn exactly_the_threshold_is_kept() {
    // Paragraph of 20 tokens whose first 10 repeat doc 0: the n-grams ending at tokens 3..9
    // (n = 4) are hits and cover tokens 0..9: bad = 10, 10/20 = 0.5, not > 0.5.
    let x = words("x", 10);
    let y = words("y", 10);
    let z = words("z", 11);
    let docs = [x.clone(), format!("{x}{y}"), format!("{x}{z}")];
    let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
    let got = run(no_smoothing(4), &docs);
    assert_eq!(got, vec![vec![true], vec![true], vec![true]]);
    // Doc 2: x0..x9 z0..: the n-gram x7 x8 x9 z0 is new, so 10 bad of 21 tokens: kept.
    let t = OnionParams {
        threshold: 0.45,
        ..no_smoothing(4)
    };
    assert_eq!(run(t, &docs), vec![vec![true], vec![false], vec![false]]);
}

#[test]
fn hits_inside_one_document_count_and_coverage_is_not_double_counted() {
    // n = 2; "p q p q p q": n-grams pq qp pq qp pq; hits at tokens 3 (pq), 4 (qp)... tokens
    // 1..: pq@1 new, qp@2 new, pq@3 hit (+2), qp@4 hit (+1), pq@5 hit (+1) → bad 4 of 6.
    let got = run(no_smoothing(2), &["p q p q p q"]);
    assert_eq!(got, vec![vec![false]]);
    let got = run(
        OnionParams {
            threshold: 0.67,
            ..no_smoothing(2)
        },
        &["p q p q p q"],
    );
    assert_eq!(got, vec![vec![true]], "4/6 = 0.667 is not > 0.67");
}

#[test]
fn ngrams_span_paragraphs_and_count_only_tokens_of_their_last_paragraph() {
    // n = 3. Doc 0 registers "a b c d". Doc 1: "a b" / "c d e f": n-gram "a b c" ends in
    // paragraph 1 at its first token: covers 1 token there (p - s + 1), "b c d" one more.
    let got = run(no_smoothing(3), &["a b c d", "a b\nc d e f"]);
    // Paragraph 0 has no n-gram ending in it; paragraph 1: bad 2 of 4, not > 0.5.
    assert_eq!(got, vec![vec![true], vec![true, true]]);
}

#[test]
fn smoothing_removes_short_runs_between_duplicates_and_short_unique_documents() {
    let a = words("a", 30);
    let b = words("b", 30);
    let docs = [
        format!("{a}\n{b}"),
        format!("{a}\nshort unique line\n{b}\n{}", words("u", 25)),
        "ten unique tokens in a document that is short".to_owned(),
    ];
    let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
    let got = run(OnionParams::default(), &docs);
    assert_eq!(
        got,
        vec![
            vec![true, true],
            vec![false, false, false, true],
            vec![false],
        ]
    );
    let protect = OnionParams {
        protect_unique_documents: true,
        ..Default::default()
    };
    assert_eq!(run(protect, &docs)[2], vec![true]);
    assert_eq!(
        run(no_smoothing(7), &docs)[1],
        vec![false, true, false, true]
    );
}

#[test]
fn ngrams_of_dropped_paragraphs_are_not_registered() {
    // Doc 1's first paragraph repeats doc 0 and adds the new text c; doc 2 repeats c.
    let a = words("a", 30);
    let c = words("c", 30);
    let d = words("d", 30);
    let docs = [
        a.clone(),
        format!("{a}{c}\n{d}"), // paragraph 0: 30 of 60 bad → kept at 0.5; lower t drops it
        c.clone(),
    ];
    let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
    let t = OnionParams {
        threshold: 0.4,
        ..no_smoothing(5)
    };
    // Doc 1 par 0 is dropped, so c's n-grams were never registered: doc 2 is kept.
    assert_eq!(
        run(t, &docs),
        vec![vec![true], vec![false, true], vec![true]]
    );
    assert_eq!(
        run_with_duplicates(t, &docs),
        vec![vec![true], vec![false, true], vec![true]]
    );
    // At 0.5 it is kept, registers c, and doc 2 is dropped.
    assert_eq!(
        run(no_smoothing(5), &docs),
        vec![vec![true], vec![true, true], vec![false]]
    );
}

#[test]
fn empty_documents_and_paragraphs() {
    assert_eq!(
        run(no_smoothing(7), &["", "a\n\nb"]),
        vec![vec![], vec![true, true, true]]
    );
    // With smoothing, "a \n\n b" is a ≤ 20-token document without duplicates: removed.
    assert_eq!(
        run(OnionParams::default(), &["", "a\n\nb"]),
        vec![vec![], vec![false, false, false]]
    );
}

#[test]
fn threshold_is_compared_as_a_c_float() {
    // 9 of 10 bad: 0.9 > 0.9f32 (0.899999976...) is true in onion.
    let base = words("w", 9);
    let docs = [base.clone(), format!("{base}new")];
    let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
    let t = OnionParams {
        n: 1,
        threshold: 0.9,
        smoothing: false,
        ..Default::default()
    };
    assert_eq!(run(t, &docs), vec![vec![true], vec![false]]);
}

#[test]
fn positions_found_apart_give_the_same_decisions() {
    let docs = [
        format!("{}\n{}", words("a", 30), words("b", 3)),
        format!("{}\n\n{}", words("c", 12), words("a", 30)),
        String::new(),
        format!("{}{}", words("b", 3), words("a", 9)),
    ];
    let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
    let expected = run_with_duplicates(OnionParams::default(), &docs);
    let set = Arc::new(duplicate_set(&docs, 7));
    let mut finder = PositionFinder::new(7, TokenOptions::default(), Arc::clone(&set));
    let found: Vec<DuplicatePositions> = docs
        .iter()
        .map(|d| {
            let mut f = DuplicatePositions::default();
            finder.find(d, &mut f);
            f
        })
        .collect();
    assert_eq!(found[1].paragraph_tokens, [12, 0, 30]);
    let mut onion = Onion::with_duplicates(OnionParams::default(), TokenOptions::default(), set);
    let got: Vec<Vec<bool>> = found
        .iter()
        .map(|f| {
            let mut kept = Vec::new();
            onion.process_positions(f.as_ref(), &mut kept).unwrap();
            kept
        })
        .collect();
    assert_eq!(got, expected);
    let bad = PositionsRef {
        paragraph_tokens: &[3],
        positions: &[5],
        indices: &[0],
    };
    assert_eq!(
        onion.process_positions(bad, &mut Vec::new()),
        Err(PositionsError::Inconsistent)
    );
    let mut plain = Onion::new(OnionParams::default(), TokenOptions::default());
    assert_eq!(
        plain.process_positions(found[0].as_ref(), &mut Vec::new()),
        Err(PositionsError::NoDuplicateSet)
    );
}

#[test]
fn paragraphs_of_more_tokens_than_u32_positions_hold_are_refused_and_the_pass_goes_on() {
    let docs = [
        format!("{}\n{}", words("a", 30), words("b", 3)),
        format!("{}\n{}", words("c", 12), words("a", 30)),
    ];
    let docs: Vec<&str> = docs.iter().map(String::as_str).collect();
    let expected = run_with_duplicates(OnionParams::default(), &docs);
    let set = Arc::new(duplicate_set(&docs, 7));
    let mut onion = Onion::with_duplicates(OnionParams::default(), TokenOptions::default(), set);
    // Each length fits in u32, their sum does not: a position could not address the end.
    let too_many = PositionsRef {
        paragraph_tokens: &[u32::MAX, 5],
        positions: &[],
        indices: &[],
    };
    let mut kept = vec![true];
    assert_eq!(
        onion.process_positions(too_many, &mut kept),
        Err(PositionsError::TooManyTokens(u64::from(u32::MAX) + 5))
    );
    assert!(kept.is_empty());
    assert_eq!(onion.documents(), 0, "a refused document is not counted");
    let got: Vec<Vec<bool>> = docs
        .iter()
        .map(|d| {
            let mut kept = Vec::new();
            onion.process(d, &mut kept);
            kept
        })
        .collect();
    assert_eq!(got, expected, "the refused document registered nothing");
}

#[test]
fn duplicate_fraction_counts_union_coverage() {
    let set = duplicate_set(&["a b c d", "x a b c y"], 2);
    let mut s = String::new();
    assert_eq!(set.len(), 2); // "a b", "b c"
    let f = duplicate_fraction("x a b c y", 2, &TokenOptions::default(), &set, &mut s);
    assert_eq!(f, 3.0 / 5.0);
    assert_eq!(
        duplicate_fraction("", 2, &TokenOptions::default(), &set, &mut s),
        0.0
    );
    let mut count = 0;
    for_each_token("x a b c y", |_| count += 1);
    assert_eq!(count, 5);
}
