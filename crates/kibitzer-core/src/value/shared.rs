//! `Shared<T>`: the reference-counted pointer behind a value's card group or list, counted without
//! atomic operations when it never leaves the thread that made it.
//!
//! Why: a card group is copied into every binding, activation, fact and what-if input it reaches,
//! and with `Arc` each copy and each drop is a `lock`-prefixed operation (~6 ns): in a stud query
//! that is a fifth of the time, nearly all of it on the hands `stud.deals` makes
//! (`docs/performance.md`).
//!
//! A group (or list) is either **frozen** or **local**:
//! * frozen ([`Shared::new`], [`Shared::freeze`]): counted with atomic operations, like an `Arc`.
//!   Everything a compiled rule set holds (literals, parameters, input defaults) is frozen, and a
//!   `Program` is shared by the threads of `kibitzer batch`.
//! * local ([`Shared::local`], [`Shared::local_slice`]): counted with plain loads and stores. Made
//!   while a query runs (`stud.deals`, `durak.without`, a list a rule builds), for values that
//!   live in that query's session.
//!
//! Soundness rests on the type system: `Shared` (hence `Value`) is neither `Send` nor `Sync`, so no
//! local group can reach another thread except through an `unsafe impl`. There are two for
//! values: [`Constant`]'s, which freezes its value on the way in (what a `Program` holds, which
//! makes a program `Send + Sync` with no impl of its own), and [`Frozen`]'s, for static tables,
//! which checks that its values are frozen. (`value::text::Text` has the third, for its bytes
//! only.) The mode is the top bit of the count; a local group becomes frozen only on the one
//! thread that can reach it, and a frozen group's bit never changes, so reading it is never racy.

use super::Value;
use smallvec::SmallVec;
use std::alloc::Layout;
use std::marker::PhantomData;
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::{fence, AtomicUsize, Ordering};

/// The count's top bit: set for a frozen (atomically counted) group.
const FROZEN: usize = 1 << (usize::BITS - 1);
/// More copies than this abort the process, as `Arc` does (a count must never reach `FROZEN`).
const MOST: usize = FROZEN >> 1;

/// `repr(C)`: a list's allocation is laid out by hand (`local_slice`), count first.
#[repr(C)]
struct Inner<T: ?Sized> {
    /// Copies alive, with `FROZEN` for a frozen group. Atomic for both modes, so that reading the
    /// mode bit is defined behaviour; a local group's count is read and written with plain moves.
    count: AtomicUsize,
    value: T,
}

/// A shared, immutable `T` (see the module comment).
pub struct Shared<T: ?Sized> {
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
}

impl<T> Shared<[T]> {
    /// A local list of `items` (frozen, if need be, with its items by `Value::frozen`).
    ///
    /// One allocation: the count, then the items. An iterator that says exactly how many items it
    /// has (and has more than fit inline) has them written straight into the allocation; any
    /// other is gathered inline first, since the allocation's size must be exact. Gathering a
    /// long list (a position's hundred seen tiles) spilled to the heap and grew it four times.
    pub fn local_slice(items: impl IntoIterator<Item = T>) -> Shared<[T]> {
        const INLINE: usize = 8;
        let mut iter = items.into_iter();
        let mut gathered: SmallVec<[T; INLINE]> = match iter.size_hint() {
            (n, Some(most)) if n == most && n > INLINE => match Shared::write_exact(n, &mut iter) {
                Ok(list) => return list,
                // The iterator broke its word: what it gave so far, then the rest.
                Err(given) => given,
            },
            _ => SmallVec::new(),
        };
        gathered.extend(iter);
        let n = gathered.len();
        let (mem, items) = Shared::<[T]>::allocate(n);
        // SAFETY: `items` has room for `n` items; they are moved (bit-copied, then forgotten by
        // `set_len(0)`), and all `n` are written before `finish` makes the pointer.
        unsafe {
            std::ptr::copy_nonoverlapping(gathered.as_ptr(), items, n);
            gathered.set_len(0);
            Shared::finish(mem, n)
        }
    }

    /// The list of the next `n` items of `iter`, written into its allocation as they come; the
    /// items taken, gathered, if `iter` has fewer or more than `n` (the allocation is freed).
    /// A panic in `iter` leaks the allocation and the items written, nothing worse.
    fn write_exact(n: usize, iter: &mut impl Iterator<Item = T>) -> Result<Shared<[T]>, SmallVec<[T; 8]>> {
        let (mem, items) = Shared::<[T]>::allocate(n);
        let mut written = 0;
        while written < n {
            let Some(item) = iter.next() else { break };
            // SAFETY: `written < n`, inside the room `allocate` made.
            unsafe { items.add(written).write(item) };
            written += 1;
        }
        // SAFETY (both arms): the first `written` slots hold items, moved out exactly once here
        // or kept by the list; `mem` was made by `allocate(n)` with that very `n`.
        unsafe {
            if written == n {
                if let Some(extra) = iter.next() {
                    let mut given: SmallVec<[T; 8]> = (0..n).map(|i| items.add(i).read()).collect();
                    given.push(extra);
                    Shared::<[T]>::free(mem, n);
                    return Err(given);
                }
                Ok(Shared::finish(mem, n))
            } else {
                let given = (0..written).map(|i| items.add(i).read()).collect();
                Shared::<[T]>::free(mem, n);
                Err(given)
            }
        }
    }

    /// The layout of a list of `n` items (`Inner<[T]>`, `repr(C)`: the count at 0, the items at
    /// the offset returned, the size padded to the alignment — what `Layout::for_value` gives
    /// back when `Box::from_raw` frees it).
    fn layout(n: usize) -> (Layout, usize) {
        // A list whose layout overflows could not be built anyway.
        let array = Layout::array::<T>(n).unwrap_or_else(|_| std::process::abort());
        let (layout, offset) = Layout::new::<AtomicUsize>()
            .extend(array)
            .unwrap_or_else(|_| std::process::abort());
        (layout.pad_to_align(), offset)
    }

    /// Room for a list of `n` items, its count already written (1, local): the allocation and
    /// where its items go.
    fn allocate(n: usize) -> (*mut u8, *mut T) {
        let (layout, offset) = Shared::<[T]>::layout(n);
        // SAFETY: the layout's size is at least that of the count, so never zero; the count is
        // written inside it, at offset 0 (`repr(C)`).
        unsafe {
            let mem = std::alloc::alloc(layout);
            if mem.is_null() {
                std::alloc::handle_alloc_error(layout);
            }
            mem.cast::<AtomicUsize>().write(AtomicUsize::new(1));
            (mem, mem.add(offset).cast::<T>())
        }
    }

    /// Frees room made by `allocate(n)` whose items were moved out (or never written).
    ///
    /// # Safety
    /// `mem` came from `allocate(n)` with this `n` and is freed once.
    unsafe fn free(mem: *mut u8, n: usize) {
        // SAFETY: `mem` was allocated with this layout (the caller's contract) and is freed once.
        // Not a new site: the free this module always did, in a block of its own as the lint asks.
        unsafe { std::alloc::dealloc(mem, Shared::<[T]>::layout(n).0) };
    }

    /// The list in room made by `allocate(n)`.
    ///
    /// # Safety
    /// `mem` came from `allocate(n)` with this `n`, and all `n` items are written.
    unsafe fn finish(mem: *mut u8, n: usize) -> Shared<[T]> {
        let fat = std::ptr::slice_from_raw_parts_mut(mem.cast::<T>(), n) as *mut Inner<[T]>;
        // `allocate` never gives a null pointer; checked all the same, as it costs nothing here.
        let ptr = NonNull::new(fat).unwrap_or_else(|| std::alloc::handle_alloc_error(Shared::<[T]>::layout(n).0));
        Shared {
            ptr,
            _owns: PhantomData,
        }
    }
}

impl<T: ?Sized> Shared<T> {
    fn inner(&self) -> &Inner<T> {
        // SAFETY: `ptr` came from `Box::leak` and stays allocated while any copy (this one
        // included) is alive.
        unsafe { self.ptr.as_ref() }
    }

    /// True if both are copies of the same group.
    pub fn ptr_eq(a: &Shared<T>, b: &Shared<T>) -> bool {
        std::ptr::addr_eq(a.ptr.as_ptr(), b.ptr.as_ptr())
    }

    /// The group's address: the same for every copy, for a walk that visits each group once.
    pub fn addr(this: &Shared<T>) -> usize {
        this.ptr.as_ptr() as *const u8 as usize
    }

    /// Makes a local group frozen (counted atomically from now on), so a `Program` may hold it.
    /// Sound on any group this thread can reach: a local one is reachable from this thread only,
    /// and a frozen one is left as it is.
    pub fn freeze(this: &Shared<T>) {
        let count = &this.inner().count;
        let n = count.load(Ordering::Relaxed);
        if n & FROZEN == 0 {
            count.store(n | FROZEN, Ordering::Relaxed);
        }
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

impl<T: ?Sized> Clone for Shared<T> {
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

impl<T: ?Sized> Shared<T> {
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

impl<T: ?Sized> Drop for Shared<T> {
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

impl<T: ?Sized> Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.inner().value
    }
}

impl<T: ?Sized> AsRef<T> for Shared<T> {
    fn as_ref(&self) -> &T {
        self
    }
}

impl<T: ?Sized + std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        T::fmt(self, f)
    }
}

impl<T: ?Sized + std::fmt::Display> std::fmt::Display for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        T::fmt(self, f)
    }
}

impl<T: ?Sized + PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Shared::ptr_eq(self, other) || **self == **other
    }
}

impl<T: ?Sized + Eq> Eq for Shared<T> {}

impl<T: ?Sized + std::hash::Hash> std::hash::Hash for Shared<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        T::hash(self, state)
    }
}

/// A static table of values other threads may read (suit letters, tile names): a list or an array
/// of values, all frozen (checked when wrapped), so sharing it is as safe as sharing `Arc`s.
pub struct Frozen<T>(T);

/// The tables a `Frozen` may hold: values only (sealed: no other type can be added outside).
mod table {
    pub trait Table: AsRef<[super::Value]> {}
    impl Table for Vec<super::Value> {}
    impl<const N: usize> Table for [super::Value; N] {}
}

impl<T: table::Table> Frozen<T> {
    /// Wraps `values`, every one of which must be frozen (a programming error otherwise: the
    /// tables wrapped are built from fixed text, never from a query's values).
    pub fn new(values: T) -> Frozen<T> {
        assert!(
            values.as_ref().iter().all(Value::is_frozen),
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

// SAFETY: a `Frozen` is made only by `new`, of values only, every card group and list in them
// frozen (checked), hence counted with atomic operations like an `Arc`; the other parts of a value
// are `Send` and `Sync`.
unsafe impl<T: table::Table> Send for Frozen<T> {}
// SAFETY: as for `Send`.
unsafe impl<T: table::Table> Sync for Frozen<T> {}

/// A value threads may share: a rule set's literal, parameter or default. Made only by freezing
/// (every card group and list in it counted atomically), so whatever holds constants is `Send` and
/// `Sync` by construction, while a `Value` a query makes stays on its thread:
///
/// ```compile_fail
/// fn shared_by_threads<T: Send + Sync>(_: T) {}
/// shared_by_threads(kibitzer_core::value::Value::list([kibitzer_core::value::Value::Int(1)])); // a query's value: not shareable
/// ```
///
/// ```
/// fn shared_by_threads<T: Send + Sync>(_: T) {}
/// let local = kibitzer_core::value::Value::list([kibitzer_core::value::Value::Int(1)]);
/// shared_by_threads(kibitzer_core::value::Constant::new(local)); // frozen on the way in
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Constant(Value);

impl Constant {
    /// `value`, frozen.
    pub fn new(value: Value) -> Constant {
        Constant(value.frozen())
    }

    /// The value itself.
    pub fn value(&self) -> &Value {
        &self.0
    }
}

impl std::fmt::Display for Constant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl Deref for Constant {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.0
    }
}

// Why unsafe: values count card groups without atomics where they can (a fifth of a stud seed
// query went to atomic counts, see the module comment), so `Value` is not `Send`; this marks the
// one kind that is. SAFETY: a `Constant` is made only by `new`, which freezes every card group and list in the
// value (counted with atomic operations like an `Arc`); its field is private and it hands out
// shared references only; the other parts of a value are `Send` and `Sync`.
unsafe impl Send for Constant {}
// SAFETY: as for `Send`.
unsafe impl Sync for Constant {}

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
    fn a_list_holds_its_items_and_drops_them_with_its_last_copy() {
        for local in [false, true] {
            let drops = Rc::new(std::cell::Cell::new(0));
            let items = (0..11).map(|_| Watched(drops.clone()));
            let list = Shared::local_slice(items);
            if !local {
                Shared::freeze(&list);
            }
            assert_eq!((list.len(), Shared::is_frozen(&list)), (11, !local));
            let copy = list.clone();
            drop(list);
            assert_eq!((Shared::count(&copy), drops.get()), (1, 0));
            drop(copy);
            assert_eq!(drops.get(), 11, "local: {local}");
        }
        let empty: Shared<[String]> = Shared::local_slice([]);
        assert!(empty.is_empty());
        let units = Shared::local_slice([(); 5]);
        assert_eq!(units.len(), 5);
        let wide = Shared::local_slice([1u128, 2, 3]);
        assert_eq!(&wide[..], &[1, 2, 3]);
    }

    /// An iterator that claims exactly `claimed` items and yields `actual`.
    struct Liar {
        claimed: usize,
        actual: std::ops::Range<u32>,
    }

    impl Iterator for Liar {
        type Item = String;
        fn next(&mut self) -> Option<String> {
            self.actual.next().map(|i| i.to_string())
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (self.claimed, Some(self.claimed))
        }
    }

    #[test]
    fn a_list_is_written_in_place_or_gathered_and_holds_what_its_iterator_gave() {
        // Exact and long (written in place), short and long (gathered), and iterators that give
        // fewer or more items than they claim: each list holds exactly the items given.
        for (claimed, actual) in [(20, 20), (3, 3), (20, 12), (20, 3), (20, 31), (9, 9), (9, 10), (9, 0)] {
            let list = Shared::local_slice(Liar {
                claimed,
                actual: 0..actual,
            });
            let expected: Vec<String> = (0..actual).map(|i| i.to_string()).collect();
            assert_eq!(&list[..], &expected[..], "claimed {claimed}, gave {actual}");
        }
        let drops = Rc::new(std::cell::Cell::new(0));
        let list = Shared::local_slice((0..40).map(|_| Watched(drops.clone())));
        assert_eq!((list.len(), drops.get()), (40, 0));
        drop(list);
        assert_eq!(drops.get(), 40);
    }

    #[test]
    fn a_frozen_group_keeps_its_count_and_stays_frozen() {
        let local = Shared::local(7);
        let copy = local.clone();
        Shared::freeze(&copy);
        assert!(Shared::is_frozen(&local));
        assert_eq!(Shared::count(&local), 2);
        Shared::freeze(&local);
        drop(copy);
        assert_eq!((Shared::count(&local), *local), (1, 7));
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
        let frozen = Value::Cards(Shared::new(Cards::new([], 0)));
        let local = Value::Cards(Shared::local(Cards::new([], 0)));
        assert!(frozen.is_frozen() && !local.is_frozen());
        assert!(!Value::list([Value::Int(1), local.clone()]).is_frozen());
        let table = Frozen::new(vec![frozen, Value::fixed("x")]);
        assert_eq!(table.len(), 2);
        let unfit = local.clone();
        assert!(std::panic::catch_unwind(|| Frozen::new([unfit])).is_err());
        let nested = Value::list([Value::list([local.clone()])]).frozen();
        assert!(nested.is_frozen() && local.is_frozen(), "frozen to the bottom");
    }
}
