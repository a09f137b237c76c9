//! Tables that bring their object stores along, for hosts whose sessions have no store of ours:
//! datafusion-python hands a foreign table (through datafusion-ffi) a session and task contexts
//! whose runtime knows local files only, so a table of `s3://…` files would find no store there.
//! [`with_stores`] wraps such a table: the stores its paths need, made from the environment as
//! [`UrlStoreRegistry`](super::UrlStoreRegistry) makes them, are registered in the runtime of
//! whatever session plans it and of whatever task runs it.
//!
//! Such a host also polls the table's stream from threads of its own runtime (another copy of
//! tokio), where the stores' HTTP client and the WARC reader's download task find no runtime:
//! the tokio runtime current when the table is made is entered around each poll.

use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{DataFusionError, Result};
use datafusion::execution::runtime_env::{RuntimeEnv, RuntimeEnvBuilder};
use datafusion::execution::{RecordBatchStream, SendableRecordBatchStream, TaskContext};
use datafusion::logical_expr::{Expr, TableProviderFilterPushDown, TableType};
use datafusion::object_store::ObjectStore;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_plan::{DisplayAs, DisplayFormatType, ExecutionPlan, PlanProperties};
use datafusion::prelude::{SessionConfig, SessionContext};
use url::Url;

use super::super::inputs::{InputKind, input_kind, input_table};
use super::super::output::shards::list_input_files;
use super::super::warc::format::WarcOptions;
use super::{StoreOptions, UrlStoreRegistry, is_store_url, store_for_url};

/// The stores of some URLs, by the URL of their bucket (or host).
type Stores = Vec<(Url, Arc<dyn ObjectStore>)>;

/// `table`, reading the files at `paths`, made to reach their object stores by itself (local
/// paths need nothing: `table` is returned as it is).
pub fn with_stores(
    table: Arc<dyn TableProvider>,
    paths: &[impl AsRef<str>],
) -> Result<Arc<dyn TableProvider>> {
    let options = StoreOptions::from_env().map_err(DataFusionError::Configuration)?;
    let mut stores: Stores = Vec::new();
    for path in paths.iter().map(AsRef::as_ref).filter(|p| is_store_url(p)) {
        let url = Url::parse(path).map_err(|e| DataFusionError::Plan(format!("{path}: {e}")))?;
        let base = Url::parse(&format!("{}://{}/", url.scheme(), url.authority()))
            .map_err(|e| DataFusionError::Plan(format!("{path}: {e}")))?;
        if !stores.iter().any(|(known, _)| known == &base) {
            stores.push((base, store_for_url(&url, &options)?));
        }
    }
    if stores.is_empty() {
        return Ok(table);
    }
    Ok(Arc::new(TableWithStores {
        inner: table,
        stores,
        runtime: tokio::runtime::Handle::try_current().ok(),
    }))
}

/// The table of the files at `path` (a file, a folder, a glob; local or in an object store), read
/// by their extension as `webtext --table` reads them, with its stores ([`with_stores`]): for a
/// host that registers foreign tables.
pub async fn open_input(path: &str, warc_options: WarcOptions) -> Result<Arc<dyn TableProvider>> {
    let runtime = RuntimeEnvBuilder::new()
        .with_object_store_registry(Arc::new(UrlStoreRegistry::new(
            StoreOptions::from_env().map_err(DataFusionError::Configuration)?,
        )))
        .build_arc()?;
    let ctx = SessionContext::new_with_config_rt(SessionConfig::new(), runtime);
    let kind: InputKind = input_kind(&ctx, path).await?;
    // A path that names nothing is an error here, not an empty table.
    list_input_files(&ctx, path, &kind).await?;
    let table = input_table(&ctx, &[path], &kind, warc_options, None).await?;
    with_stores(table, &[path])
}

fn register(runtime: &RuntimeEnv, stores: &Stores) {
    for (url, store) in stores {
        if runtime.object_store_registry.get_store(url).is_err() {
            runtime.register_object_store(url, Arc::clone(store));
        }
    }
}

#[derive(Debug)]
struct TableWithStores {
    inner: Arc<dyn TableProvider>,
    stores: Stores,
    /// The runtime the table's requests and download tasks run on.
    runtime: Option<tokio::runtime::Handle>,
}

#[async_trait]
impl TableProvider for TableWithStores {
    fn schema(&self) -> SchemaRef {
        self.inner.schema()
    }

    fn table_type(&self) -> TableType {
        self.inner.table_type()
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> Result<Vec<TableProviderFilterPushDown>> {
        self.inner.supports_filters_pushdown(filters)
    }

    async fn scan(
        &self,
        state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        register(state.runtime_env(), &self.stores);
        let scan = self.inner.scan(state, projection, filters, limit);
        // Listing the files is a request to the store: inside the runtime too.
        let plan = match &self.runtime {
            Some(runtime) => {
                Entered {
                    inner: Box::pin(scan),
                    runtime: runtime.clone(),
                }
                .await?
            }
            None => scan.await?,
        };
        Ok(Arc::new(ExecWithStores {
            inner: plan,
            stores: self.stores.clone(),
            runtime: self.runtime.clone(),
        }))
    }
}

/// A plan that registers its stores in the runtime of the task that runs it. A leaf to the host:
/// a child it could see would be run through the FFI boundary again, in a task of yet another
/// runtime that has no store.
#[derive(Debug)]
struct ExecWithStores {
    inner: Arc<dyn ExecutionPlan>,
    stores: Stores,
    runtime: Option<tokio::runtime::Handle>,
}

impl DisplayAs for ExecWithStores {
    fn fmt_as(&self, _format: DisplayFormatType, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "ExecWithStores")
    }
}

impl ExecutionPlan for ExecWithStores {
    fn name(&self) -> &'static str {
        "ExecWithStores"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        self.inner.properties()
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        vec![]
    }

    fn apply_expressions(
        &self,
        _f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        Ok(TreeNodeRecursion::Continue)
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if children.is_empty() {
            Ok(self)
        } else {
            Err(DataFusionError::Internal(
                "ExecWithStores has no children".into(),
            ))
        }
    }

    fn execute(
        &self,
        partition: usize,
        context: Arc<TaskContext>,
    ) -> Result<SendableRecordBatchStream> {
        register(&context.runtime_env(), &self.stores);
        let Some(runtime) = self.runtime.clone() else {
            return self.inner.execute(partition, context);
        };
        let inner = {
            let _entered = runtime.enter();
            self.inner.execute(partition, context)?
        };
        Ok(Box::pin(InRuntime { inner, runtime }))
    }
}

/// A future polled inside a tokio runtime, whichever thread polls it.
struct Entered<F> {
    inner: std::pin::Pin<Box<F>>,
    runtime: tokio::runtime::Handle,
}

impl<F: std::future::Future> std::future::Future for Entered<F> {
    type Output = F::Output;

    fn poll(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<F::Output> {
        let this = self.get_mut();
        let _entered = this.runtime.enter();
        this.inner.as_mut().poll(cx)
    }
}

/// A stream polled inside a tokio runtime, whichever thread polls it.
struct InRuntime {
    inner: SendableRecordBatchStream,
    runtime: tokio::runtime::Handle,
}

impl futures::Stream for InRuntime {
    type Item = Result<RecordBatch>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        let runtime = self.runtime.clone();
        let _entered = runtime.enter();
        self.inner.as_mut().poll_next(cx)
    }
}

impl RecordBatchStream for InRuntime {
    fn schema(&self) -> SchemaRef {
        self.inner.schema()
    }
}
