//! The text of a string value: either shared behind a reference count (text made while running:
//! inputs, built-in answers) or fixed for the life of the process (a rule file's literals, the
//! built-ins' fixed names such as tiles and suits), which is copied with no count at all.
//!
//! Why: a value is copied into every binding, activation and fact it reaches, and a shared
//! count is an atomic operation each way, ~6 ns on the machines measured. Counting showed
//! ~3,900 of them in one stud seed query (a quarter of its time), most of them on the same few
//! category names and outcome words, and ~1,100 per mahjong decision on tile names. Fixed text
//! costs none.
//!
//! Both kinds are one pointer and one length (16 bytes, as the `Arc<str>` this replaces), the
//! top bit of the length telling them apart, so a value stays 24 bytes.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ptr::NonNull;
use std::sync::{Arc, Mutex, OnceLock};

/// The length bit that marks fixed text (a `str` is never that long).
const FIXED: usize = 1 << (usize::BITS - 1);

/// A string value's text (see the module comment).
pub struct Text {
    /// The first byte: of a `'static` string, or of the data of an `Arc<str>` made by
    /// `Arc::into_raw` (then this `Text` owns one count of it).
    ptr: NonNull<u8>,
    /// The length in bytes, with `FIXED` set for a `'static` string.
    len: usize,
}

// SAFETY: a `Text` is either a `&'static str` or one count of an `Arc<str>`; both are `Send` and
// `Sync`, and a `Text` gives out only shared access to the bytes.
unsafe impl Send for Text {}
unsafe impl Sync for Text {}

impl Text {
    /// Text that lives as long as the process: copied without a count.
    pub fn fixed(s: &'static str) -> Text {
        Text {
            ptr: NonNull::from(s.as_bytes()).cast(),
            len: s.len() | FIXED,
        }
    }

    /// Shared text, counted.
    pub fn shared(s: Arc<str>) -> Text {
        let len = s.len();
        let raw = Arc::into_raw(s) as *const u8 as *mut u8;
        // SAFETY: `Arc::into_raw` never returns null.
        let ptr = unsafe { NonNull::new_unchecked(raw) };
        Text { ptr, len }
    }

    /// The process-wide copy of `s`, made fixed the first time (for text that recurs without
    /// end: a rule file's literals, fixed names). Long texts, and any past a bound on how many are
    /// kept, are shared instead, so no input can make the process keep memory without limit.
    pub fn interned(s: &str) -> Text {
        const MOST: usize = 1 << 16;
        const LONGEST: usize = 256;
        static KEPT: OnceLock<Mutex<std::collections::HashSet<&'static str>>> = OnceLock::new();
        if s.len() > LONGEST {
            return Text::from(s);
        }
        let kept = KEPT.get_or_init(Default::default);
        let Ok(mut kept) = kept.lock() else {
            return Text::from(s);
        };
        if let Some(&known) = kept.get(s) {
            return Text::fixed(known);
        }
        if kept.len() >= MOST {
            return Text::from(s);
        }
        let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
        kept.insert(leaked);
        Text::fixed(leaked)
    }

    fn is_fixed(&self) -> bool {
        self.len & FIXED != 0
    }

    fn byte_len(&self) -> usize {
        self.len & !FIXED
    }

    /// The `Arc<str>` data pointer of shared text.
    fn raw(&self) -> *const str {
        std::ptr::slice_from_raw_parts(self.ptr.as_ptr() as *const u8, self.byte_len()) as *const str
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // SAFETY: `ptr` and the length come from a `str` that outlives `self` (a `'static` one, or
        // an `Arc<str>` of which `self` holds a count).
        unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(self.ptr.as_ptr(), self.byte_len())) }
    }

    /// True if both are the very same text in memory (a cheap sufficient test for equality).
    pub fn ptr_eq(a: &Text, b: &Text) -> bool {
        a.ptr == b.ptr && a.len == b.len
    }
}

impl Clone for Text {
    fn clone(&self) -> Text {
        if !self.is_fixed() {
            // SAFETY: shared text holds a count of a live `Arc<str>` made by `Arc::into_raw`.
            unsafe { Arc::increment_strong_count(self.raw()) };
        }
        Text {
            ptr: self.ptr,
            len: self.len,
        }
    }
}

impl Drop for Text {
    fn drop(&mut self) {
        if !self.is_fixed() {
            // SAFETY: as in `clone`; this gives back the count this `Text` held.
            unsafe { Arc::decrement_strong_count(self.raw()) };
        }
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::shared(Arc::from(s))
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Text {
    #[inline]
    fn eq(&self, other: &Text) -> bool {
        if Text::ptr_eq(self, other) {
            return true;
        }
        let (a, b) = (self.as_str().as_bytes(), other.as_str().as_bytes());
        // Most texts compared are short (a suit letter against the trump, an action name): a
        // length check and a few bytes here, where the slice comparison called `memcmp`.
        a.len() == b.len()
            && match a.len() {
                0..=8 => a.iter().zip(b).all(|(x, y)| x == y),
                _ => a == b,
            }
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Text {
    /// As the `str` hashes: fixed and shared copies of a text are equal and hash alike.
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn hash_of(t: &Text) -> u64 {
        let mut h = DefaultHasher::new();
        t.hash(&mut h);
        h.finish()
    }

    #[test]
    fn fixed_and_shared_copies_of_a_text_are_one_text() {
        let fixed = Text::fixed("full house");
        let shared = Text::from("full house");
        let interned = Text::interned("full house");
        assert_eq!(fixed, shared);
        assert_eq!(shared, interned);
        assert_eq!(hash_of(&fixed), hash_of(&shared));
        assert_eq!(&*interned, "full house");
        assert!(Text::ptr_eq(&Text::interned("full house"), &interned));
        assert!(Text::from("a") < Text::fixed("b"));
        assert_eq!(format!("{fixed:?} {shared}"), "\"full house\" full house");
        assert_eq!(std::mem::size_of::<Text>(), 16);
    }

    #[test]
    fn shared_text_counts_its_copies_and_frees_with_the_last() {
        let arc: Arc<str> = Arc::from("tie");
        let watch = Arc::downgrade(&arc);
        let t = Text::shared(arc);
        let copies: Vec<Text> = (0..5).map(|_| t.clone()).collect();
        assert_eq!(watch.strong_count(), 6);
        drop(copies);
        assert_eq!(watch.strong_count(), 1);
        let moved = std::thread::spawn(move || t.to_string()).join().unwrap();
        assert_eq!(moved, "tie");
        assert!(watch.upgrade().is_none(), "the last copy frees the text");
    }

    #[test]
    fn copies_made_and_dropped_on_several_threads_balance() {
        let arc: Arc<str> = Arc::from("win");
        let watch = Arc::downgrade(&arc);
        let shared = Text::shared(arc);
        let fixed = Text::fixed("loss");
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    let mut kept = Vec::new();
                    for i in 0..10_000 {
                        kept.push((shared.clone(), fixed.clone()));
                        if i % 3 == 0 {
                            kept.pop();
                        }
                    }
                    assert!(kept.iter().all(|(s, f)| &**s == "win" && &**f == "loss"));
                });
            }
        });
        assert_eq!(watch.strong_count(), 1);
        drop(shared);
        assert!(watch.upgrade().is_none());
    }

    #[test]
    fn long_texts_are_not_kept_for_good() {
        let long = "x".repeat(1000);
        let t = Text::interned(&long);
        assert!(!t.is_fixed());
        assert_eq!(&*t, long);
        assert!(Text::interned("").is_fixed());
    }
}
