//! The wall-clock budget of the run on this thread: a deadline that the engine and every long
//! native search poll, so that no query runs past its `--timeout`.
//!
//! A run sets the deadline for as long as it lasts ([`with_deadline`]); a search polls
//! [`expired`] every few thousand nodes and, when it is true, stops with what it has (an
//! "unknown" outcome, a partial estimate) instead of finishing. The deadline is per thread
//! because a query runs on one thread from start to end, and `batch` gives each line its own.

use std::cell::Cell;
use std::time::{Duration, Instant};

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Restores the deadline that was in force before [`with_deadline`] when dropped.
#[must_use = "the deadline lasts only as long as the guard"]
pub struct DeadlineGuard {
    previous: Option<Instant>,
}

impl Drop for DeadlineGuard {
    fn drop(&mut self) {
        DEADLINE.with(|d| d.set(self.previous));
    }
}

/// Sets this thread's deadline to `timeout` from now (an earlier deadline already in force
/// stays: a sub-query never outlives its parent). `None` keeps the one in force.
pub fn with_deadline(timeout: Option<Duration>) -> DeadlineGuard {
    let previous = deadline();
    if let Some(t) = timeout {
        let new = Instant::now().checked_add(t);
        let chosen = match (previous, new) {
            (Some(p), Some(n)) => Some(p.min(n)),
            (p, n) => n.or(p),
        };
        DEADLINE.with(|d| d.set(chosen));
    }
    DeadlineGuard { previous }
}

/// Lifts this thread's deadline while the guard lasts: for work whose cost is fixed and small
/// and whose result is kept for every later run (a shipped rule set compiled once and cached), so
/// that it never fails because the run that happened to ask first ran out of time.
pub fn lifted() -> DeadlineGuard {
    let previous = deadline();
    DEADLINE.with(|d| d.set(None));
    DeadlineGuard { previous }
}

/// Sets this thread's deadline to the instant `at` (an earlier deadline already in force stays),
/// so that work done for a run after it ended (why-not, explanations) shares the run's deadline
/// instead of getting a budget of its own. `None` keeps the one in force.
pub fn with_deadline_at(at: Option<Instant>) -> DeadlineGuard {
    let previous = deadline();
    if let Some(a) = at {
        DEADLINE.with(|d| d.set(Some(previous.map_or(a, |p| p.min(a)))));
    }
    DeadlineGuard { previous }
}

thread_local! {
    static WORK_LEFT: Cell<u64> = const { Cell::new(WORK_BETWEEN_LOOKS) };
}

/// Units of work (facts tried, list elements, solutions) between two looks at the clock: a
/// look costs a clock read, a unit a subtraction.
const WORK_BETWEEN_LOOKS: u64 = 1 << 16;

/// Counts `units` of work done on this thread and, every `WORK_BETWEEN_LOOKS` units, looks at
/// the clock: true once the deadline has passed. Loops whose length the input decides (a join's
/// candidate facts, an `in` over a list) call it once per loop with the loop's length.
#[inline]
pub fn charge(units: usize) -> bool {
    WORK_LEFT.with(|left| {
        let now = left.get().saturating_sub(units as u64);
        if now > 0 {
            left.set(now);
            return false;
        }
        left.set(WORK_BETWEEN_LOOKS);
        expired()
    })
}

/// This thread's deadline, if one is set.
pub fn deadline() -> Option<Instant> {
    DEADLINE.with(|d| d.get())
}

/// True once this thread's deadline has passed or its cancel hook has asked to stop (always
/// false without either).
pub fn expired() -> bool {
    deadline().is_some_and(|d| Instant::now() >= d) || CANCEL.with(|c| c.get()).is_some_and(|hook| hook())
}

thread_local! {
    static CANCEL: Cell<Option<fn() -> bool>> = const { Cell::new(None) };
}

/// Restores the cancel hook that was in force before [`with_cancel`] when dropped.
#[must_use = "the hook lasts only as long as the guard"]
pub struct CancelGuard {
    previous: Option<fn() -> bool>,
}

impl Drop for CancelGuard {
    fn drop(&mut self) {
        CANCEL.with(|c| c.set(self.previous));
    }
}

/// Makes `hook` part of this thread's deadline for as long as the guard lasts: every look at the
/// clock ([`expired`]) also calls it, and once it returns true the run stops as it would at its
/// deadline (with `timeout` and what it has). An embedder's way to stop a run from outside, a
/// Ctrl-C for instance; the hook should be cheap and, once true, stay true.
pub fn with_cancel(hook: fn() -> bool) -> CancelGuard {
    let previous = CANCEL.with(|c| c.replace(Some(hook)));
    CancelGuard { previous }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_lasts_as_long_as_its_guard_and_never_extends_an_earlier_one() {
        assert!(deadline().is_none());
        {
            let _outer = with_deadline(Some(Duration::ZERO));
            assert!(expired());
            {
                let _inner = with_deadline(Some(Duration::from_secs(3600)));
                assert!(expired(), "the inner deadline may not extend the outer one");
            }
            assert!(expired());
        }
        assert!(deadline().is_none());
        assert!(!expired());
        let _long = with_deadline(Some(Duration::from_secs(3600)));
        assert!(!expired());
    }

    #[test]
    fn a_cancel_hook_expires_the_deadline_while_its_guard_lasts() {
        assert!(!expired());
        {
            let _cancel = with_cancel(|| true);
            assert!(expired());
            assert!(charge(usize::MAX), "a charge looks at the clock and the hook");
        }
        assert!(!expired());
        let _never = with_cancel(|| false);
        assert!(!expired());
    }
}
