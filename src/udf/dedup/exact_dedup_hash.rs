//! `exact_dedup_hash(text [, options])`: a document's hash in datatrove's exact de-duplication,
//! the signature stage of `sql/exact_dedup.sql`.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, UInt64Builder};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::Result;
use datafusion::logical_expr::Documentation;

use crate::datatrove::exact_dedup::{EXACT_DEDUP_KEYS, ExactDedupConfig, exact_dedup_hash};
use crate::options::RowKeys;
use crate::udf::arguments::Input;
use crate::udf::arrays::for_each_text;
use crate::udf::documentation::{DOC_SECTION, options_argument};
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::function::{ConstantOptions, Kernel, OptionParams, WebtextFunction};
use crate::udf::row_policy::ArrowRowPolicy;

const NAME: &str = "exact_dedup_hash";

/// `exact_dedup_hash(text [, options])`.
pub type ExactDedupHashFunc = WebtextFunction<ExactDedupHash>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct ExactDedupHash;

impl OptionParams for ExactDedupConfig {
    const KEYS: crate::options::Keys<Self> = EXACT_DEDUP_KEYS;
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The signature of HuggingFace datatrove 0.10.1's exact de-duplication \
         (ExactDedupSignature with the text as content): datatrove's hash of the text's UTF-8 \
         bytes, xxh64 by default (xxh32 with precision=32; SHA-1's first 8 or 4 bytes, \
         little-endian, with hash_fc=sha1). Documents with equal hashes are duplicates: \
         sql/exact_dedup.sql keeps the first of each (highest priority, then document order) \
         with the count of the others, as datatrove does. Unlike content_hash, nothing is \
         normalised: a byte's difference is another hash. NULL for NULL text.",
        "exact_dedup_hash(text [, options])",
    )
    .with_sql_example(
        "SELECT exact_dedup_hash(text) AS hash, count(*) AS copies, min(doc_id) AS kept\n\
         FROM documents GROUP BY 1 HAVING count(*) > 1;",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        options_argument(
            "setting datatrove's HashConfig",
            &[EXACT_DEDUP_KEYS],
            &ExactDedupConfig::default(),
            RowKeys::Text,
            "",
        ),
    )
    .with_related_udf("content_hash")
    .build()
});

impl Kernel for ExactDedupHash {
    const NAME: &'static str = NAME;
    const INPUT: Input = Input::Text;
    type Arguments = ConstantOptions<ExactDedupConfig, 2>;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        DataType::UInt64
    }

    fn compute(
        texts: &dyn Array,
        options: &ConstantOptions<ExactDedupConfig, 2>,
    ) -> Result<ArrayRef> {
        let ConstantOptions { config, policy } = options;
        let mut out = UInt64Builder::with_capacity(texts.len());
        for_each_text(texts, |text| {
            out.append_option(policy.text_row(NAME, text, |text| exact_dedup_hash(text, config))?);
            Ok(())
        })?;
        Ok(Arc::new(out.finish()))
    }
}
