//! `minhash_union(a, b) OVER (ORDER BY ...)`: datatrove's union-find replayed over candidate
//! pairs in the window's order, one union per pair.

use std::ops::Range;
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Int64Array, StructArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields, Int64Type};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::function::{PartitionEvaluatorArgs, WindowUDFFieldArgs};
use datafusion::logical_expr::{
    Documentation, PartitionEvaluator, Signature, Volatility, WindowUDFImpl,
};

use crate::minhash::{PairUnion, Union};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::held_memory::{HeldMemory, WindowPool};
use crate::udf::row_policy::catch_row_panic;

const NAME: &str = "minhash_union";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct MinhashUnionFunc {
    signature: Signature,
    pool: WindowPool,
}

impl Default for MinhashUnionFunc {
    fn default() -> Self {
        MinhashUnionFunc::in_pool(WindowPool::default())
    }
}

impl MinhashUnionFunc {
    /// The function, reserving what its evaluators hold from `pool`.
    pub fn in_pool(pool: WindowPool) -> Self {
        MinhashUnionFunc {
            signature: Signature::user_defined(Volatility::Immutable),
            pool,
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "datatrove's MinHash clustering stage as a window function over candidate pairs: it replays \
         datatrove's union-find (union by size, ties to a's root) over the pairs in the window's \
         order and returns, for each pair, the union it made: {absorbed, root}, the cluster root that \
         was hung under another root, or NULL when a and b were already in one cluster. \
         minhash_union_clusters turns the unions into each document's cluster. datatrove's kept \
         document depends on the pair order: give the chain pairs of each band's groups of equal band \
         hashes (each document paired with the one before it in id order) ordered by band, band hash, \
         then the later id, as sql/near_dedup.sql does. The window holds about 48 bytes per document \
         named by some pair (reserved from the session's memory limit), nothing for the others; the \
         pairs stream through it in one task, after a sort that spills.",
        "minhash_union(a, b) OVER (ORDER BY band, band_hash, b)",
    )
    .with_sql_example(
        "SELECT array_agg(u ORDER BY band, b) AS unions FROM (\n  \
         SELECT band, b, minhash_union(a, b) OVER (ORDER BY band, band_hash, b) AS u\n  \
         FROM (VALUES (0, 7, 10, 30), (0, 9, 20, 40), (0, 9, 40, 50), (1, 2, 30, 40))\n       \
         AS pairs(band, band_hash, a, b));\n\
         -- [{absorbed: 30, root: 10}, {absorbed: 40, root: 20}, {absorbed: 50, root: 20}, {absorbed: 10, root: 20}]",
    )
    .with_argument(
        "a",
        "An integer column: the pair's first document id (the earlier document of the group).",
    )
    .with_argument("b", "An integer column: the pair's second document id.")
    .with_related_udf("minhash_union_clusters")
    .with_related_udf("minhash_bands")
    .build()
});

/// The fields of a union: the absorbed root and the root it now hangs under.
pub(in crate::udf) fn union_fields() -> Fields {
    // Built once: every union the window returns carries them.
    static FIELDS: LazyLock<Fields> = LazyLock::new(|| {
        Fields::from(vec![
            Field::new("absorbed", DataType::Int64, false),
            Field::new("root", DataType::Int64, false),
        ])
    });
    FIELDS.clone()
}

impl WindowUDFImpl for MinhashUnionFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        if arg_types.len() != 2 {
            return plan_err!("{NAME}: takes 2 arguments (a, b), got {}", arg_types.len());
        }
        for (i, (t, name)) in arg_types.iter().zip(["a", "b"]).enumerate() {
            if !t.is_integer() && *t != DataType::Null {
                return plan_err!(
                    "{NAME}: argument {} ({name}) must be an integer document id, got {t}",
                    i + 1
                );
            }
        }
        Ok(vec![DataType::Int64, DataType::Int64])
    }

    fn partition_evaluator(
        &self,
        _: PartitionEvaluatorArgs,
    ) -> Result<Box<dyn PartitionEvaluator>> {
        Ok(Box::new(UnionEvaluator {
            unions: PairUnion::default(),
            no_union: ScalarValue::try_from(DataType::Struct(union_fields()))?,
            held: self.pool.hold(NAME),
        }))
    }

    fn field(&self, field_args: WindowUDFFieldArgs) -> Result<FieldRef> {
        Ok(Arc::new(Field::new(
            field_args.name(),
            DataType::Struct(union_fields()),
            true,
        )))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

#[derive(Debug)]
struct UnionEvaluator {
    unions: PairUnion,
    no_union: ScalarValue,
    held: HeldMemory,
}

fn id_at(array: &ArrayRef, row: usize) -> Result<Option<i64>> {
    let Some(ids) = array.as_primitive_opt::<Int64Type>() else {
        return exec_err!("{NAME}: expected Int64 ids, got {}", array.data_type());
    };
    Ok((row < ids.len() && ids.is_valid(row)).then(|| ids.value(row)))
}

fn union_scalar(union: Union) -> ScalarValue {
    let column = |id: i64| -> ArrayRef { Arc::new(Int64Array::from(vec![id])) };
    ScalarValue::Struct(Arc::new(StructArray::new(
        union_fields(),
        vec![column(union.absorbed), column(union.root)],
        None,
    )))
}

impl PartitionEvaluator for UnionEvaluator {
    row_by_row_window!();

    fn evaluate(&mut self, values: &[ArrayRef], range: &Range<usize>) -> Result<ScalarValue> {
        let [a, b] = values else {
            return exec_err!("{NAME}: expected 2 arguments, got {}", values.len());
        };
        let (Some(a), Some(b)) = (id_at(a, range.start)?, id_at(b, range.start)?) else {
            return Ok(self.no_union.clone());
        };
        let unions = &mut self.unions;
        let union = catch_row_panic(|| unions.add(a, b));
        self.held
            .cover(self.unions.documents() * PairUnion::BYTES_PER_DOCUMENT)?;
        match union {
            Ok(Ok(Some(union))) => Ok(union_scalar(union)),
            Ok(Ok(None)) => Ok(self.no_union.clone()),
            Ok(Err(e)) => exec_err!("{NAME}: {e}"),
            Err(panic) => exec_err!("{NAME}: {panic}"),
        }
    }
}
