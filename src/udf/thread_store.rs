//! What a function leaves on its thread for the next function of the batch (the shared parses
//! and words): taken whole while a function computes, put back when it is done, and kept only
//! where a later function will read it ([`BatchReaders`]).

use std::cell::RefCell;
use std::thread::LocalKey;

use datafusion::arrow::array::Array;

/// Which batch a thread's functions read last, and how many of them read it. No memory pool
/// counts what a store keeps, so a batch's parses or words are kept only when more than one
/// function read the batch before it on the thread: the functions of a projection read every
/// batch, so the batch before says how many there are. A projection with one such function
/// keeps nothing after its first batch; one with several shares from its second.
#[derive(Debug, Default)]
pub(crate) struct BatchReaders {
    batch: Option<BatchId>,
    readers: usize,
    keeping: bool,
}

impl BatchReaders {
    /// Notes that a function reads `array`: true when it is another batch than the last one,
    /// whose kept rows the store then drops.
    pub(crate) fn reading(&mut self, array: &dyn Array) -> bool {
        let batch = BatchId::of(array);
        if self.batch.as_ref() == Some(&batch) {
            self.readers += 1;
            return false;
        }
        self.keeping = self.readers > 1;
        self.batch = Some(batch);
        self.readers = 1;
        true
    }

    /// Whether the rows of this batch are kept.
    pub(crate) fn keeping(&self) -> bool {
        self.keeping
    }
}

/// A batch as its functions see it: the functions of one projection are given the very same
/// array (its buffers at the same addresses). A later batch whose buffers happen to reuse those
/// addresses can only cost a row kept in vain: the stores give a kept row for the same value
/// only.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BatchId {
    len: usize,
    offset: usize,
    buffers: Vec<usize>,
}

impl BatchId {
    fn of(array: &dyn Array) -> BatchId {
        let data = array.to_data();
        BatchId {
            len: data.len(),
            offset: data.offset(),
            buffers: data.buffers().iter().map(|b| b.as_ptr() as usize).collect(),
        }
    }
}

/// The thread's store, taken out (a default one if the thread-local is gone or in use).
pub(crate) fn take<T: Default>(key: &'static LocalKey<RefCell<T>>) -> T {
    key.try_with(|s| {
        s.try_borrow_mut()
            .map(|mut s| std::mem::take(&mut *s))
            .unwrap_or_default()
    })
    .unwrap_or_default()
}

/// Puts `store` back; never panics (it runs in drops, and at thread exit the thread-local may be
/// gone).
pub(crate) fn put_back<T>(key: &'static LocalKey<RefCell<T>>, store: T) {
    let _ = key.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            *s = store;
        }
    });
}
