//! `sentence_dedup_hashes(text [, options])`: a document's span hashes of datatrove's sentence
//! de-duplication, the signature stage of `sql/sentence_dedup.sql`.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, ListBuilder, UInt64Builder};
use datafusion::arrow::datatypes::{DataType, Field};
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use crate::datatrove::sentence_dedup::{SENTENCE_DEDUP_KEYS, SentDedupConfig, sentence_hashes};
use crate::options::RowKeys;
use crate::udf::arguments::Input;
use crate::udf::arrays::for_each_text;
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::function::{ConstantOptions, Kernel, OptionParams, WebtextFunction};
use crate::udf::row_policy::ArrowRowPolicy;

const NAME: &str = "sentence_dedup_hashes";

/// `sentence_dedup_hashes(text [, options])`.
pub type SentenceDedupHashesFunc = WebtextFunction<SentenceDedupHashes>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct SentenceDedupHashes;

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The signature of HuggingFace datatrove 0.10.1's sentence de-duplication \
         (SentenceDedupSignature): a list with one hash per span of n_sentences (3) consecutive \
         sentences, at the index of the span's first sentence. Sentences are spaCy's English \
         sentencizer's, stripped, without blank ones (or the lines, with \
         split_sentences=false); each is simplified as datatrove does (lower case, numbers as \
         0, punctuation as spaces, diacritics removed), a span is its sentences joined by a \
         space and hashed with xxh64. A span whose simplified text is blank is NULL (datatrove \
         leaves it out); a document with fewer sentences than a span gives an empty list. A \
         span whose hash came earlier (in document order, then sentence order) is a duplicate: \
         sql/sentence_dedup.sql finds them, sentence_dedup_filter removes them. NULL for NULL \
         text.",
        "sentence_dedup_hashes(text [, options])",
    )
    .with_sql_example(
        "SELECT cardinality(sentence_dedup_hashes('One. Two. Three. Four.'));\n\
         -- 2",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument("options", sentence_dedup_options_argument())
    .with_related_udf("sentence_dedup_filter")
    .build()
});

/// The options argument of both sentence de-duplication functions.
pub(crate) fn sentence_dedup_options_argument() -> String {
    options_argument(
        "setting datatrove's SentDedupConfig",
        &[SENTENCE_DEDUP_KEYS],
        &SentDedupConfig::default(),
        RowKeys::Text,
        "The signature and the filter must be given the same n_sentences and split_sentences.",
    )
}

impl OptionParams for SentDedupConfig {
    const KEYS: crate::options::Keys<Self> = SENTENCE_DEDUP_KEYS;
}

/// The options of a sentence de-duplication function, at argument `POSITION`.
pub(crate) type SentenceDedupOptions<const POSITION: usize> =
    ConstantOptions<SentDedupConfig, POSITION>;

fn hashes_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::UInt64, true)))
}

impl Kernel for SentenceDedupHashes {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = SentenceDedupOptions<2>;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        hashes_type()
    }

    fn compute(texts: &dyn Array, options: &SentenceDedupOptions<2>) -> Result<ArrayRef> {
        let SentenceDedupOptions { config, policy } = options;
        let mut out = ListBuilder::with_capacity(UInt64Builder::new(), texts.len())
            .with_field(Arc::new(Field::new_list_field(DataType::UInt64, true)));
        for_each_text(texts, |text| {
            let hashes = policy.text_row(NAME, text, |text| sentence_hashes(text, config))?;
            match hashes {
                Some(hashes) => {
                    let mut next = 0;
                    for (hash, sentence) in hashes {
                        // A blank span's place is NULL, so that a hash's index is its sentence's.
                        while next < usize::from(sentence) {
                            out.values().append_null();
                            next += 1;
                        }
                        out.values().append_value(hash);
                        next += 1;
                    }
                    out.append(true);
                }
                None => out.append(false),
            }
            Ok(())
        })?;
        Ok(Arc::new(out.finish()))
    }
}
