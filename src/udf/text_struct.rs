//! The functions `name(text [, options])` that give one struct per text (the pre-training data
//! filters and `detect_language`): a [`TextStructKernel`] computes a row's cells; this module
//! builds the struct column under the row policy, and [`WebtextFunction`] the SQL function.

use std::borrow::Cow;
use std::sync::Arc;

use datafusion::arrow::array::{
    Array, ArrayRef, BooleanBuilder, Float64Builder, Int64Builder, ListBuilder, StringBuilder,
    StructArray, StructBuilder,
};
use datafusion::arrow::buffer::NullBuffer;
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::{Result, ScalarValue, exec_err, plan_err};
use datafusion::logical_expr::Documentation;

use super::arguments::{Input, constant_options};
use super::arrays::for_each_text;
use super::documentation::options_argument;
use super::function::{Arguments, Kernel, WebtextFunction};
use super::row_policy::{ArrowRowPolicy, RowPolicy};
use super::shared_words::SharedWords;
use crate::options::{Keys, RowKeys};
use crate::words::WordTokenizer;

/// One value of a row's struct, in the order of the kernel's fields.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    /// A Boolean field.
    Bool(bool),
    /// An Int64 field.
    Count(usize),
    /// An Int64 field that is NULL where there is no such position.
    Position(Option<usize>),
    /// A Float64 field; NULL where it is undefined (a share of nothing).
    Number(Option<f64>),
    /// A Utf8 field.
    Text(Option<String>),
    /// A `List<Struct<Utf8, Float64>>` field: languages or labels with their probabilities.
    #[cfg_attr(not(feature = "langid"), allow(dead_code))]
    Scores(Option<Vec<(String, f64)>>),
}

/// `a / b` as the filters compare it, NULL when `b` is 0.
pub(crate) fn share(a: usize, b: usize) -> Cell {
    Cell::Number((b != 0).then(|| a as f64 / b as f64))
}

/// The item type of a [`Cell::Scores`] list.
pub(crate) fn score_fields() -> Fields {
    Fields::from(vec![
        Field::new("language", DataType::Utf8, false),
        Field::new("score", DataType::Float64, false),
    ])
}

/// The documentation of a text function's options: what the keys set, the keys of `K` with their
/// defaults and `on_error`, then `notes`.
pub(crate) fn text_options_argument<K: TextStructKernel>(sets: &str, notes: &str) -> String {
    let defaults = K::Options::default();
    options_argument(sets, &[K::OPTION_KEYS], &defaults, RowKeys::Text, notes)
}

/// What one function computes from a text.
pub(crate) trait TextStructKernel:
    std::fmt::Debug + Default + PartialEq + Eq + std::hash::Hash + Send + Sync + 'static
{
    const NAME: &'static str;
    /// The parameters the options set, their defaults the `Default`.
    type Options: Default;
    /// The option keys (`on_error`, the row policy's, aside).
    const OPTION_KEYS: Keys<Self::Options>;
    /// What the computation needs.
    type Config: Send + Sync;
    fn documentation() -> &'static Documentation;
    fn fields() -> Fields;
    /// What the computation needs, from the options' parameters (a model loaded, ...).
    fn config(options: Self::Options) -> std::result::Result<Self::Config, String>;
    /// The cells of a text's row, one per field; an error makes the row the row policy's.
    fn row(row: &mut Row<'_, '_>, config: &Self::Config) -> std::result::Result<Vec<Cell>, String>;
}

/// A row's text, and its words as the functions of the projection share them.
pub(crate) struct Row<'s, 't> {
    pub text: &'t str,
    index: usize,
    shared: &'s mut SharedWords,
}

impl<'t> Row<'_, 't> {
    /// The text's words as `tokenizer` gives them ([`crate::words::words_in`]), tokenized once
    /// per batch and tokenizer.
    pub(crate) fn words(&mut self, tokenizer: WordTokenizer) -> Vec<Cow<'t, str>> {
        self.shared.words(self.index, self.text, tokenizer)
    }
}

/// The SQL function of a [`TextStructKernel`].
pub type TextStructFunction<K> = WebtextFunction<TextStruct<K>>;

/// A [`TextStructKernel`] as a [`Kernel`]: one struct per text.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct TextStruct<K>(K);

/// The options argument of a text function: the kernel's configuration and the rows' policy.
pub(crate) struct TextOptions<K: TextStructKernel> {
    config: K::Config,
    policy: RowPolicy,
}

impl<K: TextStructKernel> Arguments for TextOptions<K> {
    /// `(text [, options])`.
    const MAX_ARGS: usize = 2;

    fn parse(function: &str, constants: &[Option<&ScalarValue>]) -> Result<Self> {
        let value = constants.get(1).copied();
        let defaults = K::Options::default();
        let (options, policy) = constant_options(
            function,
            2,
            value,
            defaults,
            &[K::OPTION_KEYS],
            RowKeys::Text,
        )?;
        match K::config(options) {
            Ok(config) => Ok(TextOptions { config, policy }),
            Err(e) => plan_err!("{function}: invalid options (argument 2): {e}"),
        }
    }
}

impl<K: TextStructKernel> Kernel for TextStruct<K> {
    const NAME: &'static str = K::NAME;
    const INPUT: Input = Input::Text;
    type Arguments = TextOptions<K>;

    fn documentation() -> &'static Documentation {
        K::documentation()
    }

    fn return_type() -> DataType {
        DataType::Struct(K::fields())
    }

    fn compute(texts: &dyn Array, options: &TextOptions<K>) -> Result<ArrayRef> {
        rows::<K>(texts, &options.config, &options.policy)
    }
}

/// The column of one field.
enum Column {
    Bool(BooleanBuilder),
    Count(Int64Builder),
    Number(Float64Builder),
    Text(StringBuilder),
    Scores(ListBuilder<StructBuilder>),
}

impl Column {
    fn for_field(field: &Field) -> Result<Column> {
        Ok(match field.data_type() {
            DataType::Boolean => Column::Bool(BooleanBuilder::new()),
            DataType::Int64 => Column::Count(Int64Builder::new()),
            DataType::Float64 => Column::Number(Float64Builder::new()),
            DataType::Utf8 => Column::Text(StringBuilder::new()),
            DataType::List(item) => {
                let fields = match item.data_type() {
                    DataType::Struct(fields) => fields.clone(),
                    _ => score_fields(),
                };
                Column::Scores(
                    ListBuilder::new(StructBuilder::from_fields(fields, 0))
                        .with_field(Arc::clone(item)),
                )
            }
            other => return exec_err!("no column of type {other}"),
        })
    }

    /// Appends a cell; `None` appends NULL.
    fn append(&mut self, cell: Option<Cell>) -> Result<()> {
        match (self, cell) {
            (Column::Bool(b), Some(Cell::Bool(v))) => b.append_value(v),
            (Column::Bool(b), None) => b.append_null(),
            (Column::Count(b), Some(Cell::Count(v))) => {
                b.append_value(i64::try_from(v).unwrap_or(i64::MAX))
            }
            (Column::Count(b), Some(Cell::Position(v))) => {
                b.append_option(v.map(|v| i64::try_from(v).unwrap_or(i64::MAX)))
            }
            (Column::Count(b), None) => b.append_null(),
            (Column::Number(b), Some(Cell::Number(v))) => b.append_option(v),
            (Column::Number(b), None) => b.append_null(),
            (Column::Text(b), Some(Cell::Text(v))) => b.append_option(v),
            (Column::Text(b), None) => b.append_null(),
            (Column::Scores(b), Some(Cell::Scores(Some(scores)))) => {
                for (language, score) in scores {
                    append_score(b.values(), &language, score)?;
                }
                b.append(true);
            }
            (Column::Scores(b), Some(Cell::Scores(None)) | None) => b.append_null(),
            (_, Some(cell)) => return exec_err!("a cell {cell:?} does not fit its column"),
        }
        Ok(())
    }

    /// The bytes a cell adds to a string column, which holds at most 2 GiB per batch.
    fn text_bytes(&self, cell: &Cell) -> Option<(usize, usize)> {
        match (self, cell) {
            (Column::Text(b), Cell::Text(Some(v))) => Some((b.values_slice().len(), v.len())),
            _ => None,
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Column::Bool(b) => Arc::new(b.finish()),
            Column::Count(b) => Arc::new(b.finish()),
            Column::Number(b) => Arc::new(b.finish()),
            Column::Text(b) => Arc::new(b.finish()),
            Column::Scores(b) => Arc::new(b.finish()),
        }
    }
}

fn append_score(item: &mut StructBuilder, language: &str, score: f64) -> Result<()> {
    match item.field_builder::<StringBuilder>(0) {
        Some(languages) => languages.append_value(language),
        None => return exec_err!("the score list's first column is not a string column"),
    }
    match item.field_builder::<Float64Builder>(1) {
        Some(scores) => scores.append_value(score),
        None => return exec_err!("the score list's second column is not a float column"),
    }
    item.append(true);
    Ok(())
}

/// The columns of a struct result being built row by row.
pub(crate) struct StructColumns {
    fields: Fields,
    columns: Vec<Column>,
    valid: Vec<bool>,
}

impl StructColumns {
    pub(crate) fn new(fields: Fields, rows: usize) -> Result<Self> {
        let columns = fields
            .iter()
            .map(|f| Column::for_field(f))
            .collect::<Result<Vec<_>>>()?;
        Ok(StructColumns {
            fields,
            columns,
            valid: Vec::with_capacity(rows),
        })
    }

    /// The rows pushed so far.
    pub(crate) fn len(&self) -> usize {
        self.valid.len()
    }

    /// Appends a row's cells, one per field; `None` is a NULL row, NULL in every field too
    /// (DataFusion's field access does not carry the struct's NULL to the field it reads). So
    /// is a row whose text would take a string column past Arrow's 2 GiB, unless the policy
    /// fails the query then.
    pub(crate) fn push(
        &mut self,
        function: &str,
        policy: &RowPolicy,
        cells: Option<Vec<Cell>>,
    ) -> Result<()> {
        let cells = match cells {
            Some(cells) => {
                let sizes: Vec<(usize, usize)> = self
                    .columns
                    .iter()
                    .zip(&cells)
                    .filter_map(|(column, cell)| column.text_bytes(cell))
                    .collect();
                policy.fits(function, &sizes)?.then_some(cells)
            }
            None => None,
        };
        self.valid.push(cells.is_some());
        match cells {
            Some(cells) => {
                for (column, cell) in self.columns.iter_mut().zip(cells) {
                    column.append(Some(cell))?;
                }
            }
            None => {
                for column in self.columns.iter_mut() {
                    column.append(None)?;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn finish(mut self) -> Result<ArrayRef> {
        let arrays: Vec<ArrayRef> = self.columns.iter_mut().map(Column::finish).collect();
        Ok(Arc::new(StructArray::try_new(
            self.fields,
            arrays,
            Some(NullBuffer::from(self.valid)),
        )?))
    }
}

/// One struct per text: NULL for NULL text and for a row the policy makes NULL.
fn rows<K: TextStructKernel>(
    texts: &dyn Array,
    config: &K::Config,
    policy: &RowPolicy,
) -> Result<ArrayRef> {
    let mut columns = StructColumns::new(K::fields(), texts.len())?;
    let mut shared = SharedWords::for_texts(texts);
    for_each_text(texts, |text| {
        let index = columns.len();
        let compute = |text: &str| {
            let mut row = Row {
                text,
                index,
                shared: &mut shared,
            };
            K::row(&mut row, config)
        };
        let cells = match policy.text_row(K::NAME, text, compute)? {
            Some(Ok(cells)) => Some(cells),
            Some(Err(reason)) => policy.unprocessed(K::NAME, reason).map(|()| None)?,
            None => None,
        };
        columns.push(K::NAME, policy, cells)
    })?;
    columns.finish()
}
