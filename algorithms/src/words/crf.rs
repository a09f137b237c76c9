//! The CRFsuite models some word tokenizers label characters or syllables with (pyvi's,
//! pyidaungsu's, khmer-nltk's), bundled compressed in `tokenizers/`. The `crfs` crate (a Rust
//! implementation of CRFsuite) reads and checks them and looks attributes up; [`StreamingCrf`]
//! labels a text item by item. The features reach CRFsuite as python-crfsuite hands them over: a
//! string feature is the attribute `name:value`, a flag the attribute `name`, each weighing 1.

use std::io::Read;

use crfs::Model;

/// A bundled model's file, unzipped: a constant of the crate, read by its tests, never input data.
pub(super) fn gunzip(bytes: &[u8], what: &str) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("the embedded {what}: {e}"));
    out
}

/// A bundled model's zstd-compressed file, decompressed.
pub(super) fn unzstd(bytes: &[u8], what: &str) -> Vec<u8> {
    zstd::decode_all(bytes).unwrap_or_else(|e| panic!("the embedded {what}: {e}"))
}

/// The file and its model, both kept for the life of the process.
fn leaked(file: Vec<u8>, what: &str) -> (&'static [u8], &'static Model<'static>) {
    let bytes: &'static [u8] = Box::leak(file.into_boxed_slice());
    let model = Model::new(bytes).unwrap_or_else(|e| panic!("the embedded {what}: {e}"));
    (bytes, Box::leak(Box::new(model)))
}

/// A CRFsuite model that labels a sequence item by item: each item's features are looked up and
/// scored as they are made, and only the Viterbi search's scores and back links are kept (a few
/// bytes per item), where `crfs`'s tagger takes every item's features as owned strings at once
/// (an estimated kilobyte per character of a text for the character models). The scores are
/// CRFsuite's: an item's state score sums its features' weights in the order the features come,
/// the search keeps the first of equal scores, as `crfs` and CRFsuite do.
pub(super) struct StreamingCrf {
    model: &'static Model<'static>,
    file: &'static [u8],
    labels: usize,
    /// Transition scores, `[from][to]`.
    transitions: Vec<f64>,
    off_features: usize,
    off_attribute_refs: usize,
}

/// The fields of a CRFsuite model file's header this reader needs, by their byte offset.
const HEADER_OFF_FEATURES: usize = 28;
const HEADER_OFF_LABEL_REFS: usize = 40;
const HEADER_OFF_ATTRIBUTE_REFS: usize = 44;
/// A chunk's header (its tag, size and count) comes before its entries.
const CHUNK_HEADER: usize = 12;
/// A feature: its type, source, target (u32 each) and weight (f64).
const FEATURE_SIZE: usize = 20;

fn read_u32(file: &[u8], at: usize) -> Option<usize> {
    let bytes = file.get(at..at + 4)?;
    Some(u32::from_le_bytes(bytes.try_into().ok()?) as usize)
}

impl StreamingCrf {
    /// The model of the CRFsuite file `file` (checked by `crfs` first), kept for the life of the
    /// process.
    pub(super) fn new(file: Vec<u8>, what: &str) -> StreamingCrf {
        let (file, model) = leaked(file, what);
        let labels = model.num_labels() as usize;
        let header = |at: usize| {
            read_u32(file, at).unwrap_or_else(|| panic!("the embedded {what}: a short header"))
        };
        let mut crf = StreamingCrf {
            model,
            file,
            labels,
            transitions: vec![0.0; labels * labels],
            off_features: header(HEADER_OFF_FEATURES),
            off_attribute_refs: header(HEADER_OFF_ATTRIBUTE_REFS),
        };
        let off_label_refs = header(HEADER_OFF_LABEL_REFS);
        for from in 0..labels {
            let (list, count) = crf.refs(off_label_refs, from).unwrap_or_default();
            for k in 0..count {
                if let Some((to, weight)) = crf.listed_feature(list, k) {
                    crf.transitions[from * labels + to] = weight;
                }
            }
        }
        crf
    }

    /// The identifier of label `name`.
    pub(super) fn label(&self, name: &str) -> Option<u32> {
        self.model.to_label_id(name)
    }

    /// Whether the model has the attribute `name`.
    #[cfg(test)]
    pub(super) fn knows(&self, name: &str) -> bool {
        self.model.to_attr_id(name).is_some()
    }

    /// Where the list of entry `index` of the reference chunk at `offset` is, and its length.
    fn refs(&self, offset: usize, index: usize) -> Option<(usize, usize)> {
        let list = read_u32(self.file, offset + CHUNK_HEADER + 4 * index)?;
        Some((list, read_u32(self.file, list)?))
    }

    /// The target label and weight of the `k`th feature of the list at `list`.
    fn listed_feature(&self, list: usize, k: usize) -> Option<(usize, f64)> {
        let id = read_u32(self.file, list + 4 + 4 * k)?;
        let at = self.off_features + CHUNK_HEADER + FEATURE_SIZE * id;
        let target = read_u32(self.file, at + 8)?;
        let weight = f64::from_le_bytes(self.file.get(at + 12..at + 20)?.try_into().ok()?);
        (target < self.labels).then_some((target, weight))
    }

    /// The labels of a sequence of `items` items, `features(i, scores)` adding item `i`'s
    /// features to `scores` in order.
    pub(super) fn tag(
        &self,
        items: usize,
        mut features: impl FnMut(usize, &mut ItemScores<'_>),
    ) -> Vec<u32> {
        let l = self.labels;
        if items == 0 || l == 0 {
            return Vec::new();
        }
        let mut back: Vec<u32> = vec![0; items * l];
        let mut alpha = vec![0.0; l];
        let mut next = vec![0.0; l];
        let mut scores = ItemScores {
            crf: self,
            state: vec![0.0; l],
            name: String::new(),
        };
        for t in 0..items {
            scores.state.iter_mut().for_each(|s| *s = 0.0);
            features(t, &mut scores);
            if t == 0 {
                alpha.copy_from_slice(&scores.state);
                continue;
            }
            for to in 0..l {
                let mut best = f64::MIN;
                let mut from_best = 0;
                for from in 0..l {
                    let score = alpha[from] + self.transitions[from * l + to];
                    if best < score {
                        best = score;
                        from_best = from;
                    }
                }
                back[t * l + to] = from_best as u32;
                next[to] = best + scores.state[to];
            }
            std::mem::swap(&mut alpha, &mut next);
        }
        let mut labels = vec![0u32; items];
        let mut best = f64::MIN;
        for (label, &score) in alpha.iter().enumerate() {
            if best < score {
                best = score;
                labels[items - 1] = label as u32;
            }
        }
        for t in (0..items - 1).rev() {
            labels[t] = back[(t + 1) * l + labels[t + 1] as usize];
        }
        labels
    }
}

/// The state scores of the item being labelled, and a buffer to write feature names in.
pub(super) struct ItemScores<'c> {
    crf: &'c StreamingCrf,
    state: Vec<f64>,
    name: String,
}

impl ItemScores<'_> {
    /// Adds the feature written by `write` (into an emptied buffer) with weight 1. CRFsuite
    /// keeps attribute names as C strings: a name ends at its first NUL. A name the model does not
    /// know weighs nothing.
    pub(super) fn add(&mut self, write: impl FnOnce(&mut String)) {
        self.name.clear();
        write(&mut self.name);
        let name = self.name.split('\0').next().unwrap_or_default();
        let Some(attribute) = self.crf.model.to_attr_id(name) else {
            return;
        };
        let crf = self.crf;
        let (list, count) =
            (crf.refs(crf.off_attribute_refs, attribute as usize)).unwrap_or_default();
        for k in 0..count {
            if let Some((target, weight)) = crf.listed_feature(list, k) {
                self.state[target] += weight;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crfs::Attribute;

    /// The attribute `name` of weight 1, cut at its first NUL as CRFsuite reads it.
    fn attribute(mut name: String) -> Attribute {
        if let Some(nul) = name.find('\0') {
            name.truncate(nul);
        }
        Attribute::new(name, 1.0)
    }

    /// The streaming labeller gives `crfs`'s labels: items of attributes the model knows (and
    /// one it does not, and one cut at a NUL), over pyidaungsu's and khmer-nltk's models.
    #[test]
    fn streaming_labels_are_crfs_labels() {
        let models = [
            gunzip(
                include_bytes!("../../../tokenizers/pyidaungsu_0.1.4_tokenizer.crfsuite.gz"),
                "model",
            ),
            unzstd(
                include_bytes!("../../../tokenizers/khmer_nltk_1.6_word.crfsuite.zst"),
                "model",
            ),
        ];
        for file in models {
            let streaming = StreamingCrf::new(file.clone(), "model");
            let (_, model) = leaked(file, "model");
            let tagger = model.tagger().unwrap();
            let attributes = model.num_attrs() as u64;
            // A fixed pseudo-random walk over the model's attributes.
            let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
            let mut next = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            let items: Vec<Vec<String>> = (0..3_000)
                .map(|_| {
                    let mut item: Vec<String> = (0..12)
                        .map(|_| {
                            model
                                .to_attr((next() % attributes) as u32)
                                .unwrap()
                                .to_owned()
                        })
                        .collect();
                    item.push("no such attribute".to_owned());
                    item.push(format!("{}\0tail", item[0]));
                    item
                })
                .collect();
            let owned: Vec<Vec<Attribute>> = (items.iter())
                .map(|item| item.iter().map(|name| attribute(name.clone())).collect())
                .collect();
            let expected: Vec<u32> = (tagger.tag(&owned).unwrap().iter())
                .map(|label| model.to_label_id(label).unwrap())
                .collect();
            let labels = streaming.tag(items.len(), |i, scores| {
                for name in &items[i] {
                    scores.add(|out| out.push_str(name));
                }
            });
            assert_eq!(labels, expected);
            assert!(labels.contains(&0) && labels.contains(&1));
        }
    }
}
