//! `minhash_bands(signature, bands, rows)`: one hash per band of a MinHash signature.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, ListBuilder, UInt64Builder};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, UInt64Type};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{
    ColumnarValue, Documentation, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDFImpl, Signature,
    Volatility,
};

use crate::minhash::band_hashes;
use crate::udf::arguments::execution_constants;
use crate::udf::dedup::minhash::signature_type;
use crate::udf::documentation::DOC_SECTION;

const NAME: &str = "minhash_bands";
/// More bands or rows than any signature holds (minhash's limit is 10,000 values).
const MAX_BANDS_OR_ROWS: i64 = 10_000;

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct MinhashBandsFunc {
    signature: Signature,
}

impl Default for MinhashBandsFunc {
    fn default() -> Self {
        MinhashBandsFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "One hash per band of a MinHash signature: band i is the signature's values i·rows to \
         (i+1)·rows − 1, hashed with xxh64 seeded with i, so equal bands give equal hashes and \
         the same values in two bands do not. Documents whose band i hashes are equal are \
         datatrove's candidate pairs; GROUP BY over the unnested bands finds them in plain SQL, \
         and minhash_clusters clusters them. NULL for a NULL signature or one shorter than bands × \
         rows.",
        "minhash_bands(signature, bands, rows)",
    )
    .with_sql_example(
        "SELECT cardinality(minhash_bands(minhash('one two three four five'), 14, 8)) AS bands,\n       \
         minhash_bands(minhash('One, two; three: four five!'), 14, 8)\n         \
         = minhash_bands(minhash('one two three four five'), 14, 8) AS same_bands;\n\
         -- 14 | true",
    )
    .with_argument("signature", "A signature of minhash: List of UInt64 (or another list of unsigned integers).")
    .with_argument("bands", "Constant whole number ≥ 1: the number of bands (datatrove's num_buckets, 14).")
    .with_argument("rows", "Constant whole number ≥ 1: values per band (datatrove's hashes_per_bucket, 8).")
    .with_related_udf("minhash")
    .with_related_udf("minhash_clusters")
    .build()
});

fn count_argument(position: usize, name: &str, value: Option<&ScalarValue>) -> Result<usize> {
    let number = match value {
        Some(v) if !v.is_null() => v.cast_to(&DataType::Int64).ok(),
        _ => None,
    };
    match number {
        Some(ScalarValue::Int64(Some(n))) if (1..=MAX_BANDS_OR_ROWS).contains(&n) => Ok(n as usize),
        _ => plan_err!(
            "{NAME}: argument {position} ({name}) must be a constant whole number from 1 to \
             {MAX_BANDS_OR_ROWS}, got {}",
            value.map_or("a column".to_string(), |v| v.to_string())
        ),
    }
}

fn bands_and_rows(constants: &[Option<&ScalarValue>]) -> Result<(usize, usize)> {
    let bands = count_argument(2, "bands", constants.get(1).copied().flatten())?;
    let rows = count_argument(3, "rows", constants.get(2).copied().flatten())?;
    Ok((bands, rows))
}

fn is_unsigned_list(t: &DataType) -> bool {
    match t {
        DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
            f.data_type().is_unsigned_integer() || f.data_type().is_null()
        }
        DataType::Null => true,
        _ => false,
    }
}

impl ScalarUDFImpl for MinhashBandsFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.len() != 3 {
            return plan_err!(
                "{NAME}: takes 3 arguments (signature, bands, rows), got {}",
                arg_types.len()
            );
        }
        if !is_unsigned_list(&arg_types[0]) {
            return plan_err!(
                "{NAME}: argument 1 (signature) must be a list of unsigned integers such as \
                 minhash returns, got {}",
                arg_types[0]
            );
        }
        for (i, t) in arg_types.iter().enumerate().skip(1) {
            if !t.is_integer() {
                return plan_err!("{NAME}: argument {} must be a whole number, got {t}", i + 1);
            }
        }
        Ok(vec![signature_type(), DataType::Int64, DataType::Int64])
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(signature_type())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        bands_and_rows(args.scalar_arguments)?;
        Ok(Arc::new(Field::new(NAME, signature_type(), true)))
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let constants = execution_constants(&args.args)?;
        let refs: Vec<Option<&ScalarValue>> = constants.iter().map(Option::as_ref).collect();
        let (bands, rows) = bands_and_rows(&refs)?;
        let signatures = match &args.args[0] {
            ColumnarValue::Scalar(value) => value.to_array_of_size(1)?,
            ColumnarValue::Array(array) => array.clone(),
        };
        let signatures = cast(&signatures, &signature_type())?;
        let out: ArrayRef = Arc::new(band_lists(signatures.as_list::<i32>(), bands, rows));
        Ok(match &args.args[0] {
            ColumnarValue::Scalar(_) => {
                ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?)
            }
            ColumnarValue::Array(_) => ColumnarValue::Array(out),
        })
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

fn band_lists(
    signatures: &datafusion::arrow::array::ListArray,
    bands: usize,
    rows: usize,
) -> datafusion::arrow::array::ListArray {
    let mut out = ListBuilder::with_capacity(UInt64Builder::new(), signatures.len())
        .with_field(Arc::new(Field::new_list_field(DataType::UInt64, false)));
    for i in 0..signatures.len() {
        let hashes = signatures
            .is_valid(i)
            .then(|| signatures.value(i))
            .and_then(|values| {
                // A NULL inside a signature cannot come from minhash; such a row has no bands.
                let values = values.as_primitive_opt::<UInt64Type>()?;
                (values.null_count() == 0).then(|| band_hashes(values.values(), bands, rows))?
            });
        match hashes {
            Some(hashes) => {
                out.values().append_slice(&hashes);
                out.append(true);
            }
            None => out.append_null(),
        }
    }
    out.finish()
}
