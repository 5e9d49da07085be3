//! Ctrl-C during a long call: the call's thread looks at Python's signals every few
//! milliseconds, from the engine's own polls of its deadline (the library's cancel hook, which
//! knows nothing of Python), lets other Python threads run at each look, and a signal handler
//! that raises (`KeyboardInterrupt`) stops the call as a deadline would and raises in its place.

use pyo3::prelude::*;
use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

/// How often, at most, a call looks at Python's signals (a look takes the GIL).
const LOOK_EVERY: Duration = Duration::from_millis(20);

thread_local! {
    /// The exception a signal handler raised during this thread's call, until the call returns.
    static RAISED: RefCell<Option<PyErr>> = const { RefCell::new(None) };
    /// When this thread's call may next look at the signals.
    static NEXT_LOOK: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// The cancel hook: true once a signal handler has raised during this call. Every
/// [`LOOK_EVERY`] it takes the GIL (if the call let go of it), lets other threads have it for a
/// moment and runs the pending signal handlers.
fn signalled() -> bool {
    if RAISED.with(|r| r.borrow().is_some()) {
        return true;
    }
    let now = Instant::now();
    if NEXT_LOOK.with(|n| n.get()).is_some_and(|next| now < next) {
        return false;
    }
    NEXT_LOOK.with(|n| n.set(Some(now + LOOK_EVERY)));
    let raised = Python::attach(|py| {
        py.detach(std::thread::yield_now);
        py.check_signals().err()
    });
    match raised {
        Some(e) => {
            RAISED.with(|r| *r.borrow_mut() = Some(e));
            true
        }
        None => false,
    }
}

/// Runs a long call so that Ctrl-C (any signal whose handler raises) stops it: the engine and the
/// native searches stop at their next look at the deadline, and the handler's exception is
/// raised instead of the call's result. `f` may let go of the GIL (`py.detach`) or keep it.
pub fn interruptible<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    let outer = RAISED.with(|r| r.borrow_mut().take());
    let _hook = kibitzer::with_cancel(signalled);
    NEXT_LOOK.with(|n| n.set(None));
    let result = f();
    let raised = RAISED.with(|r| std::mem::replace(&mut *r.borrow_mut(), outer));
    match raised {
        Some(e) => Err(e),
        None => result,
    }
}
