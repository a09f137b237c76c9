//! How the crate's WARC tables travel in a cluster's plans.
//!
//! Ballista sends plans between its processes as protobuf: the client's logical plan to the
//! scheduler, each stage's physical plan to the executors. DataFusion's encoding knows its own
//! tables and file formats only, and hands anything else to an extension codec. These codecs
//! are Ballista's own with the crate's WARC table ([`WarcTable`]: its paths and options) and WARC
//! scan (a `DataSourceExec` reading [`WarcSource`]: its files, projection, options and the
//! filters pushed into it) added; every `webtext` process (client, scheduler, executor) uses
//! them, so a WARC crawl is read by the executors, file by file, as in one process.
//!
//! The physical codec also carries [`ShardWriterExec`], the operator by which executors write a
//! job's shards themselves.
//!
//! What the crate encodes starts with a tag no protobuf message can start with, so the bytes
//! Ballista's codecs write are told apart from the crate's without a registry of positions.

use std::sync::Arc;

use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::TableProvider;
use datafusion::common::{DataFusionError, Result, TableReference};
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::datasource::physical_plan::FileScanConfig;
use datafusion::datasource::source::DataSourceExec;
use datafusion::execution::TaskContext;
use datafusion::logical_expr::{Extension, LogicalPlan};
use datafusion::physical_plan::ExecutionPlan;
use datafusion_proto::logical_plan::LogicalExtensionCodec;
use datafusion_proto::physical_plan::from_proto::{
    parse_physical_expr_with_converter, parse_protobuf_file_scan_config,
    parse_table_schema_from_proto,
};
use datafusion_proto::physical_plan::to_proto::serialize_file_scan_config;
use datafusion_proto::physical_plan::{
    PhysicalExtensionCodec, PhysicalPlanDecodeContext, PhysicalProtoConverterExtension,
};
use datafusion_proto::protobuf::{FileScanExecConf, PhysicalExprNode};
use prost::Message;

use crate::datasource::one_file::PartsConcatExec;
use crate::datasource::shard_writer::ShardWriterExec;
use crate::datasource::{OnError, WarcOptions, WarcSource, WarcTable, parse_on_error};

/// The first bytes of a WARC table the crate encoded. Byte 0x77 (`w`) would be field 14 of wire
/// type 7, which does not exist: no protobuf message starts with it.
const WARC_TABLE_TAG: &[u8] = b"webtext-warc-table\0";
/// The first bytes of a WARC scan the crate encoded.
const WARC_SCAN_TAG: &[u8] = b"webtext-warc-scan\0";
/// The first bytes of a shard writer the crate encoded.
const SHARD_WRITER_TAG: &[u8] = b"webtext-shard-writer\0";
/// The join of a file's parts ([`PartsConcatExec`]).
const PARTS_CONCAT_TAG: &[u8] = b"webtext-parts-concat\0";

/// A WARC table as sent: what [`WarcTable::new`] takes.
#[derive(Clone, PartialEq, Message)]
struct WarcTableProto {
    #[prost(string, repeated, tag = "1")]
    paths: Vec<String>,
    #[prost(message, optional, tag = "2")]
    options: Option<WarcOptionsProto>,
}

#[derive(Clone, PartialEq, Message)]
struct WarcOptionsProto {
    /// `fail` or `skip`.
    #[prost(string, tag = "1")]
    on_error: String,
    #[prost(uint64, tag = "2")]
    max_payload_bytes: u64,
}

/// A WARC scan as sent: DataFusion's description of a file scan, and what the WARC source adds.
#[derive(Clone, PartialEq, Message)]
struct WarcScanProto {
    #[prost(message, optional, tag = "1")]
    scan: Option<FileScanExecConf>,
    #[prost(message, optional, tag = "2")]
    options: Option<WarcOptionsProto>,
    /// Whether a filter narrowed the WARC-Type values read (then `types` lists them, possibly
    /// none).
    #[prost(bool, tag = "3")]
    has_types: bool,
    #[prost(string, repeated, tag = "4")]
    types: Vec<String>,
    #[prost(message, repeated, tag = "5")]
    head_filters: Vec<PhysicalExprNode>,
}

/// A shard writer as sent (its input travels as the node's input).
#[derive(Clone, PartialEq, Message)]
struct ShardWriterProto {
    #[prost(string, tag = "1")]
    folder: String,
    /// The first files of the shards not named after their files, and their names.
    #[prost(string, repeated, tag = "2")]
    renamed_first_files: Vec<String>,
    #[prost(string, repeated, tag = "3")]
    renamed_names: Vec<String>,
    /// Set when the writer writes its one input partition as one file of this name.
    #[prost(string, optional, tag = "4")]
    file_name: Option<String>,
    /// The input's last columns summed, not written.
    #[prost(uint32, tag = "5")]
    tallied: u32,
    /// Set when each partition writes a part of the one file of this name.
    #[prost(string, optional, tag = "6")]
    part_of: Option<String>,
}

/// A join of a file's parts as sent (its input, the parts' counts, travels as the node's input).
#[derive(Clone, PartialEq, Message)]
struct PartsConcatProto {
    #[prost(string, tag = "1")]
    folder: String,
    #[prost(string, tag = "2")]
    file_name: String,
    #[prost(uint64, tag = "3")]
    parts: u64,
    #[prost(uint32, tag = "4")]
    tallied: u32,
}

impl From<&WarcOptions> for WarcOptionsProto {
    fn from(options: &WarcOptions) -> Self {
        WarcOptionsProto {
            on_error: match options.on_error {
                OnError::Fail => "fail",
                OnError::Skip => "skip",
            }
            .to_owned(),
            max_payload_bytes: options.max_payload_bytes,
        }
    }
}

impl TryFrom<Option<&WarcOptionsProto>> for WarcOptions {
    type Error = DataFusionError;

    fn try_from(proto: Option<&WarcOptionsProto>) -> Result<Self> {
        let proto = proto.ok_or_else(|| decode_error("a WARC table without its options"))?;
        let mut options = WarcOptions {
            on_error: parse_on_error(&proto.on_error)?,
            ..WarcOptions::default()
        };
        options.set("max_payload_bytes", &proto.max_payload_bytes.to_string())?;
        Ok(options)
    }
}

fn decode_error(what: impl std::fmt::Display) -> DataFusionError {
    DataFusionError::Internal(format!("webtext cluster codec: {what}"))
}

/// The message after `tag`, when `buf` starts with it.
fn tagged<M: Message + Default>(buf: &[u8], tag: &[u8]) -> Option<Result<M>> {
    let body = buf.strip_prefix(tag)?;
    Some(M::decode(body).map_err(|e| decode_error(e)))
}

fn write_tagged(buf: &mut Vec<u8>, tag: &[u8], message: &impl Message) {
    buf.extend_from_slice(tag);
    message.encode_raw(buf);
}

/// Ballista's logical codec with the crate's WARC tables.
#[derive(Debug, Default)]
pub struct WebtextLogicalCodec {
    ballista: BallistaLogicalExtensionCodec,
}

impl LogicalExtensionCodec for WebtextLogicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[LogicalPlan],
        ctx: &TaskContext,
    ) -> Result<Extension> {
        self.ballista.try_decode(buf, inputs, ctx)
    }

    fn try_encode(&self, node: &Extension, buf: &mut Vec<u8>) -> Result<()> {
        self.ballista.try_encode(node, buf)
    }

    fn try_decode_table_provider(
        &self,
        buf: &[u8],
        table_ref: &TableReference,
        schema: SchemaRef,
        ctx: &TaskContext,
    ) -> Result<Arc<dyn TableProvider>> {
        let Some(proto) = tagged::<WarcTableProto>(buf, WARC_TABLE_TAG) else {
            return self
                .ballista
                .try_decode_table_provider(buf, table_ref, schema, ctx);
        };
        let proto = proto?;
        let options = WarcOptions::try_from(proto.options.as_ref())?;
        // The paths were checked, and made absolute, where the table was made; here they are
        // only listed when a scan is planned, through the process's (rooted) stores.
        Ok(Arc::new(WarcTable::new(proto.paths, options)?))
    }

    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn TableProvider>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        let Some(table) = node.downcast_ref::<WarcTable>() else {
            return self
                .ballista
                .try_encode_table_provider(table_ref, node, buf);
        };
        let proto = WarcTableProto {
            paths: table.paths().to_vec(),
            options: Some(table.options().into()),
        };
        write_tagged(buf, WARC_TABLE_TAG, &proto);
        Ok(())
    }

    fn try_decode_file_format(
        &self,
        buf: &[u8],
        ctx: &TaskContext,
    ) -> Result<Arc<dyn FileFormatFactory>> {
        self.ballista.try_decode_file_format(buf, ctx)
    }

    fn try_encode_file_format(
        &self,
        buf: &mut Vec<u8>,
        node: Arc<dyn FileFormatFactory>,
    ) -> Result<()> {
        self.ballista.try_encode_file_format(buf, node)
    }
}

/// Ballista's physical codec with the crate's WARC scans.
#[derive(Debug, Default)]
pub struct WebtextPhysicalCodec {
    ballista: BallistaPhysicalExtensionCodec,
}

impl WebtextPhysicalCodec {
    fn encode_warc_scan(
        &self,
        scan: &FileScanConfig,
        source: &WarcSource,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<WarcScanProto> {
        let head_filters = source
            .head_filters()
            .iter()
            .map(|filter| converter.physical_expr_to_proto(filter, self))
            .collect::<Result<Vec<_>>>()?;
        Ok(WarcScanProto {
            scan: Some(serialize_file_scan_config(scan, self, converter)?),
            options: Some(source.options().into()),
            has_types: source.pushed_types().is_some(),
            types: source.pushed_types().unwrap_or_default().to_vec(),
            head_filters,
        })
    }

    fn decode_warc_scan(
        &self,
        proto: &WarcScanProto,
        ctx: &TaskContext,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        let scan = proto
            .scan
            .as_ref()
            .ok_or_else(|| decode_error("a WARC scan without its files"))?;
        let table_schema = parse_table_schema_from_proto(scan)?;
        let decode_ctx = PhysicalPlanDecodeContext::new(ctx, self);
        let head_filters = proto
            .head_filters
            .iter()
            .map(|filter| {
                parse_physical_expr_with_converter(
                    filter,
                    table_schema.file_schema(),
                    &decode_ctx,
                    converter,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        let source = WarcSource::with_pushed(
            table_schema,
            WarcOptions::try_from(proto.options.as_ref())?,
            proto.has_types.then(|| proto.types.clone()),
            &head_filters,
        );
        let config =
            parse_protobuf_file_scan_config(scan, &decode_ctx, converter, Arc::new(source))?;
        Ok(DataSourceExec::from_data_source(config))
    }
}

/// The file scan and WARC source of `plan`, when it is a WARC scan.
fn warc_scan(plan: &dyn ExecutionPlan) -> Option<(&FileScanConfig, &WarcSource)> {
    let scan = plan
        .downcast_ref::<DataSourceExec>()?
        .data_source()
        .downcast_ref::<FileScanConfig>()?;
    let source = scan.file_source().downcast_ref::<WarcSource>()?;
    Some((scan, source))
}

impl PhysicalExtensionCodec for WebtextPhysicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if let Some(proto) = tagged::<WarcScanProto>(buf, WARC_SCAN_TAG) {
            return self.decode_warc_scan(&proto?, ctx, converter);
        }
        if let Some(proto) = tagged::<ShardWriterProto>(buf, SHARD_WRITER_TAG) {
            let proto = proto?;
            let [input] = inputs else {
                return Err(decode_error("a shard writer without its one input"));
            };
            let input = Arc::clone(input);
            let writer = match (proto.file_name, proto.part_of) {
                (Some(name), _) => ShardWriterExec::one_file(input, proto.folder, name)?,
                (None, Some(name)) => ShardWriterExec::parts_of(input, proto.folder, name)?,
                (None, None) => {
                    if proto.renamed_first_files.len() != proto.renamed_names.len() {
                        return Err(decode_error("a shard writer with unpaired shard names"));
                    }
                    let renamed = proto
                        .renamed_first_files
                        .into_iter()
                        .zip(proto.renamed_names)
                        .collect();
                    ShardWriterExec::try_new(input, proto.folder, renamed)?
                }
            };
            return Ok(Arc::new(writer.with_tallied(proto.tallied as usize)?));
        }
        if let Some(proto) = tagged::<PartsConcatProto>(buf, PARTS_CONCAT_TAG) {
            let proto = proto?;
            let [input] = inputs else {
                return Err(decode_error("a join of parts without its one input"));
            };
            let parts = usize::try_from(proto.parts)
                .map_err(|_| decode_error("a join of too many parts"))?;
            let join = PartsConcatExec::try_new(
                Arc::clone(input),
                proto.folder,
                proto.file_name,
                parts,
                proto.tallied as usize,
            )?;
            return Ok(Arc::new(join));
        }
        self.ballista.try_decode(buf, inputs, ctx, converter)
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        if let Some((scan, source)) = warc_scan(node.as_ref()) {
            let proto = self.encode_warc_scan(scan, source, converter)?;
            write_tagged(buf, WARC_SCAN_TAG, &proto);
            return Ok(());
        }
        if let Some(writer) = node.downcast_ref::<ShardWriterExec>() {
            let (renamed_first_files, renamed_names) = writer.renamed().iter().cloned().unzip();
            let proto = ShardWriterProto {
                folder: writer.folder().to_owned(),
                renamed_first_files,
                renamed_names,
                file_name: writer.file_name().map(str::to_owned),
                tallied: u32::try_from(writer.tallied())
                    .map_err(|_| decode_error("a shard writer with too many tallied columns"))?,
                part_of: writer.part_of().map(str::to_owned),
            };
            write_tagged(buf, SHARD_WRITER_TAG, &proto);
            return Ok(());
        }
        if let Some(join) = node.downcast_ref::<PartsConcatExec>() {
            let proto = PartsConcatProto {
                folder: join.folder().to_owned(),
                file_name: join.file_name().to_owned(),
                parts: join.parts() as u64,
                tallied: u32::try_from(join.tallied())
                    .map_err(|_| decode_error("a join of parts with too many tallied columns"))?,
            };
            write_tagged(buf, PARTS_CONCAT_TAG, &proto);
            return Ok(());
        }
        self.ballista.try_encode(node, buf, converter)
    }
}

#[cfg(test)]
mod tests {
    use datafusion::arrow::util::pretty::pretty_format_batches;
    use datafusion::common::tree_node::TreeNode;
    use datafusion::physical_plan::{collect, displayable};
    use datafusion::prelude::SessionContext;
    use datafusion_proto::bytes::{
        logical_plan_from_bytes_with_extension_codec, logical_plan_to_bytes_with_extension_codec,
        physical_plan_from_bytes_with_extension_codec, physical_plan_to_bytes_with_extension_codec,
    };

    use super::*;

    fn archive() -> String {
        format!(
            "{}/tests/data/http_charset.warc",
            env!("CARGO_MANIFEST_DIR")
        )
    }

    fn context() -> SessionContext {
        let mut ctx = SessionContext::new();
        crate::register_all(&mut ctx).unwrap();
        ctx
    }

    const QUERY: &str = "SELECT url, http_charset, payload IS NULL AS no_payload FROM w \
                         WHERE warc_type = 'response' AND http_status = 200 ORDER BY url";

    async fn rows(ctx: &SessionContext, plan: Arc<dyn ExecutionPlan>) -> String {
        let batches = collect(plan, ctx.task_ctx()).await.unwrap();
        pretty_format_batches(&batches).unwrap().to_string()
    }

    #[tokio::test]
    async fn a_warc_scan_with_its_pushed_filters_is_the_same_plan_after_the_trip() {
        let ctx = context();
        let options = WarcOptions {
            on_error: OnError::Skip,
            max_payload_bytes: 4096,
        };
        ctx.register_table(
            "w",
            crate::datasource::warc_table(&archive(), options).unwrap(),
        )
        .unwrap();
        let plan = ctx
            .sql(QUERY)
            .await
            .unwrap()
            .create_physical_plan()
            .await
            .unwrap();
        let shown = displayable(plan.as_ref()).indent(true).to_string();
        // The scan carries what the trip must keep: the type and header filters pushed into it.
        assert!(shown.contains("warc_types=[\"response\"]"), "{shown}");
        assert!(shown.contains("decoded_after"), "{shown}");
        let codec = WebtextPhysicalCodec::default();
        let bytes = physical_plan_to_bytes_with_extension_codec(Arc::clone(&plan), &codec).unwrap();
        let back =
            physical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), &codec).unwrap();
        assert_eq!(displayable(back.as_ref()).indent(true).to_string(), shown);
        let (sent, read) = (rows(&ctx, plan).await, rows(&ctx, Arc::clone(&back)).await);
        assert!(sent.contains("iso-8859-1"), "{sent}");
        assert_eq!(read, sent);
        let source = warc_scan_of(&back);
        assert_eq!(source.options().on_error, OnError::Skip);
        assert_eq!(source.options().max_payload_bytes, 4096);
    }

    fn warc_scan_of(plan: &Arc<dyn ExecutionPlan>) -> WarcSource {
        if let Some((_, source)) = warc_scan(plan.as_ref()) {
            return source.clone();
        }
        let child = plan
            .children()
            .into_iter()
            .next()
            .expect("a WARC scan below");
        warc_scan_of(child)
    }

    #[tokio::test]
    async fn a_warc_table_is_the_same_table_after_the_trip() {
        let ctx = context();
        let relative = "tests/data/http_charset.warc";
        let sql = format!("SELECT url FROM read_warc('{relative}', 'on_error=skip') ORDER BY url");
        let plan = ctx.sql(&sql).await.unwrap().into_optimized_plan().unwrap();
        let codec = WebtextLogicalCodec::default();
        let bytes = logical_plan_to_bytes_with_extension_codec(&plan, &codec).unwrap();
        let back =
            logical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), &codec).unwrap();
        let table = |plan: &LogicalPlan| {
            let mut found = None;
            plan.apply(|node| {
                if let LogicalPlan::TableScan(scan) = node {
                    let provider = datafusion::datasource::source_as_provider(&scan.source)?;
                    found = provider
                        .downcast_ref::<WarcTable>()
                        .map(|t| (t.paths().to_vec(), t.options().clone()));
                }
                Ok(datafusion::common::tree_node::TreeNodeRecursion::Continue)
            })
            .unwrap();
            found.expect("a WARC table")
        };
        let (paths, options) = table(&back);
        // The relative path was made absolute where the table was made, for every process.
        assert_eq!(paths, vec![archive()]);
        assert_eq!(options.on_error, OnError::Skip);
        assert_eq!(table(&plan), (paths, options));
        let rows = |plan: LogicalPlan| {
            let ctx = ctx.clone();
            async move {
                let batches = ctx
                    .execute_logical_plan(plan)
                    .await
                    .unwrap()
                    .collect()
                    .await
                    .unwrap();
                pretty_format_batches(&batches).unwrap().to_string()
            }
        };
        assert_eq!(rows(back).await, rows(plan).await);
    }

    #[tokio::test]
    async fn other_plans_are_ballistas_and_a_bad_warc_message_is_an_error() {
        let ctx = context();
        ctx.register_parquet(
            "p",
            &format!(
                "{}/examples/data/sample_crawl.parquet",
                env!("CARGO_MANIFEST_DIR")
            ),
            Default::default(),
        )
        .await
        .unwrap();
        let plan = ctx
            .sql("SELECT count(*) FROM p")
            .await
            .unwrap()
            .create_physical_plan()
            .await
            .unwrap();
        let codec = WebtextPhysicalCodec::default();
        let bytes = physical_plan_to_bytes_with_extension_codec(Arc::clone(&plan), &codec).unwrap();
        let back =
            physical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), &codec).unwrap();
        assert_eq!(rows(&ctx, back).await, rows(&ctx, plan).await);
        let mut bad = WARC_SCAN_TAG.to_vec();
        bad.extend_from_slice(&[0xff, 0xff, 0xff]);
        let error = codec
            .try_decode(
                &bad,
                &[],
                &ctx.task_ctx(),
                &datafusion_proto::physical_plan::DefaultPhysicalProtoConverter {},
            )
            .unwrap_err();
        assert!(
            error.to_string().contains("webtext cluster codec"),
            "{error}"
        );
    }

    /// The physical plan of `sql` over the bundled sample crawl as table `p`.
    async fn sample_plan(sql: &str) -> (SessionContext, Arc<dyn ExecutionPlan>) {
        let ctx = context();
        let sample = format!(
            "{}/examples/data/sample_crawl.parquet",
            env!("CARGO_MANIFEST_DIR")
        );
        ctx.register_parquet("p", &sample, Default::default())
            .await
            .unwrap();
        let plan = ctx
            .sql(sql)
            .await
            .unwrap()
            .create_physical_plan()
            .await
            .unwrap();
        (ctx, plan)
    }

    #[tokio::test]
    async fn a_one_file_writer_is_the_same_writer_after_the_trip() {
        let (ctx, plan) =
            sample_plan("SELECT url, length(url) AS url_chars FROM p ORDER BY url").await;
        let writer: Arc<dyn ExecutionPlan> = Arc::new(
            ShardWriterExec::one_file(plan, "/data/out".into(), "urls.parquet".into())
                .and_then(|writer| writer.with_tallied(1))
                .unwrap(),
        );
        let codec = WebtextPhysicalCodec::default();
        let bytes =
            physical_plan_to_bytes_with_extension_codec(Arc::clone(&writer), &codec).unwrap();
        let back =
            physical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), &codec).unwrap();
        let back = back.downcast_ref::<ShardWriterExec>().unwrap();
        assert_eq!(back.folder(), "/data/out");
        assert_eq!(back.file_name(), Some("urls.parquet"));
        assert_eq!(back.tallied(), 1);
        // The writer itself (its input is DataFusion's to carry).
        assert_eq!(
            displayable(back).one_line().to_string(),
            displayable(writer.as_ref()).one_line().to_string()
        );
        assert_eq!(back.schema(), writer.schema());
    }

    #[tokio::test]
    async fn a_file_written_in_parts_is_the_same_plan_after_the_trip() {
        use datafusion::physical_plan::Partitioning;
        use datafusion::physical_plan::repartition::RepartitionExec;
        let (ctx, plan) = sample_plan("SELECT url, length(url) AS url_chars FROM p").await;
        let spread =
            Arc::new(RepartitionExec::try_new(plan, Partitioning::RoundRobinBatch(2)).unwrap());
        let plan = crate::datasource::one_file::write_one_file(
            spread,
            "/data/out".into(),
            "urls.parquet".into(),
            1,
        )
        .unwrap();
        let codec = WebtextPhysicalCodec::default();
        let bytes = physical_plan_to_bytes_with_extension_codec(Arc::clone(&plan), &codec).unwrap();
        let back =
            physical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), &codec).unwrap();
        let join = back.downcast_ref::<PartsConcatExec>().unwrap();
        assert_eq!(
            (join.folder(), join.file_name()),
            ("/data/out", "urls.parquet")
        );
        assert_eq!((join.parts(), join.tallied()), (2, 1));
        let shown = |plan: &dyn ExecutionPlan| displayable(plan).indent(false).to_string();
        assert!(shown(back.as_ref()).contains("parts of file=urls.parquet"));
        assert_eq!(shown(back.as_ref()), shown(plan.as_ref()));
        assert_eq!(back.schema(), plan.schema());
    }
}
