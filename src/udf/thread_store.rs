//! What a function leaves on its thread for the next function of the batch (the shared parses
//! and words): taken whole while a function computes, put back when it is done.

use std::cell::RefCell;
use std::thread::LocalKey;

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
