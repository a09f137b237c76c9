//! The DataFusion layer.
use std::sync::Arc;
use datafusion::error::Result;
use datafusion::execution::FunctionRegistry;
use datafusion::logical_expr::ScalarUDF;

pub fn all_scalar() -> Vec<Arc<ScalarUDF>> { vec![] }
pub fn register_all(registry: &mut dyn FunctionRegistry) -> Result<()> {
    for f in all_scalar() { registry.register_udf(f)?; }
    Ok(())
}
pub mod functions {}
