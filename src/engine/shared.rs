//! `Shared<T>`: the reference-counted pointer behind a value's card group, counted without atomic
//! operations when the group never leaves the thread that made it.
//!
//! Why: a card group is copied into every binding, activation, fact and what-if input it reaches,
//! and with `Arc` each copy and each drop was a `lock`-prefixed operation, ~6 ns on the machines
//! measured. Sampling a stud seed query found a fifth of its time on the instruction after one
//! (`docs/performance.md`, fourteenth session), nearly all of it on the hands `stud.deals` makes.
//!
//! A group is either **frozen** or **local**, fixed by how it was made:
//! * frozen ([`Shared::new`]): counted with atomic operations, like an `Arc`. Everything a
//!   compiled rule set holds (literals, parameters, input defaults) is frozen, and a `Program` is
//!   shared by the threads of `kibitzer batch`.
//! * local ([`Shared::local`]): counted with plain loads and stores. Made only by built-ins while a
//!   query runs (`stud.deals`, `durak.without`, …), for groups that live in that query's session.
//!
//! Soundness rests on the type system: `Shared` (hence `Value`) is neither `Send` nor `Sync`, so no
//! local group can reach another thread except through an `unsafe impl`. There are two:
//! `Program`'s, whose values are all frozen (it is built from the rule file's text before any query
//! runs, and nothing makes a local group there), and [`Frozen`]'s, for static tables, which checks
//! that its values are frozen. The mode is the top bit of the count, set when the group is made
//! and never changed, so reading it is never racy.

use std::marker::PhantomData;
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{fence, AtomicUsize, Ordering};

/// The count's top bit: set for a frozen (atomically counted) group.
const FROZEN: usize = 1 << (usize::BITS - 1);
/// More copies than this abort the process, as `Arc` does (a count must never reach `FROZEN`).
const MOST: usize = FROZEN >> 1;

struct Inner<T> {
    /// Copies alive, with `FROZEN` for a frozen group. Atomic for both modes, so that reading the
    /// mode bit is defined behaviour; a local group's count is read and written with plain moves.
    count: AtomicUsize,
    value: T,
}

/// A shared, immutable `T` (see the module comment).
pub struct Shared<T> {
    ptr: NonNull<Inner<T>>,
    /// Owns an `Inner<T>`; the raw pointer also makes `Shared` neither `Send` nor `Sync`.
    _owns: PhantomData<Inner<T>>,
}

impl<T> Shared<T> {
    /// A frozen group: may be shared by threads (through a `Program`).
    pub fn new(value: T) -> Shared<T> {
        Shared::with_count(value, FROZEN | 1)
    }

    /// A local group: counted without atomic operations. For values made while a query runs.
    pub fn local(value: T) -> Shared<T> {
        Shared::with_count(value, 1)
    }

    fn with_count(value: T, count: usize) -> Shared<T> {
        let inner = Box::new(Inner {
            count: AtomicUsize::new(count),
            value,
        });
        Shared {
            ptr: NonNull::from(Box::leak(inner)),
            _owns: PhantomData,
        }
    }

    fn inner(&self) -> &Inner<T> {
        // SAFETY: `ptr` came from `Box::leak` and stays allocated while any copy (this one
        // included) is alive.
        unsafe { self.ptr.as_ref() }
    }

    /// True if both are copies of the same group.
    pub fn ptr_eq(a: &Shared<T>, b: &Shared<T>) -> bool {
        a.ptr == b.ptr
    }

    /// True for a frozen group.
    pub fn is_frozen(this: &Shared<T>) -> bool {
        this.inner().count.load(Ordering::Relaxed) & FROZEN != 0
    }

    /// How many copies are alive (for tests).
    pub fn count(this: &Shared<T>) -> usize {
        this.inner().count.load(Ordering::Relaxed) & !FROZEN
    }
}

impl<T> Clone for Shared<T> {
    /// Local: a plain increment, inline (it is on every copied binding). Frozen: out of line.
    #[inline(always)]
    fn clone(&self) -> Shared<T> {
        let count = &self.inner().count;
        let n = count.load(Ordering::Relaxed);
        if n & FROZEN == 0 && n < MOST {
            // Local: only this thread can reach the group (see the module comment).
            count.store(n + 1, Ordering::Relaxed);
        } else {
            self.count_frozen_copy();
        }
        Shared {
            ptr: self.ptr,
            _owns: PhantomData,
        }
    }
}

impl<T> Shared<T> {
    /// The rest of `clone`: one more copy of a frozen group (or of a local one past `MOST`).
    #[inline(never)]
    fn count_frozen_copy(&self) {
        let count = &self.inner().count;
        let n = count.load(Ordering::Relaxed);
        let before = if n & FROZEN == 0 {
            count.store(n + 1, Ordering::Relaxed);
            n
        } else {
            count.fetch_add(1, Ordering::Relaxed) & !FROZEN
        };
        if before >= MOST {
            std::process::abort();
        }
    }

    /// The rest of `drop`: a frozen group's copy, or a local group's last.
    #[inline(never)]
    fn drop_slow(&mut self) {
        let count = &self.inner().count;
        let last = if count.load(Ordering::Relaxed) & FROZEN == 0 {
            true
        } else if count.fetch_sub(1, Ordering::Release) == FROZEN | 1 {
            // As `Arc`: every other copy's use of the value happens before the free.
            fence(Ordering::Acquire);
            true
        } else {
            false
        };
        if last {
            // SAFETY: the last copy: nothing else points at the allocation `Box::leak` made.
            drop(unsafe { Box::from_raw(self.ptr.as_ptr()) });
        }
    }
}

impl<T> Drop for Shared<T> {
    /// Local and not the last copy: a plain decrement, inline. Otherwise out of line.
    #[inline(always)]
    fn drop(&mut self) {
        let count = &self.inner().count;
        let n = count.load(Ordering::Relaxed);
        if n & FROZEN == 0 && n > 1 {
            count.store(n - 1, Ordering::Relaxed);
        } else {
            self.drop_slow();
        }
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.inner().value
    }
}

impl<T> AsRef<T> for Shared<T> {
    fn as_ref(&self) -> &T {
        self
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        T::fmt(self, f)
    }
}

impl<T: std::fmt::Display> std::fmt::Display for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        T::fmt(self, f)
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Shared::ptr_eq(self, other) || **self == **other
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: std::hash::Hash> std::hash::Hash for Shared<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        T::hash(self, state)
    }
}

/// Values other threads may read: a static table, a compiled rule set's constants. Made only of
/// frozen parts (checked when wrapped), so sharing them is as safe as sharing `Arc`s.
pub struct Frozen<T>(T);

impl<T: AsRef<[super::value::Value]>> Frozen<T> {
    /// Wraps `values`, every one of which must be frozen (a programming error otherwise: the
    /// tables wrapped are built from fixed text, never from a query's values).
    pub fn new(values: T) -> Frozen<T> {
        assert!(
            values.as_ref().iter().all(super::value::Value::is_frozen),
            "a value shared by threads must be frozen"
        );
        Frozen(values)
    }
}

impl<T> Deref for Frozen<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

// SAFETY: every card group a `Frozen` holds is frozen (checked by `Frozen::new`), hence counted
// with atomic operations like an `Arc`; the other parts of a value are `Send` and `Sync`.
unsafe impl<T> Send for Frozen<T> {}
// SAFETY: as for `Send`.
unsafe impl<T> Sync for Frozen<T> {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    /// Counts its drops in a shared cell, to see when a group's value is dropped.
    struct Watched(Rc<std::cell::Cell<u32>>);

    impl Drop for Watched {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    #[test]
    fn a_group_is_dropped_with_its_last_copy_in_either_mode() {
        for local in [false, true] {
            let drops = Rc::new(std::cell::Cell::new(0));
            let made = Watched(drops.clone());
            let a = if local { Shared::local(made) } else { Shared::new(made) };
            assert_eq!(Shared::is_frozen(&a), !local);
            let b = a.clone();
            let c = b.clone();
            assert_eq!(Shared::count(&a), 3);
            assert!(Shared::ptr_eq(&a, &c));
            drop(a);
            drop(c);
            assert_eq!((Shared::count(&b), drops.get()), (1, 0));
            drop(b);
            assert_eq!(drops.get(), 1, "local: {local}");
        }
    }

    #[test]
    fn equal_contents_are_equal_groups() {
        let a = Shared::local(vec![1, 2]);
        let b = Shared::new(vec![1, 2]);
        let c = Shared::new(vec![2, 1]);
        assert_eq!(a, b);
        assert_ne!(b, c);
        assert_eq!(*a, vec![1, 2]);
    }

    #[test]
    fn only_frozen_values_may_be_shared_by_threads() {
        use crate::cards::Cards;
        use crate::engine::value::Value;
        let frozen = Value::Cards(Shared::new(Cards::new([], 0)));
        let local = Value::Cards(Shared::local(Cards::new([], 0)));
        assert!(frozen.is_frozen() && !local.is_frozen());
        assert!(!Value::list([Value::Int(1), local.clone()]).is_frozen());
        let table = Frozen::new(vec![frozen, Value::fixed("x")]);
        assert_eq!(table.len(), 2);
        assert!(std::panic::catch_unwind(|| Frozen::new([local])).is_err());
    }
}
