use super::*;

#[test]
fn the_mersenne_reduction_is_the_modulus() {
    let samples = [
        0,
        1,
        MERSENNE_PRIME - 1,
        MERSENNE_PRIME,
        MERSENNE_PRIME + 1,
        u64::MAX,
        u64::MAX - 7,
        1 << 63,
    ];
    for x in samples {
        assert_eq!(mersenne_reduce(x), x % MERSENNE_PRIME, "{x}");
    }
}

#[test]
fn a_text_of_fewer_words_than_the_shingle_has_no_signature() {
    let hasher = MinHasher::new(MinhashConfig::default());
    assert_eq!(hasher.signature("one two three four"), None);
    assert_eq!(hasher.signature(""), None);
    let signature = hasher
        .signature("one two three four five")
        .expect("five words");
    assert_eq!(signature.len(), 112);
    assert!(signature.iter().all(|&v| v < MERSENNE_PRIME));
}

#[test]
fn the_signature_is_the_minimum_of_the_permuted_shingle_hashes() {
    let hasher = MinHasher::new(MinhashConfig::default());
    let (a, b) = permutations(1, 112);
    let hashes = hasher.shingle_hashes("The cat sat on the mat, the dog sat on the log.");
    // 12 words, 8 shingles; the first is "the cat sat on the", xxh64 of its bytes.
    assert_eq!(hashes.len(), 8);
    assert_eq!(
        hashes[0],
        twox_hash::XxHash64::oneshot(0, b"the cat sat on the")
    );
    let signature = hasher.signature_of_hashes(&hashes).expect("shingles");
    for j in [0, 57, 111] {
        let expected = hashes
            .iter()
            .map(|&h| {
                ((h as u128 * a[j] as u128 % (1u128 << 64) + b[j] as u128) % (1u128 << 64)) as u64
                    % MERSENNE_PRIME
            })
            .min();
        assert_eq!(Some(signature[j]), expected);
    }
}

#[test]
fn fineweb_hashes_shingles_with_sha1() {
    let hasher = MinHasher::new(MinhashConfig::fineweb());
    let hashes = hasher.shingle_hashes("a b c d e");
    // SHA-1("a b c d e") starts with 0x7e 0x24 …; the hash is its first 8 bytes little-endian.
    let digest = sha1_smol::Sha1::from("a b c d e").digest().bytes();
    let mut low = [0u8; 8];
    low.copy_from_slice(&digest[..8]);
    assert_eq!(hashes, vec![u64::from_le_bytes(low)]);
}

#[test]
fn bands_hash_consecutive_values_and_differ_between_bands() {
    let signature: Vec<u64> = (0..112).map(|i| i % 8).collect();
    let bands = band_hashes(&signature, 14, 8).expect("112 values");
    assert_eq!(bands.len(), 14);
    assert_ne!(bands[0], bands[1], "the same values in two bands");
    assert_eq!(band_hashes(&signature, 15, 8), None);
    assert_eq!(band_hashes(&signature, 2, 0), None);
    assert_eq!(band_hashes(&signature, 2, 8).map(|b| b.len()), Some(2));
}

#[test]
fn jaccard_of_shingle_sets() {
    let hasher = MinHasher::new(MinhashConfig::default());
    let text = "one two three four five six";
    assert_eq!(jaccard(&hasher, text, text), Some(1.0));
    // Shingles {1-5, 2-6} and {1-5, 2-5 seven}: one common of three.
    assert_eq!(
        jaccard(&hasher, text, "one two three four five seven"),
        Some(1.0 / 3.0)
    );
    assert_eq!(jaccard(&hasher, text, "short"), Some(0.0));
    assert_eq!(jaccard(&hasher, "short", "tiny"), None);
}

#[test]
fn union_by_size_keeps_the_larger_trees_root_and_numbers_clusters_by_smallest_id() {
    // Two bands. Band 0: {10, 30} share a value, {20, 40, 50} share another.
    // Band 1: {30, 40}. Band 0 makes trees 10←30 (root 10, size 2) and 20←40,50 (root 20,
    // size 3); band 1 unions 30's tree into 40's, the larger: 20 is the one root of all five.
    let ids = [50, 40, 30, 20, 10, 60];
    let bands = [
        7, 1, //
        7, 2, //
        5, 2, //
        7, 3, //
        5, 4, //
        9, 5, //
    ];
    let clusters = cluster_documents(&ids, &bands, 2).expect("clusters");
    let kept: Vec<i64> = clusters.iter().filter(|c| c.kept).map(|c| c.id).collect();
    assert_eq!(kept, vec![20]);
    assert_eq!(
        clusters.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![10, 20, 30, 40, 50]
    );
    assert!(
        clusters
            .iter()
            .all(|c| c.cluster_id == 0 && c.cluster_size == 5)
    );
}

#[test]
fn a_tie_keeps_the_first_documents_root() {
    // Band 0: {1, 2} and {3, 4}; band 1: {2, 3}: equal sizes, so 2's root (1) stays the root.
    let ids = [1, 2, 3, 4];
    let bands = [10, 100, 10, 200, 20, 200, 20, 300];
    let clusters = cluster_documents(&ids, &bands, 2).expect("clusters");
    let kept: Vec<i64> = clusters.iter().filter(|c| c.kept).map(|c| c.id).collect();
    assert_eq!(kept, vec![1]);
    assert_eq!(
        cluster_documents(&ids, &bands[..7], 2),
        Err(ClusterError::RaggedBands(7, 4))
    );
}

#[test]
fn the_vectorized_signature_is_the_portable_one() {
    let (a, b) = permutations(1, 112);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let hashes: Vec<u64> = (0..1000)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            state
        })
        .collect();
    for (count, mask) in [
        (1, u64::MAX),
        (7, u64::MAX),
        (1000, u64::MAX),
        (333, u32::MAX as u64),
    ] {
        let (mut fast, mut portable) = (vec![0; 112], vec![0; 112]);
        fill_signature(&hashes[..count], &a, &b, mask, &mut fast);
        fill_signature_portable(&hashes[..count], &a, &b, mask, &mut portable);
        assert_eq!(fast, portable, "{count} hashes");
    }
}

/// The chain pairs of `bands` in datatrove's order: band by band, each group of equal band
/// hashes in ascending id order, each document paired with the one before it.
fn chain_pairs(ids: &[i64], bands: &[u64], per_document: usize) -> Vec<(i64, i64)> {
    let mut pairs = Vec::new();
    for band in 0..per_document {
        let mut rows: Vec<(u64, i64)> = ids
            .iter()
            .enumerate()
            .map(|(i, &id)| (bands[i * per_document + band], id))
            .collect();
        rows.sort_unstable();
        for window in rows.windows(2) {
            if window[0].0 == window[1].0 {
                pairs.push((window[0].1, window[1].1));
            }
        }
    }
    pairs
}

fn replay(pairs: &[(i64, i64)]) -> Vec<Union> {
    let mut union = PairUnion::default();
    pairs
        .iter()
        .filter_map(|&(a, b)| union.add(a, b).expect("few documents"))
        .collect()
}

#[test]
fn the_unions_of_the_pairs_are_datatroves() {
    // The bands of union_by_size_keeps_the_larger_trees_root_…: band 0 pairs (10, 30), (20, 40),
    // (40, 50); band 1 pairs (30, 40). 30 hangs under 10, 40 and 50 under 20; then 10's tree
    // (size 2) under 20's (size 3).
    let ids = [50, 40, 30, 20, 10, 60];
    let bands = [7, 1, 7, 2, 5, 2, 7, 3, 5, 4, 9, 5];
    let pairs = chain_pairs(&ids, &bands, 2);
    assert_eq!(pairs, vec![(10, 30), (20, 40), (40, 50), (30, 40)]);
    let unions = replay(&pairs);
    let made: Vec<(i64, i64)> = unions.iter().map(|u| (u.absorbed, u.root)).collect();
    assert_eq!(made, vec![(30, 10), (40, 20), (50, 20), (10, 20)]);
    assert_eq!(
        clusters_from_unions(&unions),
        cluster_documents(&ids, &bands, 2)
    );
    let mut union = PairUnion::default();
    assert_eq!(union.add(5, 5), Ok(None));
    assert_eq!(
        union.add(5, 6),
        Ok(Some(Union {
            absorbed: 6,
            root: 5
        }))
    );
    assert_eq!(union.add(6, 5), Ok(None));
    assert_eq!(union.documents(), 2);
}

#[test]
fn clusters_from_the_pairs_equal_clusters_from_every_documents_bands() {
    // Random bands over few values, so that groups chain into clusters of all sizes; ids in
    // no particular order.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |bound: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % bound
    };
    for (documents, per_document, values) in [(300, 3, 400), (2_000, 14, 20_000), (500, 5, 60)] {
        let ids: Vec<i64> = (0..documents)
            .map(|i| (i * 7_919 % documents) as i64 - 100)
            .collect();
        let bands: Vec<u64> = (0..documents * per_document)
            .map(|_| next(values))
            .collect();
        let expected = cluster_documents(&ids, &bands, per_document as usize).expect("clusters");
        assert!(expected.iter().any(|c| c.cluster_size > 2));
        let unions = replay(&chain_pairs(&ids, &bands, per_document as usize));
        assert_eq!(clusters_from_unions(&unions), Ok(expected));
    }
}

#[test]
fn unions_that_no_replay_makes_are_an_error_not_a_hang() {
    let union = |absorbed, root| Union { absorbed, root };
    assert_eq!(
        clusters_from_unions(&[union(1, 2), union(1, 3)]),
        Err(ClusterError::AbsorbedTwice(1))
    );
    assert!(matches!(
        clusters_from_unions(&[union(1, 2), union(2, 3), union(3, 1)]),
        Err(ClusterError::Cycle(_))
    ));
    assert_eq!(clusters_from_unions(&[]), Ok(Vec::new()));
}
