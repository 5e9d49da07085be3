//! No call ends in PyO3's `PanicException` (a `BaseException` that `except KibitzerError` and
//! even `except Exception` miss): a panic in a call becomes `InternalError`, and the objects that
//! hold an engine session (not `Send`) keep it on the thread that made them, so a use from
//! another thread is a `BadInput` instead of PyO3's thread-check panic.

use crate::errors::{BadInput, InternalError};
use pyo3::prelude::*;
use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::ThreadId;

/// Runs a call's body; a panic in it becomes `InternalError` with the panic's message.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let why = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        Err(InternalError::new_err(format!(
            "internal error (a bug: please report it with the call that caused it): {why}"
        )))
    })
}

thread_local! {
    /// The values of this thread's [`ThreadBound`]s, by id.
    static KEPT: RefCell<HashMap<u64, Box<dyn Any>>> = RefCell::new(HashMap::new());
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A value that may not leave its thread (an engine session), held by a Python object that
/// Python may hand to any thread: the value stays in the storage of the thread that made it,
/// and the object holds only its id.
pub struct ThreadBound<T: 'static> {
    id: u64,
    owner: ThreadId,
    /// What the Python object is called, for messages (`Session`).
    what: &'static str,
    _value: PhantomData<fn() -> T>,
}

impl<T: 'static> ThreadBound<T> {
    pub fn new(value: T, what: &'static str) -> ThreadBound<T> {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        KEPT.with(|k| k.borrow_mut().insert(id, Box::new(value)));
        ThreadBound {
            id,
            owner: std::thread::current().id(),
            what,
            _value: PhantomData,
        }
    }

    /// Runs `f` on the value (panics guarded): only on the thread that made it, and not from
    /// inside another call on the same value.
    pub fn with<R>(&self, f: impl FnOnce(&mut T) -> PyResult<R>) -> PyResult<R> {
        if std::thread::current().id() != self.owner {
            return Err(BadInput::new_err(format!(
                "this {} was made on another thread: use it on the thread that made it (make one per thread)",
                self.what
            )));
        }
        // Taken out while it runs, so that the storage is free for other objects' calls.
        let taken = KEPT.with(|k| k.try_borrow_mut().ok().and_then(|mut k| k.remove(&self.id)));
        let Some(mut boxed) = taken else {
            return Err(BadInput::new_err(format!(
                "this {} is busy: it was called from inside one of its own calls",
                self.what
            )));
        };
        let result = match boxed.downcast_mut::<T>() {
            Some(value) => guard(|| f(value)),
            None => Err(InternalError::new_err(format!(
                "internal error: the {} holds another type",
                self.what
            ))),
        };
        KEPT.with(|k| {
            if let Ok(mut k) = k.try_borrow_mut() {
                k.insert(self.id, boxed);
            }
        });
        result
    }
}

impl<T: 'static> Drop for ThreadBound<T> {
    fn drop(&mut self) {
        // Dropped on another thread, the value cannot be reached: it goes when its thread ends.
        if std::thread::current().id() == self.owner {
            let value = KEPT.try_with(|k| k.try_borrow_mut().ok().and_then(|mut k| k.remove(&self.id)));
            drop(value);
        }
    }
}
