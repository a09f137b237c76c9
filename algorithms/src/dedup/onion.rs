//! onion 1.2's paragraph de-duplication (Jan Pomikálek, "Removing Boilerplate and Duplicate
//! Content from Web Corpora", PhD thesis, Masaryk University, 2011; <https://corpus.tools/wiki/Onion>):
//! documents one after another, paragraphs = lines of a document's text.
//!
//! For each document: every n-gram (the window spans paragraphs, restarting at the document start)
//! is a hit if it occurred earlier in this document or was registered by a kept paragraph of an
//! earlier document. A paragraph's bad tokens are its tokens under hit n-grams ending in it,
//! counted once; it is a duplicate if `bad / tokens > threshold`. Smoothing then drops runs of at
//! most `stub_length` good tokens between duplicates and the document edges. Only then are the
//! n-grams ending in kept paragraphs registered, so removed text never blocks later text.

use std::collections::HashSet;
use std::sync::Arc;

use super::dupset::DupSet;
use super::hash::NgramWindow;
use super::tokenize::TokenOptions;

type FixedState = std::hash::BuildHasherDefault<IdentityHasher>;

/// The n-gram hashes are already mixed; hashing them again would only cost time.
#[derive(Default)]
pub struct IdentityHasher(u64);

impl std::hash::Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
    fn write_u32(&mut self, v: u32) {
        // Dup-set indices are dense; spread them over the table's buckets.
        self.0 = u64::from(v).wrapping_mul(super::hash::NGRAM_BASE);
    }
}

/// onion's parameters, with its defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OnionParams {
    /// n-gram length (`-n`, 7).
    pub n: usize,
    /// A paragraph is a duplicate iff `bad / tokens > threshold` (`-t`, 0.5; a C float in onion).
    pub threshold: f32,
    /// Smoothing of short good runs (on; `-m` turns it off).
    pub smoothing: bool,
    /// The longest good run, in tokens, that smoothing removes (`-l`, 20).
    pub stub_length: usize,
    /// Not in onion: a document without any duplicate paragraph is kept whole, even when smoothing
    /// would remove it for being short (onion drops a unique document of ≤ 20 tokens).
    pub protect_unique_documents: bool,
}

impl Default for OnionParams {
    fn default() -> Self {
        OnionParams {
            n: 7,
            threshold: 0.5,
            smoothing: true,
            stub_length: 20,
            protect_unique_documents: false,
        }
    }
}

/// What the pass remembers across documents.
#[derive(Debug)]
enum Registry {
    /// Every registered n-gram hash (onion without `-f`): grows with the kept text.
    All {
        set: HashSet<u64, FixedState>,
        scan: DocumentScan,
    },
    /// Only the corpus' duplicate n-grams can ever hit, so one "seen" bit per duplicate n-gram is
    /// all the state (onion's `-f`): memory bounded by the duplicate set.
    Duplicates {
        seen: Vec<u64>,
        finder: PositionFinder,
        found: DuplicatePositions,
    },
}

/// One n-gram of a document: its hash and the token position (in the document) and paragraph
/// of its last token.
#[derive(Debug, Clone, Copy)]
struct NgramAt {
    hash: u64,
    position: u32,
    paragraph: u32,
}

/// A document's tokens: its n-grams and each paragraph's token count.
#[derive(Debug)]
struct DocumentScan {
    tokens: TokenOptions,
    window: NgramWindow,
    scratch: String,
    ngrams: Vec<NgramAt>,
    lengths: Vec<u32>,
}

impl DocumentScan {
    fn new(n: usize, tokens: TokenOptions) -> Self {
        DocumentScan {
            tokens,
            window: NgramWindow::new(n),
            scratch: String::new(),
            ngrams: Vec::new(),
            lengths: Vec::new(),
        }
    }

    /// Every n-gram of the document (the window spans its paragraphs) with the position of its
    /// last token, and each paragraph's length. An empty text has no paragraph.
    fn scan(&mut self, text: &str) {
        self.window.reset();
        self.ngrams.clear();
        self.lengths.clear();
        if text.is_empty() {
            return;
        }
        let mut position = 0u32;
        for (index, paragraph) in text.split('\n').enumerate() {
            let start = position;
            let (window, ngrams) = (&mut self.window, &mut self.ngrams);
            self.tokens
                .for_each_token_hash(paragraph, &mut self.scratch, |token| {
                    if let Some(hash) = window.push(token) {
                        ngrams.push(NgramAt {
                            hash,
                            position,
                            paragraph: index as u32,
                        });
                    }
                    position += 1;
                });
            self.lengths.push(position - start);
        }
    }
}

/// What the order-independent half of the pass finds in a document: each paragraph's token
/// count and, for every n-gram of the duplicate set, the document position of its last token
/// (ascending) and its index in the set. N-grams outside the set occur once in the corpus and
/// can neither hit nor be hit, so they are left out.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct DuplicatePositions {
    pub paragraph_tokens: Vec<u32>,
    pub positions: Vec<u32>,
    pub indices: Vec<u32>,
}

/// [`DuplicatePositions`] borrowed (e.g. from Arrow arrays).
#[derive(Debug, Clone, Copy)]
pub struct PositionsRef<'a> {
    pub paragraph_tokens: &'a [u32],
    pub positions: &'a [u32],
    pub indices: &'a [u32],
}

impl DuplicatePositions {
    pub fn as_ref(&self) -> PositionsRef<'_> {
        PositionsRef {
            paragraph_tokens: &self.paragraph_tokens,
            positions: &self.positions,
            indices: &self.indices,
        }
    }
}

/// Finds the [`DuplicatePositions`] of documents: tokenizing, hashing and the duplicate-set
/// lookups, which do not depend on the order and can run in parallel before the pass.
#[derive(Debug)]
pub struct PositionFinder {
    scan: DocumentScan,
    set: Arc<DupSet>,
}

impl PositionFinder {
    pub fn new(n: usize, tokens: TokenOptions, set: Arc<DupSet>) -> Self {
        PositionFinder {
            scan: DocumentScan::new(n, tokens),
            set,
        }
    }

    pub fn set(&self) -> &Arc<DupSet> {
        &self.set
    }

    pub fn find(&mut self, text: &str, out: &mut DuplicatePositions) {
        self.scan.scan(text);
        out.paragraph_tokens.clear();
        out.paragraph_tokens.extend_from_slice(&self.scan.lengths);
        out.positions.clear();
        out.indices.clear();
        // The lookups are cache misses: ask for each slot a few lookups ahead, so that they
        // overlap.
        const AHEAD: usize = 16;
        let ngrams = &self.scan.ngrams;
        for (i, g) in ngrams.iter().enumerate() {
            if let Some(later) = ngrams.get(i + AHEAD) {
                self.set.prefetch(later.hash);
            }
            if let Some(index) = self.set.index_of(g.hash) {
                out.positions.push(g.position);
                out.indices.push(index);
            }
        }
    }
}

/// Why [`Onion::process_positions`] refused a document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionsError {
    #[error("the pass was not given the duplicate set the positions were found with")]
    NoDuplicateSet,
    #[error(
        "positions and indices differ in length, are not ascending, or lie outside the document or the set"
    )]
    Inconsistent,
    #[error("the paragraphs have {0} tokens in all, more than a document can have (4,294,967,295)")]
    TooManyTokens(u64),
}

/// An n-gram that can hit or be registered: its key (the hash, or its index in the duplicate set)
/// and whether an earlier document registered it.
#[derive(Debug, Clone, Copy)]
struct NgramEnd {
    key: u64,
    in_registry: bool,
    position: u32,
    paragraph: u32,
}

/// The sequential keep/drop pass over documents in order.
#[derive(Debug)]
pub struct Onion {
    params: OnionParams,
    registry: Registry,
    local: HashSet<u64, FixedState>,
    ends: Vec<NgramEnd>,
    starts: Vec<u32>,
    lengths: Vec<u32>,
    bad: Vec<u32>,
    documents: u64,
}

impl Onion {
    /// A pass that registers every n-gram of kept text (needs no first pass; memory grows with
    /// the distinct n-grams kept).
    pub fn new(params: OnionParams, tokens: TokenOptions) -> Self {
        let scan = DocumentScan::new(params.n, tokens);
        Self::with_registry(
            params,
            Registry::All {
                set: HashSet::default(),
                scan,
            },
        )
    }

    /// A pass given the corpus' duplicate n-grams (made with the same `n` and token options):
    /// the same decisions, with memory bounded by the duplicate set.
    pub fn with_duplicates(params: OnionParams, tokens: TokenOptions, set: Arc<DupSet>) -> Self {
        let seen = vec![0; set.index_bound().div_ceil(64)];
        let finder = PositionFinder::new(params.n, tokens, set);
        Self::with_registry(
            params,
            Registry::Duplicates {
                seen,
                finder,
                found: DuplicatePositions::default(),
            },
        )
    }

    fn with_registry(params: OnionParams, registry: Registry) -> Self {
        Onion {
            params,
            registry,
            local: HashSet::default(),
            ends: Vec::new(),
            starts: Vec::new(),
            lengths: Vec::new(),
            bad: Vec::new(),
            documents: 0,
        }
    }

    pub fn params(&self) -> &OnionParams {
        &self.params
    }

    /// Documents processed so far.
    pub fn documents(&self) -> u64 {
        self.documents
    }

    /// The duplicate set of a pass made [`Onion::with_duplicates`].
    pub fn duplicate_set(&self) -> Option<&Arc<DupSet>> {
        match &self.registry {
            Registry::Duplicates { finder, .. } => Some(finder.set()),
            Registry::All { .. } => None,
        }
    }

    /// Bytes of state this pass keeps across documents, the duplicate set it shares with other
    /// passes aside (its `heap_bytes`).
    pub fn state_bytes(&self) -> usize {
        match &self.registry {
            Registry::All { set, .. } => set.capacity() * 9,
            Registry::Duplicates { seen, .. } => seen.capacity() * 8,
        }
    }

    /// Decides the paragraphs (the lines of `text`) of the next document: `kept` receives one flag
    /// per paragraph, in order. An empty text has no paragraph (as SQL's
    /// `string_to_array('', chr(10))` is empty).
    pub fn process(&mut self, text: &str, kept: &mut Vec<bool>) {
        match &mut self.registry {
            Registry::All { set, scan } => {
                scan.scan(text);
                self.ends.clear();
                self.ends.extend(scan.ngrams.iter().map(|g| NgramEnd {
                    key: g.hash,
                    in_registry: set.contains(&g.hash),
                    position: g.position,
                    paragraph: g.paragraph,
                }));
                self.lengths.clear();
                self.lengths.extend_from_slice(&scan.lengths);
                self.decide(kept);
            }
            Registry::Duplicates { finder, found, .. } => {
                let mut found = std::mem::take(found);
                finder.find(text, &mut found);
                // The positions come from our own finder: they are consistent.
                let _ = self.process_positions(found.as_ref(), kept);
                if let Registry::Duplicates { found: slot, .. } = &mut self.registry {
                    *slot = found;
                }
            }
        }
    }

    /// Decides the next document from positions a [`PositionFinder`] found with this pass's
    /// duplicate set (possibly in another thread): the same result as [`Onion::process`] on its
    /// text.
    pub fn process_positions(
        &mut self,
        found: PositionsRef<'_>,
        kept: &mut Vec<bool>,
    ) -> Result<(), PositionsError> {
        let Registry::Duplicates { seen, .. } = &self.registry else {
            return Err(PositionsError::NoDuplicateSet);
        };
        let total: u64 = found.paragraph_tokens.iter().map(|&t| u64::from(t)).sum();
        // Token positions in a document are u32, as duplicate_positions writes them.
        if total > u64::from(u32::MAX) {
            kept.clear();
            return Err(PositionsError::TooManyTokens(total));
        }
        let consistent = found.positions.len() == found.indices.len()
            && found.positions.windows(2).all(|w| w[0] < w[1])
            && found.positions.last().is_none_or(|&p| u64::from(p) < total)
            && found
                .indices
                .iter()
                .all(|&i| (i as usize) < seen.len() * 64);
        if !consistent {
            kept.clear();
            return Err(PositionsError::Inconsistent);
        }
        self.lengths.clear();
        self.lengths.extend_from_slice(found.paragraph_tokens);
        self.ends.clear();
        let mut paragraph = 0usize;
        let mut paragraph_end = found.paragraph_tokens.first().map_or(0, |&t| u64::from(t));
        for (&position, &index) in found.positions.iter().zip(found.indices) {
            // Every position is below the total (checked above), so `paragraph` stays in range.
            while u64::from(position) >= paragraph_end {
                paragraph += 1;
                paragraph_end += u64::from(found.paragraph_tokens[paragraph]);
            }
            self.ends.push(NgramEnd {
                key: u64::from(index),
                in_registry: bit(seen, index),
                position,
                paragraph: paragraph as u32,
            });
        }
        self.decide(kept);
        Ok(())
    }

    /// Thresholds, smoothing and registration, from `lengths` and `ends`. Registration comes
    /// last and cannot panic, so a document that fails on the way registers nothing.
    fn decide(&mut self, kept: &mut Vec<bool>) {
        kept.clear();
        self.starts.clear();
        let mut start = 0u32;
        for &length in &self.lengths {
            self.starts.push(start);
            start += length;
        }
        let bad = self.count_bad_tokens();
        let threshold = f64::from(self.params.threshold);
        kept.extend(
            self.lengths.iter().zip(&bad).map(|(&total, &bad)| {
                !(total > 0 && f64::from(bad) / f64::from(total) > threshold)
            }),
        );
        self.bad = bad;
        if self.params.smoothing {
            self.smooth(kept);
        }
        self.register(kept);
        self.documents += 1;
    }

    /// Bad tokens per paragraph: a hit at position p, in a paragraph starting at s, after the
    /// document's previous hit at q, covers `min(n, p − q, p − s + 1)` new tokens.
    fn count_bad_tokens(&mut self) -> Vec<u32> {
        let mut bad = std::mem::take(&mut self.bad);
        bad.clear();
        bad.resize(self.lengths.len(), 0);
        self.local.clear();
        let n = self.params.n as u32;
        let mut last_hit: Option<u32> = None;
        for end in &self.ends {
            let in_document = !self.local.insert(end.key);
            if !(end.in_registry || in_document) {
                continue;
            }
            let p = end.position;
            let since_start = p - self.starts[end.paragraph as usize] + 1;
            let since_hit = last_hit.map_or(u32::MAX, |q| p - q);
            bad[end.paragraph as usize] += n.min(since_start).min(since_hit);
            last_hit = Some(p);
        }
        bad
    }

    /// Marks as duplicates the runs of at most `stub_length` good tokens between two duplicate
    /// paragraphs or a duplicate paragraph and a document edge (or the whole document).
    fn smooth(&self, kept: &mut [bool]) {
        if self.params.protect_unique_documents && kept.iter().all(|&k| k) {
            return;
        }
        let mut run_start = 0usize;
        let mut run_tokens = 0usize;
        for i in 0..=kept.len() {
            if i == kept.len() || !kept[i] {
                if run_tokens <= self.params.stub_length {
                    kept[run_start..i].fill(false);
                }
                run_start = i + 1;
                run_tokens = 0;
            } else {
                run_tokens += self.lengths[i] as usize;
            }
        }
    }

    fn register(&mut self, kept: &[bool]) {
        let kept_ends = self
            .ends
            .iter()
            .filter(|e| kept.get(e.paragraph as usize).copied().unwrap_or(false));
        match &mut self.registry {
            Registry::All { set, .. } => set.extend(kept_ends.map(|e| e.key)),
            Registry::Duplicates { seen, .. } => {
                for e in kept_ends {
                    // Every key is an index below the set's bound (checked before deciding).
                    if let Some(word) = seen.get_mut((e.key / 64) as usize) {
                        *word |= 1 << (e.key % 64);
                    }
                }
            }
        }
    }
}

#[inline]
fn bit(bits: &[u64], i: u32) -> bool {
    bits[(i / 64) as usize] & (1 << (i % 64)) != 0
}

/// The share of a text's tokens covered by n-grams of the duplicate set (each token counted
/// once): Algorithm 3.1's "duplicate fraction", its processing order key. 0 for a text without
/// tokens.
pub fn duplicate_fraction(
    text: &str,
    n: usize,
    tokens: &TokenOptions,
    set: &DupSet,
    scratch: &mut String,
) -> f64 {
    let mut window = NgramWindow::new(n);
    let (mut total, mut covered) = (0usize, 0usize);
    // Tokens after the last covered one, up to the current token.
    let mut uncovered_tail = 0usize;
    tokens.for_each_token_hash(text, scratch, |token| {
        total += 1;
        uncovered_tail += 1;
        if let Some(h) = window.push(token)
            && set.index_of(h).is_some()
        {
            let newly = uncovered_tail.min(window.n());
            covered += newly;
            uncovered_tail = 0;
        }
    });
    if total == 0 {
        0.0
    } else {
        covered as f64 / total as f64
    }
}

#[cfg(test)]
mod tests;
