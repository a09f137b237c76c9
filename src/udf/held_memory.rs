//! What the crate's window functions hold, reserved from the memory pool of the session they were
//! registered in: DataFusion counts what its own operators buffer, not a window's evaluator state,
//! so without this a window could grow past `--memory-limit` unseen.

use std::sync::Arc;

use datafusion::common::Result;
use datafusion::execution::memory_pool::{MemoryConsumer, MemoryPool, MemoryReservation};

/// The pool a window function reserves from; equal when both are the same pool (or none).
#[derive(Debug, Clone, Default)]
pub struct WindowPool(Option<Arc<dyn MemoryPool>>);

impl WindowPool {
    pub fn new(pool: Arc<dyn MemoryPool>) -> Self {
        WindowPool(Some(pool))
    }

    /// A reservation of `function`'s state in this pool.
    pub(crate) fn hold(&self, function: &str) -> HeldMemory {
        HeldMemory(
            self.0
                .as_ref()
                .map(|pool| MemoryConsumer::new(function).register(pool)),
        )
    }
}

impl PartialEq for WindowPool {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for WindowPool {}

impl std::hash::Hash for WindowPool {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.is_some().hash(state);
    }
}

/// A window evaluator's reservation; released when the evaluator is dropped.
#[derive(Debug)]
pub(crate) struct HeldMemory(Option<MemoryReservation>);

/// Grow the reservation by at least this much at a time, so a growing state asks the pool rarely.
const STEP: usize = 1 << 20;

impl HeldMemory {
    /// Makes the reservation at least `bytes`: DataFusion's "Resources exhausted" error when the
    /// pool has no room.
    pub(crate) fn cover(&mut self, bytes: usize) -> Result<()> {
        match &mut self.0 {
            Some(reservation) if bytes > reservation.size() => {
                reservation.try_grow((bytes - reservation.size()).max(STEP))
            }
            _ => Ok(()),
        }
    }
}
