//! `minhash_union_clusters(union)`: each document's near-duplicate cluster from the unions
//! `minhash_union` made, as an aggregate.

use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Int64Array};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Int64Type};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::function::{AccumulatorArgs, StateFieldsArgs};
use datafusion::logical_expr::{
    Accumulator, AggregateUDFImpl, Documentation, Signature, Volatility,
};

use crate::minhash::{Union, clusters_from_unions};
use crate::udf::arrays::struct_list_type;
use crate::udf::dedup::minhash_clusters::{
    clusters_scalar, large_list_of, large_list_scalar, output_fields,
};
use crate::udf::dedup::minhash_union::union_fields;
use crate::udf::documentation::DOC_SECTION;
use crate::udf::row_policy::catch_row_panic;

const NAME: &str = "minhash_union_clusters";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct MinhashUnionClustersFunc {
    signature: Signature,
}

impl Default for MinhashUnionClustersFunc {
    fn default() -> Self {
        MinhashUnionClustersFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "The near-duplicate clusters of the unions minhash_union made (in any order and \
         partitioning): one struct per document named by some union, in id order: id, cluster_id \
         (0, 1, … in the order of each cluster's smallest id), cluster_size and kept (true for the \
         cluster's root, the document datatrove keeps), the same list as minhash_clusters gives. \
         NULL unions (pairs that joined nothing new) are skipped. While it gathers them it holds 16 \
         bytes per union (one per clustered document that is not its cluster's root), reserved \
         from the memory limit; turning them into clusters at the end takes about 100 bytes per \
         clustered document more, for that moment, which is not reserved.",
        "minhash_union_clusters(union)",
    )
    .with_sql_example(
        "SELECT minhash_union_clusters(u) AS clusters FROM (\n  \
         SELECT minhash_union(a, b) OVER (ORDER BY band, band_hash, b) AS u\n  \
         FROM (VALUES (0, 7, 10, 30), (0, 9, 20, 40), (0, 9, 40, 50), (1, 2, 30, 40))\n       \
         AS pairs(band, band_hash, a, b));\n\
         -- [{id: 10, cluster_id: 0, cluster_size: 5, kept: false}, {id: 20, cluster_id: 0, cluster_size: 5, kept: true}, \
         {id: 30, cluster_id: 0, cluster_size: 5, kept: false}, {id: 40, cluster_id: 0, cluster_size: 5, kept: false}, \
         {id: 50, cluster_id: 0, cluster_size: 5, kept: false}]",
    )
    .with_argument("union", "What minhash_union returns: a struct {absorbed, root} or NULL.")
    .with_related_udf("minhash_union")
    .with_related_udf("minhash_clusters")
    .build()
});

impl AggregateUDFImpl for MinhashUnionClustersFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let expected = DataType::Struct(union_fields());
        match arg_types {
            [t] if *t == expected || *t == DataType::Null => Ok(vec![expected]),
            [t] => plan_err!(
                "{NAME}: argument 1 (union) must be what minhash_union returns ({expected}), got {t}"
            ),
            _ => plan_err!("{NAME}: takes 1 argument (union), got {}", arg_types.len()),
        }
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(struct_list_type(&output_fields()))
    }

    fn accumulator(&self, _args: AccumulatorArgs) -> Result<Box<dyn Accumulator>> {
        Ok(Box::<UnionsAccumulator>::default())
    }

    fn state_fields(&self, args: StateFieldsArgs) -> Result<Vec<FieldRef>> {
        Ok(["absorbed", "root"]
            .map(|part| {
                Arc::new(Field::new(
                    format!("{}[{part}]", args.name),
                    large_list_of(DataType::Int64),
                    true,
                ))
            })
            .to_vec())
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

#[derive(Debug, Default)]
struct UnionsAccumulator {
    unions: Vec<Union>,
}

impl UnionsAccumulator {
    /// Adds the unions of two Int64 columns, skipping the rows `rows` marks NULL and the rows
    /// where either column is NULL.
    fn extend(
        &mut self,
        absorbed: &dyn Array,
        root: &dyn Array,
        rows: Option<&NullBuffer>,
    ) -> Result<()> {
        let (Some(absorbed), Some(root)) = (
            absorbed.as_primitive_opt::<Int64Type>(),
            root.as_primitive_opt::<Int64Type>(),
        ) else {
            return exec_err!("{NAME}: expected Int64 unions");
        };
        let valid = |i: usize| {
            rows.is_none_or(|r| r.is_valid(i)) && absorbed.is_valid(i) && root.is_valid(i)
        };
        self.unions.extend(
            (0..absorbed.len().min(root.len()))
                .filter(|&i| valid(i))
                .map(|i| Union {
                    absorbed: absorbed.value(i),
                    root: root.value(i),
                }),
        );
        Ok(())
    }
}

impl Accumulator for UnionsAccumulator {
    fn update_batch(&mut self, values: &[ArrayRef]) -> Result<()> {
        let [unions] = values else {
            return exec_err!("{NAME}: expected 1 argument, got {}", values.len());
        };
        let Some(unions) = unions.as_struct_opt().filter(|u| u.num_columns() == 2) else {
            return exec_err!(
                "{NAME}: expected a struct {{absorbed, root}}, got {}",
                unions.data_type()
            );
        };
        self.extend(
            unions.column(0).as_ref(),
            unions.column(1).as_ref(),
            unions.nulls(),
        )
    }

    fn merge_batch(&mut self, states: &[ArrayRef]) -> Result<()> {
        let [absorbed, root] = states else {
            return exec_err!("{NAME}: expected 2 state columns, got {}", states.len());
        };
        let (Some(absorbed), Some(root)) =
            (absorbed.as_list_opt::<i64>(), root.as_list_opt::<i64>())
        else {
            return exec_err!("{NAME}: unexpected state types");
        };
        for row in 0..absorbed.len() {
            if absorbed.is_valid(row) && root.is_valid(row) {
                self.extend(absorbed.value(row).as_ref(), root.value(row).as_ref(), None)?;
            }
        }
        Ok(())
    }

    fn state(&mut self) -> Result<Vec<ScalarValue>> {
        let unions = std::mem::take(&mut self.unions);
        let column = |f: fn(&Union) -> i64| -> ArrayRef {
            Arc::new(unions.iter().map(f).collect::<Int64Array>())
        };
        Ok(vec![
            large_list_scalar(column(|u| u.absorbed), DataType::Int64),
            large_list_scalar(column(|u| u.root), DataType::Int64),
        ])
    }

    fn evaluate(&mut self) -> Result<ScalarValue> {
        let clusters = match catch_row_panic(|| clusters_from_unions(&self.unions)) {
            Ok(Ok(clusters)) => clusters,
            Ok(Err(e)) => return exec_err!("{NAME}: {e}"),
            Err(panic) => return exec_err!("{NAME}: {panic}"),
        };
        clusters_scalar(NAME, &clusters)
    }

    fn size(&self) -> usize {
        size_of::<Self>() + self.unions.capacity() * size_of::<Union>()
    }
}
