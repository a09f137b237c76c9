//! `minhash_bands(signature, bands, rows)`: one hash per band of a MinHash signature.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, ListBuilder, UInt64Builder};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Field, UInt64Type};
use datafusion::common::{Result, ScalarValue, plan_err};
use datafusion::logical_expr::{Documentation, Volatility};

use crate::minhash::band_hashes;
use crate::udf::arguments::Input;
use crate::udf::dedup::minhash::signature_type;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::function::{Arguments, Kernel, WebtextFunction};

const NAME: &str = "minhash_bands";
/// More bands or rows than any signature holds (minhash's limit is 10,000 values).
const MAX_BANDS_OR_ROWS: i64 = 10_000;

/// `minhash_bands(signature, bands, rows)`.
pub type MinhashBandsFunc = WebtextFunction<MinhashBands>;

#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct MinhashBands;

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
    .with_argument("bands", "Whole number from 1 to 10,000, a constant or a column (each row's own): the number of bands (datatrove's num_buckets, 14).")
    .with_argument("rows", "Whole number from 1 to 10,000, a constant or a column (each row's own): values per band (datatrove's hashes_per_bucket, 8).")
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
            "{NAME}: argument {position} ({name}) must be a whole number from 1 to \
             {MAX_BANDS_OR_ROWS}, got {}",
            value.map_or("nothing".to_string(), |v| v.to_string())
        ),
    }
}

/// How a signature is cut into bands.
pub struct BandShape {
    bands: usize,
    rows: usize,
}

impl Arguments for BandShape {
    /// `(signature, bands, rows)`.
    const MAX_ARGS: usize = 3;

    fn parse(_function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        Ok(BandShape {
            bands: count_argument(2, "bands", constants.get(1).copied().flatten())?,
            rows: count_argument(3, "rows", constants.get(2).copied().flatten())?,
        })
    }
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

impl Kernel for MinhashBands {
    const NAME: &'static str = NAME;
    /// Not a text: [`MinhashBands::coerce_types`] admits signatures.
    const INPUT: Input = Input::Text;
    type Arguments = BandShape;
    /// Hashing a few values per band costs less than copying the call into a pushed-down filter.
    const VOLATILITY: Volatility = Volatility::Immutable;

    fn documentation() -> &'static Documentation {
        &DOCUMENTATION
    }

    fn return_type() -> DataType {
        signature_type()
    }

    fn coerce_types(arg_types: &[DataType]) -> Result<Vec<DataType>> {
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

    fn compute(signatures: &dyn Array, shape: &BandShape) -> Result<ArrayRef> {
        // Planning casts to a signature; a host that skips it (FFI) gets the cast here.
        let signatures = cast(signatures, &signature_type())?;
        Ok(Arc::new(band_lists(
            signatures.as_list::<i32>(),
            shape.bands,
            shape.rows,
        )))
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
