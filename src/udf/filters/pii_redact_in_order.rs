//! `pii_redact_in_order(text [, options]) OVER (PARTITION BY ... ORDER BY ...)`: datatrove's
//! PIIFormatter run over the documents in the window's order, its cycles of replacements
//! carried from one document to the next as one formatter instance carries them.

use std::ops::Range;
use std::sync::{Arc, LazyLock};

use datafusion::arrow::array::{Array, ArrayRef, AsArray, Int64Array, StringArray, StructArray};
use datafusion::arrow::datatypes::{DataType, Field, FieldRef, Fields};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::function::{PartitionEvaluatorArgs, WindowUDFFieldArgs};
use datafusion::logical_expr::{
    Documentation, PartitionEvaluator, Signature, Volatility, WindowUDFImpl,
};

use crate::datatrove::pii::{PII_KEYS, PiiCounters, PiiParams, pii_redact};
use crate::udf::arguments::{Input, check_arg_types, window_options};
use crate::udf::documentation::DOC_SECTION;
use crate::udf::filters::gopher_quality::TEXT_ARGUMENT;
use crate::udf::filters::pii_redact::PiiRedactKernel;
use crate::udf::row_policy::{ArrowRowPolicy, RowPolicy};
use crate::udf::text_struct::{TextStructKernel, text_options_argument};

const NAME: &str = "pii_redact_in_order";

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct PiiRedactInOrderFunc {
    signature: Signature,
}

impl Default for PiiRedactInOrderFunc {
    fn default() -> Self {
        PiiRedactInOrderFunc {
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

static DOCUMENTATION: LazyLock<Documentation> = LazyLock::new(|| {
    Documentation::builder(
        DOC_SECTION,
        "pii_redact as a window function: HuggingFace datatrove 0.10.1's PIIFormatter run over \
         the documents of each partition in the window's order, its place in each cycle of \
         replacements carried from one document to the next, as one formatter instance carries \
         it through the documents of a task. FineWeb-2 ran one formatter per language over the \
         kept documents, so OVER (PARTITION BY language ORDER BY id) gives its output for \
         documents in id order; pii_redact starts each document afresh. The replacements, \
         options and result are pii_redact's: a struct text, emails, ips; NULL for NULL text \
         (the cycles do not move). The rows stream through the window after the sort, which \
         spills; nothing is held but the two places.",
        "pii_redact_in_order(text [, options]) OVER (PARTITION BY language ORDER BY id)",
    )
    .with_sql_example(
        "SELECT array_agg(p['text'] ORDER BY id) FROM (\n  \
         SELECT id, pii_redact_in_order(text) OVER (ORDER BY id) AS p\n  \
         FROM (VALUES (1, 'a@corp.com'), (2, 'b@corp.com')) AS docs(id, text));\n\
         -- [email@example.com, firstname.lastname@example.org]",
    )
    .with_argument("text", TEXT_ARGUMENT)
    .with_argument(
        "options",
        text_options_argument::<PiiRedactKernel>("setting datatrove's parameters", ""),
    )
    .with_related_udf("pii_redact")
    .build()
});

impl WindowUDFImpl for PiiRedactInOrderFunc {
    fn name(&self) -> &str {
        NAME
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        // The scalar functions' checks and messages; the evaluator reads Utf8.
        check_arg_types(NAME, arg_types, 2, Input::Text)?;
        Ok(vec![DataType::Utf8; arg_types.len()])
    }

    fn partition_evaluator(
        &self,
        args: PartitionEvaluatorArgs,
    ) -> Result<Box<dyn PartitionEvaluator>> {
        let (params, policy) =
            window_options(NAME, args.input_exprs(), PiiParams::default(), &[PII_KEYS])?;
        let params = match PiiRedactKernel::config(params) {
            Ok(params) => params,
            Err(e) => return plan_err!("{NAME}: invalid options (argument 2): {e}"),
        };
        let fields = PiiRedactKernel::fields();
        Ok(Box::new(InOrderEvaluator {
            params,
            policy,
            counters: PiiCounters::default(),
            null: ScalarValue::try_from(DataType::Struct(fields.clone()))?,
            fields,
        }))
    }

    fn field(&self, field_args: WindowUDFFieldArgs) -> Result<FieldRef> {
        Ok(Arc::new(Field::new(
            field_args.name(),
            DataType::Struct(PiiRedactKernel::fields()),
            true,
        )))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&DOCUMENTATION)
    }
}

#[derive(Debug)]
struct InOrderEvaluator {
    params: PiiParams,
    policy: RowPolicy,
    /// The formatter's places in its cycles, carried through the partition.
    counters: PiiCounters,
    null: ScalarValue,
    /// The result's fields, built once: every row's struct carries them.
    fields: Fields,
}

fn redaction_scalar(fields: &Fields, text: String, emails: usize, ips: usize) -> ScalarValue {
    let count = |n: usize| -> ArrayRef {
        Arc::new(Int64Array::from(vec![i64::try_from(n).unwrap_or(i64::MAX)]))
    };
    ScalarValue::Struct(Arc::new(StructArray::new(
        fields.clone(),
        vec![
            Arc::new(StringArray::from(vec![text])),
            count(emails),
            count(ips),
        ],
        None,
    )))
}

impl PartitionEvaluator for InOrderEvaluator {
    row_by_row_window!();

    fn evaluate(&mut self, values: &[ArrayRef], range: &Range<usize>) -> Result<ScalarValue> {
        let Some(texts) = values.first().and_then(|v| v.as_string_opt::<i32>()) else {
            return exec_err!("{NAME}: expected a Utf8 text column");
        };
        let row = range.start;
        let text = (row < texts.len() && texts.is_valid(row)).then(|| texts.value(row));
        let (params, counters) = (&self.params, &mut self.counters);
        let redaction = self.policy.text_row(NAME, text, |text| {
            let out = pii_redact(text, params, counters);
            (out.text.into_owned(), out.emails, out.ips)
        })?;
        Ok(match redaction {
            Some((text, emails, ips)) => redaction_scalar(&self.fields, text, emails, ips),
            None => self.null.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use datafusion::prelude::SessionContext;

    use crate::register_all;

    async fn texts(sql: &str) -> Vec<Option<String>> {
        let mut ctx = SessionContext::new();
        register_all(&mut ctx).unwrap();
        let batches = ctx.sql(sql).await.unwrap().collect().await.unwrap();
        let mut out = Vec::new();
        for batch in batches {
            let column = batch.column(0).as_string::<i32>();
            out.extend(column.iter().map(|v| v.map(str::to_owned)));
        }
        out
    }

    use datafusion::arrow::array::AsArray;

    // The expected values follow datatrove 0.10.1: one PIIFormatter formatting the documents in
    // turn gives the replacements of each cycle in turn, across documents.
    #[tokio::test]
    async fn the_cycles_carry_across_the_documents_of_a_partition_in_order() {
        let sql = "SELECT p['text'] FROM (SELECT id, pii_redact_in_order(text) \
                   OVER (PARTITION BY lang ORDER BY id) AS p FROM (VALUES \
                   (3, 'x', 'c@d.org 8.8.8.8'), (1, 'x', 'a@b.org'), (2, 'y', 'e@f.org'), \
                   (4, 'x', NULL), (5, 'x', 'g@h.org 1.1.1.1 10.0.0.1')) AS t(id, lang, text)) \
                   ORDER BY id";
        let expected = [
            Some("email@example.com"),
            Some("email@example.com"),
            Some("firstname.lastname@example.org 22.214.171.124"),
            None,
            Some("email@example.com 126.96.36.199 10.0.0.1"),
        ];
        let expected: Vec<Option<String>> = expected.iter().map(|v| v.map(str::to_owned)).collect();
        assert_eq!(texts(sql).await, expected);
    }

    #[tokio::test]
    async fn options_must_be_constant_and_valid() {
        let mut ctx = SessionContext::new();
        register_all(&mut ctx).unwrap();
        let run = |sql: &'static str| {
            let ctx = ctx.clone();
            async move {
                match ctx.sql(sql).await {
                    Ok(frame) => frame.collect().await.map(|_| ()),
                    Err(e) => Err(e),
                }
            }
        };
        let bad = run(
            "SELECT pii_redact_in_order(t, 'remove_emails=maybe') OVER () \
                       FROM (VALUES ('a')) AS v(t)",
        )
        .await
        .unwrap_err()
        .to_string();
        assert!(
            bad.contains("pii_redact_in_order") && bad.contains("remove_emails"),
            "{bad}"
        );
        let column = run("SELECT pii_redact_in_order(t, t) OVER () FROM (VALUES ('a')) AS v(t)")
            .await
            .unwrap_err()
            .to_string();
        assert!(column.contains("must be a constant"), "{column}");
    }
}
