//! Language identification as datatrove 0.10.1's `LanguageFilter` does it: fastText's `lid.176`
//! model, given the text with its newlines replaced by spaces, predicting every label fastText
//! keeps (k = -1).
//!
//! The predictions are fastText 0.9.2's own C++ code (the `fasttext` crate, which builds it): the
//! same code as the Python binding the field uses, so labels and probabilities are the binding's,
//! bit for bit. The compressed model `lid.176.ftz` is bundled (see `models/README.md` for its
//! source and licence, CC BY-SA 3.0); a user may load another fastText model file, such as the
//! full `lid.176.bin` datatrove downloads.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// fastText's `lid.176.ftz` (938,013 bytes, sha256 8f3472cf…603e83), by Facebook AI Research,
/// under CC BY-SA 3.0: <https://fasttext.cc/docs/en/language-identification.html>.
const BUNDLED_LID_176: &[u8] = include_bytes!("../../../models/lid.176.ftz");

/// The name [`LanguageModel::load`] gives the bundled model.
pub const BUNDLED_MODEL: &str = "lid.176.ftz";

/// The first bytes of every fastText model file: magic number 793712314, then the format version.
const FASTTEXT_MAGIC: [u8; 4] = 793_712_314i32.to_le_bytes();
const FASTTEXT_VERSIONS: [i32; 2] = [11, 12];

/// A language and fastText's probability for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// The label without fastText's `__label__` prefix: an ISO 639 code for lid.176.
    pub language: String,
    /// fastText's probability; it can pass 1 by up to 1e-5, as fastText adds 1e-5 inside its
    /// logarithms.
    pub score: f32,
}

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum LanguageModelError {
    #[error("cannot read the model file {path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error(
        "{path} is not a fastText model file (it does not start with fastText's magic number and a format version 11 or 12)"
    )]
    NotFastText { path: String },
    #[error("fastText cannot load {path}: {reason}")]
    Load { path: String, reason: String },
}

/// A loaded fastText classifier.
pub struct LanguageModel {
    model: fasttext::FastText,
    name: String,
}

impl std::fmt::Debug for LanguageModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LanguageModel")
            .field("name", &self.name)
            .finish()
    }
}

/// Loaded models by name, so that a query, or the hundredth query, does not load one again.
static LOADED: Mutex<Option<HashMap<String, Arc<LanguageModel>>>> = Mutex::new(None);

impl LanguageModel {
    /// The bundled `lid.176.ftz` for [`BUNDLED_MODEL`] (or an empty name), otherwise the fastText
    /// model file at `name`; loaded once per process.
    pub fn load(name: &str) -> Result<Arc<LanguageModel>, LanguageModelError> {
        let name = if name.is_empty() { BUNDLED_MODEL } else { name };
        let mut loaded = LOADED
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let loaded = loaded.get_or_insert_with(HashMap::new);
        if let Some(model) = loaded.get(name) {
            return Ok(Arc::clone(model));
        }
        let model = Arc::new(if name == BUNDLED_MODEL {
            Self::bundled()?
        } else {
            Self::from_file(Path::new(name))?
        });
        loaded.insert(name.to_owned(), Arc::clone(&model));
        Ok(model)
    }

    /// fastText's C++ loader reads files only: the bundled bytes go through a temporary file, in
    /// a folder of the process's own (mode 0700, an unpredictable name) so that no other user
    /// can replace it between the write and fastText's read. Both are removed once loaded.
    fn bundled() -> Result<LanguageModel, LanguageModelError> {
        let unreadable = |path: String, e: std::io::Error| LanguageModelError::Unreadable {
            path,
            reason: format!("writing the bundled model there failed: {e}"),
        };
        let folder = tempfile::Builder::new()
            .prefix("webtext-model-")
            .tempdir()
            .map_err(|e| unreadable(std::env::temp_dir().display().to_string(), e))?;
        let path = folder.path().join(BUNDLED_MODEL);
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut file| std::io::Write::write_all(&mut file, BUNDLED_LID_176))
            .map_err(|e| unreadable(path.display().to_string(), e))?;
        let model = Self::from_file(&path);
        drop(folder);
        model.map(|mut model| {
            model.name = BUNDLED_MODEL.to_owned();
            model
        })
    }

    /// A fastText model file. The header is checked first: fastText's loader trusts the file.
    fn from_file(path: &Path) -> Result<LanguageModel, LanguageModelError> {
        let shown = path.display().to_string();
        let unreadable = |e: std::io::Error| LanguageModelError::Unreadable {
            path: shown.clone(),
            reason: e.to_string(),
        };
        let mut header = [0u8; 8];
        std::io::Read::read_exact(
            &mut std::fs::File::open(path).map_err(unreadable)?,
            &mut header,
        )
        .map_err(unreadable)?;
        let version = i32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        if header[..4] != FASTTEXT_MAGIC || !FASTTEXT_VERSIONS.contains(&version) {
            return Err(LanguageModelError::NotFastText { path: shown });
        }
        let Some(utf8_path) = path.to_str() else {
            return Err(LanguageModelError::Unreadable {
                path: shown,
                reason: "the path is not UTF-8".to_owned(),
            });
        };
        let mut model = fasttext::FastText::new();
        model
            .load_model(utf8_path)
            .map_err(|reason| LanguageModelError::Load {
                path: shown.clone(),
                reason,
            })?;
        Ok(LanguageModel { model, name: shown })
    }

    /// The model's name: [`BUNDLED_MODEL`] or the path it was loaded from.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// datatrove's prediction for a document: its languages, most probable first, at most `k`
    /// of them (`None`: every one fastText keeps, those above about 1e-5). A text without words
    /// is predicted from fastText's end-of-line token alone, as the Python binding does.
    pub fn predict(&self, text: &str, k: Option<usize>) -> Result<Vec<Prediction>, String> {
        let labels = self.predict_labels(text, k.unwrap_or(usize::MAX), 0.0)?;
        Ok(labels
            .into_iter()
            .map(|(label, score)| Prediction {
                language: match label.strip_prefix("__label__") {
                    Some(language) => language.to_owned(),
                    None => label,
                },
                score,
            })
            .collect())
    }

    /// The binding's `model.predict(text, k, threshold)` after datatrove's replacement of line
    /// feeds: at most `k` labels over `threshold`, as fastText names them (`__label__` kept),
    /// most probable first; a `k` past fastText's labels asks for every one (the binding's -1).
    pub fn predict_labels(
        &self,
        text: &str,
        k: usize,
        threshold: f32,
    ) -> Result<Vec<(String, f32)>, String> {
        let k = i32::try_from(k).unwrap_or(-1);
        let predictions = self.model.predict(&fasttext_line(text), k, threshold)?;
        Ok(predictions.into_iter().map(|p| (p.label, p.prob)).collect())
    }
}

/// The line fastText's Python binding reads for `text` after datatrove's `replace("\n", " ")`:
/// the binding adds a newline, which fastText reads as its end-of-sentence token. NUL, which
/// fastText reads as a separator like a space, becomes a space so the line can be a C string.
fn fasttext_line(text: &str) -> String {
    let mut line: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\0' { ' ' } else { c })
        .collect();
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_model_names_languages() {
        let model = LanguageModel::load("").unwrap();
        let top = model
            .predict("The quick brown fox jumps over the lazy dog.", Some(1))
            .unwrap();
        assert_eq!(top[0].language, "en");
        assert!(top[0].score > 0.5, "{top:?}");
        let french = model
            .predict(
                "Le renard brun saute par-dessus le chien paresseux.\nEt voilà.",
                None,
            )
            .unwrap();
        assert_eq!(french[0].language, "fr");
        assert!(french.len() > 3, "k=-1 keeps every label over 1e-5");
        assert!(french.windows(2).all(|w| w[0].score >= w[1].score));
        assert!(Arc::ptr_eq(
            &model,
            &LanguageModel::load(BUNDLED_MODEL).unwrap()
        ));
    }

    #[test]
    fn newlines_and_nul_are_spaces() {
        assert_eq!(fasttext_line("a\nb\0c"), "a b c\n");
        let model = LanguageModel::load("").unwrap();
        let text = "Der schnelle braune Fuchs springt über den faulen Hund.";
        let spaced = model.predict(text, Some(3)).unwrap();
        let broken = model.predict(&text.replace(' ', "\n"), Some(3)).unwrap();
        assert_eq!(spaced, broken);
        assert!(!model.predict("", Some(1)).unwrap().is_empty());
    }

    #[test]
    fn files_that_are_not_models_are_refused() {
        let err = LanguageModel::load("/no/such/model.bin").unwrap_err();
        assert!(
            matches!(err, LanguageModelError::Unreadable { .. }),
            "{err}"
        );
        let not_a_model = std::env::temp_dir().join("webtext-not-a-model.bin");
        std::fs::write(&not_a_model, b"hello, this is text").unwrap();
        let err = LanguageModel::load(not_a_model.to_str().unwrap()).unwrap_err();
        assert!(
            matches!(err, LanguageModelError::NotFastText { .. }),
            "{err}"
        );
        let _ = std::fs::remove_file(not_a_model);
    }
}
