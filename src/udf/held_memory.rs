//! What the crate's window functions hold, reserved from the memory pool of the session they were
//! registered in: DataFusion counts what its own operators buffer, not a window's evaluator state,
//! so without this a window could grow past `--memory-limit` unseen.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, Weak};

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

    /// A reservation of the `bytes` of `shared`, made once in this pool however many evaluators
    /// use `shared` at the same time (each evaluator of a `PARTITION BY` window shares one
    /// duplicate set): released when the last of them drops it.
    pub(crate) fn hold_shared<T>(
        &self,
        function: &str,
        shared: &Arc<T>,
        bytes: usize,
    ) -> Result<Arc<HeldMemory>> {
        let pool = self
            .0
            .as_ref()
            .map_or(0, |pool| Arc::as_ptr(pool) as *const () as usize);
        // While a reservation lives, its evaluators keep `shared` alive, so no other value can
        // take its address: the key names one value.
        let key = (Arc::as_ptr(shared) as usize, pool);
        let mut held = SHARED_HOLDS.lock().unwrap_or_else(|e| e.into_inner());
        held.retain(|_, h| h.strong_count() > 0);
        if let Some(existing) = held.get(&key).and_then(Weak::upgrade) {
            return Ok(existing);
        }
        let mut reservation = self.hold(function);
        reservation.cover(bytes)?;
        let reservation = Arc::new(reservation);
        held.insert(key, Arc::downgrade(&reservation));
        Ok(reservation)
    }
}

/// The shared reservations alive, by (value's address, pool's address).
static SHARED_HOLDS: LazyLock<Mutex<HashMap<(usize, usize), Weak<HeldMemory>>>> =
    LazyLock::new(Default::default);

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

#[cfg(test)]
mod tests {
    use datafusion::execution::memory_pool::GreedyMemoryPool;

    use super::*;

    #[test]
    fn a_shared_value_is_reserved_once_until_its_last_holder_drops_it() {
        let pool: Arc<dyn MemoryPool> = Arc::new(GreedyMemoryPool::new(10 << 20));
        let window_pool = WindowPool::new(Arc::clone(&pool));
        let (set, other) = (Arc::new([0u8; 4]), Arc::new([0u8; 4]));
        let first = window_pool.hold_shared("f", &set, 3 << 20).unwrap();
        let second = window_pool.hold_shared("f", &set, 3 << 20).unwrap();
        assert_eq!(pool.reserved(), 3 << 20);
        let third = window_pool.hold_shared("f", &other, 3 << 20).unwrap();
        assert_eq!(pool.reserved(), 6 << 20);
        drop((first, third));
        assert_eq!(pool.reserved(), 3 << 20);
        drop(second);
        assert_eq!(pool.reserved(), 0);
        // Past the pool: the error, not a reservation.
        let big = Arc::new([0u8; 4]);
        assert!(window_pool.hold_shared("f", &big, 11 << 20).is_err());
        assert_eq!(pool.reserved(), 0);
    }
}
