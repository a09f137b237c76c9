//! `minhash_clusters(id, bands)`: datatrove's near-duplicate clusters of the documents whose
//! MinHash bands are given, as an aggregate.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, BooleanArray, Int64Array, LargeListArray, StructArray, UInt64Array,
};
use datafusion::arrow::buffer::OffsetBuffer;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Int64Type, UInt64Type};
use datafusion::common::utils::SingleRowListArrayBuilder;
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::{
    Accumulator, AggregateUDFImpl, Documentation, Signature, Volatility,
};

use crate::minhash::{DocumentCluster, cluster_documents};
use crate::udf::arrays::struct_list_type;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::row_policy::catch_row_panic;

const NAME: &str = "minhash_clusters";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct MinhashClustersFunc {
    signature: Signature,
}

impl Default for MinhashClustersFunc {
    fn default() -> Self {
        MinhashClustersFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "Clusters near-duplicate documents as datatrove's MinHash de-duplication does: documents \
         whose band i hashes are equal are candidate pairs, joined band by band (band 0 first) by \
         union-find by size; each cluster keeps its root, which is not always its smallest id. \
         Returns one struct per document that shares a band with another, in id order: id, \
         cluster_id (0, 1, … in the order of each cluster's smallest id), cluster_size and kept. \
         A document that is not listed is alone and kept (datatrove's cluster id −1, size 1); a \
         NULL bands list (a text too short for a shingle) is never a duplicate. ids are the \
         documents' order, as datatrove's stream index: the result is the same for any \
         partitioning. The aggregate holds 8 bytes per document and 8 per band (120 bytes per \
         document with 14 bands) and sorts them band by band; it does not spill.",
        "minhash_clusters(id, bands)",
    )
    .with_sql_example(
        "SELECT minhash_clusters(id, minhash_bands(minhash(text), 14, 8)) AS clusters\n\
         FROM (VALUES (1, 'The quick brown fox jumps over the lazy dog.'),\n             \
         (2, 'the quick brown fox jumps over the lazy dog'),\n             \
         (3, 'A different text about some other things entirely.')) AS documents(id, text);\n\
         -- [{id: 1, cluster_id: 0, cluster_size: 2, kept: true}, {id: 2, cluster_id: 0, cluster_size: 2, kept: false}]",
    )
    .with_argument("id", "An integer column: the document's unique id and its position in datatrove's order.")
    .with_argument("bands", "The document's band hashes, as minhash_bands returns them (the same number for every document).")
    .with_related_udf("minhash_bands")
    .with_related_udf("minhash")
    .build()
});

/// The fields of each clustered document's struct.
pub(in crate::udf) fn output_fields() -> Fields {
    Fields::from(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("cluster_id", DataType::Int64, false),
        Field::new("cluster_size", DataType::Int64, false),
        Field::new("kept", DataType::Boolean, false),
    ])
}

fn bands_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::UInt64, false)))
}

pub(in crate::udf) fn large_list_of(t: DataType) -> DataType {
    DataType::LargeList(Arc::new(Field::new_list_field(t, false)))
}

impl AggregateUDFImpl for MinhashClustersFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let [id, bands] = arg_types else {
            return plan_err!(
                "{NAME}: takes 2 arguments (id, bands), got {}",
                arg_types.len()
            );
        };
        if !id.is_integer() {
            return plan_err!("{NAME}: argument 1 (id) must be an integer column, got {id}");
        }
        let bands_ok = match bands {
            DataType::List(f) | DataType::LargeList(f) | DataType::FixedSizeList(f, _) => {
                f.data_type().is_unsigned_integer()
            }
            DataType::Null => true,
            _ => false,
        };
        if !bands_ok {
            return plan_err!(
                "{NAME}: argument 2 (bands) must be a list of unsigned integers such as \
                 minhash_bands returns, got {bands}"
            );
        }
        Ok(vec![DataType::Int64, bands_type()])
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(struct_list_type(&output_fields()))
    }

    fn accumulator(&self, _args: AccumulatorArgs) -> Result<Box<dyn Accumulator>> {
        Ok(Box::<ClustersAccumulator>::default())
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        Ok(vec![
            Arc::new(Field::new(
                format!("{}[ids]", args.name),
                large_list_of(DataType::Int64),
                true,
            )),
            Arc::new(Field::new(
                format!("{}[bands]", args.name),
                large_list_of(DataType::UInt64),
                true,
            )),
        ])
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

/// The documents with bands: their ids and their bands, `bands_per_document` each.
#[derive(Debug, Default)]
struct ClustersAccumulator {
    ids: Vec<i64>,
    bands: Vec<u64>,
    bands_per_document: Option<usize>,
}

impl ClustersAccumulator {
    fn add(&mut self, id: i64, bands: &[u64]) -> Result<()> {
        let expected = *self.bands_per_document.get_or_insert(bands.len());
        if bands.len() != expected {
            return exec_err!(
                "{NAME}: document {id} has {} bands where the others have {expected}; give every \
                 document minhash_bands with the same bands and rows",
                bands.len()
            );
        }
        self.ids.push(id);
        self.bands.extend_from_slice(bands);
        Ok(())
    }

    fn add_state(&mut self, ids: &[i64], bands: &[u64]) -> Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        if bands.len() % ids.len() != 0 {
            return exec_err!(
                "{NAME}: a state of {} ids has {} band hashes",
                ids.len(),
                bands.len()
            );
        }
        let per_document = bands.len() / ids.len();
        for (i, id) in ids.iter().enumerate() {
            // In bounds: bands holds exactly ids.len() × per_document values.
            self.add(*id, &bands[i * per_document..(i + 1) * per_document])?;
        }
        Ok(())
    }
}

fn guarded(f: impl FnOnce() -> Result<()>) -> Result<()> {
    match catch_row_panic(f) {
        Ok(result) => result,
        Err(panic) => exec_err!("{NAME}: {panic}"),
    }
}

impl Accumulator for ClustersAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let [ids, bands] = values else {
            return exec_err!("{NAME}: expected 2 arguments, got {}", values.len());
        };
        let Some(ids) = ids.as_primitive_opt::<Int64Type>() else {
            return exec_err!("{NAME}: expected Int64 ids, got {}", ids.data_type());
        };
        let Some(lists) = bands.as_list_opt::<i32>() else {
            return exec_err!(
                "{NAME}: expected a List<UInt64> of bands, got {}",
                bands.data_type()
            );
        };
        let Some(hashes) = lists.values().as_primitive_opt::<UInt64Type>() else {
            return exec_err!(
                "{NAME}: expected a List<UInt64> of bands, got {}",
                bands.data_type()
            );
        };
        let offsets = lists.value_offsets();
        guarded(|| {
            for i in 0..lists.len() {
                // A document without an id cannot be placed; one without bands is never a duplicate.
                if lists.is_valid(i) && ids.is_valid(i) {
                    let band = &hashes.values()[offsets[i] as usize..offsets[i + 1] as usize];
                    self.add(ids.value(i), band)?;
                }
            }
            Ok(())
        })
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let [ids, bands] = states else {
            return exec_err!("{NAME}: expected 2 state columns, got {}", states.len());
        };
        let (Some(ids), Some(bands)) = (ids.as_list_opt::<i64>(), bands.as_list_opt::<i64>())
        else {
            return exec_err!("{NAME}: unexpected state types");
        };
        guarded(|| {
            for row in 0..ids.len() {
                if ids.is_null(row) || bands.is_null(row) {
                    continue;
                }
                let (row_ids, row_bands) = (ids.value(row), bands.value(row));
                let (Some(row_ids), Some(row_bands)) = (
                    row_ids.as_primitive_opt::<Int64Type>(),
                    row_bands.as_primitive_opt::<UInt64Type>(),
                ) else {
                    return exec_err!("{NAME}: unexpected state types");
                };
                self.add_state(row_ids.values(), row_bands.values())?;
            }
            Ok(())
        })
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let ids = std::mem::take(&mut self.ids);
        let bands = std::mem::take(&mut self.bands);
        Ok(vec![
            large_list_scalar(Arc::new(Int64Array::from(ids)), DataType::Int64),
            large_list_scalar(Arc::new(UInt64Array::from(bands)), DataType::UInt64),
        ])
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        let clusters =
            cluster_documents(&self.ids, &self.bands, self.bands_per_document.unwrap_or(0))
                .or_else(|e| exec_err!("{NAME}: {e}"))?;
        clusters_scalar(NAME, &clusters)
    }

    fn size(&self) -> usize {
        size_of::<Self>() + self.ids.capacity() * 8 + self.bands.capacity() * 8
    }
}

/// The clustered documents as the one list value of `name`'s result.
pub(in crate::udf) fn clusters_scalar(
    name: &str,
    clusters: &[DocumentCluster],
) -> Result<ScalarValue> {
    let column = |f: &dyn Fn(&DocumentCluster) -> i64| -> ArrayRef {
        Arc::new(clusters.iter().map(f).collect::<Int64Array>())
    };
    let rows = StructArray::try_new(
        output_fields(),
        vec![
            column(&|c| c.id),
            column(&|c| c.cluster_id as i64),
            column(&|c| c.cluster_size as i64),
            Arc::new(
                clusters
                    .iter()
                    .map(|c| Some(c.kept))
                    .collect::<BooleanArray>(),
            ),
        ],
        None,
    )?;
    if i32::try_from(rows.len()).is_err() {
        return exec_err!("{name}: more than 2^31 clustered documents in one list");
    }
    Ok(SingleRowListArrayBuilder::new(Arc::new(rows))
        .with_nullable(false)
        .build_list_scalar())
}

/// A state column's one value: all of `values` in one large list.
pub(in crate::udf) fn large_list_scalar(values: ArrayRef, item: DataType) -> ScalarValue {
    let offsets = OffsetBuffer::<i64>::from_lengths([values.len()]);
    let list = LargeListArray::new(
        Arc::new(Field::new_list_field(item, false)),
        offsets,
        values,
        None,
    );
    ScalarValue::LargeList(Arc::new(list))
}
