//! De-duplication: onion's n-gram hashes and decisions, content hashes, MinHash from signatures
//! to clusters, and datatrove's exact, sentence and Bloom-filter de-duplication.

pub mod bloom_filter_keep;
pub mod content_hash;
pub(super) mod dedup_common;
pub mod duplicate_fraction;
pub mod duplicate_ngrams;
pub mod duplicate_positions;
pub mod exact_dedup_hash;
pub mod jaccard;
pub mod minhash;
pub mod minhash_bands;
pub mod minhash_clusters;
pub mod minhash_union;
pub mod minhash_union_clusters;
pub mod ngram_hashes;
pub mod onion_keep;
pub mod sentence_dedup_filter;
pub mod sentence_dedup_hashes;
