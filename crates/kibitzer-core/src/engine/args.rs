//! A built-in's argument list that lends the values it names instead of copying them.
//!
//! Why: a built-in takes its arguments as one slice of values, so a call such as
//! `durak.rank_value(rank_values, ?c)` or `count_suit(?h, ?s)` would copy each argument into a
//! fresh list — for a list or card group, an atomic increment of its shared count, and an atomic
//! decrement when the list is dropped after the call — only for the built-in to read them. Here an
//! argument that already exists (a bound variable, a parameter, a constant) is lent: the list
//! holds a bitwise copy that is never dropped, valid while the original is borrowed. Only an
//! argument computed for the call is owned, and dropped with the list.

use crate::value::Value;
use smallvec::SmallVec;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;

/// Arguments lent from values that outlive `'a`, or owned.
pub struct Args<'a> {
    items: SmallVec<[ManuallyDrop<Value>; 4]>,
    /// Bit `k`: item `k` is owned (dropped with the list). Items past the 64th are always owned.
    owned: u64,
    lent: PhantomData<&'a Value>,
}

impl<'a> Args<'a> {
    pub fn new() -> Args<'a> {
        Args {
            items: SmallVec::new(),
            owned: 0,
            lent: PhantomData,
        }
    }

    /// Appends `v` without copying it: the list reads it in place while `'a` lasts.
    #[inline(always)]
    pub fn lend(&mut self, v: &'a Value) {
        if self.items.len() >= 64 {
            return self.own(v.clone());
        }
        // SAFETY: the copy is never dropped (`ManuallyDrop`, and `owned` has no bit for it) and
        // is only ever read through `as_slice`, as a shared borrow no longer than `'a`, during
        // which `v` itself is borrowed and so neither moved, changed nor dropped: the copy is as
        // good as `&'a Value`. (A `Value` changes in place only through `&mut`; a built-in that
        // clones the lent value raises the count the original points to, atomically for a frozen
        // group and plainly for a local one, which is on this thread, as `Value` is not `Send`.)
        self.items.push(ManuallyDrop::new(unsafe { std::ptr::read(v) }));
    }

    /// Appends `v`, owned by the list.
    #[inline(always)]
    pub fn own(&mut self, v: Value) {
        let k = self.items.len();
        if k < 64 {
            self.owned |= 1 << k;
        }
        self.items.push(ManuallyDrop::new(v));
    }

    /// The arguments, in order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Value] {
        let items: &[ManuallyDrop<Value>] = &self.items;
        // SAFETY: `ManuallyDrop<Value>` is `repr(transparent)` over `Value`: same size, alignment
        // and layout, so the slice reinterprets element for element.
        unsafe { &*(items as *const [ManuallyDrop<Value>] as *const [Value]) }
    }
}

impl Default for Args<'_> {
    fn default() -> Self {
        Args::new()
    }
}

impl Drop for Args<'_> {
    fn drop(&mut self) {
        for (k, item) in self.items.iter_mut().enumerate() {
            if k >= 64 || self.owned >> k & 1 == 1 {
                // SAFETY: item `k` is owned by the list (its bit is set, or it is past the 64th,
                // which `lend` never leaves lent) and is dropped here once, the list going away.
                unsafe { ManuallyDrop::drop(item) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Shared;

    /// Lent values are read in place and their shared counts untouched; owned ones are dropped
    /// with the list; a built-in cloning a lent value counts its clone; past 64 items every
    /// argument is owned.
    #[test]
    fn lent_arguments_are_read_in_place_and_owned_ones_dropped() {
        let list = Value::list([1, 2, 3].map(Value::Int));
        let Value::List(shared) = &list else { unreachable!() };
        let owned = Shared::local_slice([Value::Int(7)]);
        {
            let mut args = Args::new();
            args.lend(&list);
            args.own(Value::List(owned.clone()));
            args.lend(&list);
            assert_eq!(Shared::count(shared), 1, "lending copies no count");
            assert_eq!(Shared::count(&owned), 2);
            let slice = args.as_slice();
            assert_eq!(slice.len(), 3);
            assert_eq!(slice[0], list);
            assert_eq!(slice[1], Value::List(owned.clone()));
            let kept = slice[2].clone();
            assert_eq!(Shared::count(shared), 2, "a clone of a lent value is counted");
            drop(kept);
        }
        assert_eq!(Shared::count(shared), 1, "the lent value is not dropped with the list");
        assert_eq!(Shared::count(&owned), 1, "the owned value is dropped with the list");

        let many: Vec<Value> = (0..70).map(|_| list.clone()).collect();
        assert_eq!(Shared::count(shared), 71);
        {
            let mut args = Args::new();
            for v in &many {
                args.lend(v);
            }
            assert_eq!(args.as_slice().len(), 70);
            assert_eq!(Shared::count(shared), 77, "the six past the 64th are copies");
        }
        assert_eq!(Shared::count(shared), 71);
    }
}
