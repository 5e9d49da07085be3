//! Binomial coefficients and the combinatorial number system used to index card subsets.

/// `binomial(n, k)` for the sizes stud needs (n ≤ 64, k ≤ 5 give exact u64; larger k works too).
pub(super) fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

/// Index of a strictly increasing subset `x_0 < x_1 < …` among all subsets of its size:
/// `Σ C(x_i, i + 1)` (combinatorial number system), a bijection onto `0..C(n, size)`.
pub(super) struct SubsetIndexer {
    /// `table[x][i] = C(x, i + 1)`.
    table: Vec<[u32; 5]>,
    /// `offsets[j]` = first slot of the subsets of size j, so all sizes share one flat array.
    offsets: [usize; 7],
}

impl SubsetIndexer {
    /// Indexes subsets of size `0..=max_size` (≤ 5) of `0..n`.
    pub(super) fn new(n: usize, max_size: usize) -> SubsetIndexer {
        let table = (0..n.max(1))
            .map(|x| std::array::from_fn(|i| binomial(x, i + 1) as u32))
            .collect();
        let mut offsets = [0usize; 7];
        for j in 1..7 {
            let previous = if j - 1 <= max_size {
                binomial(n, j - 1) as usize
            } else {
                0
            };
            offsets[j] = offsets[j - 1] + previous;
        }
        SubsetIndexer { table, offsets }
    }

    /// Total slots for all sizes up to `max_size`.
    pub(super) fn slots(&self) -> usize {
        self.offsets[6]
    }

    /// Calls `visit(slot, size)` for every subset of `members` (strictly increasing) with at most
    /// `max_size` members, without scanning all `2^members.len()` masks.
    pub(super) fn for_each_subset(&self, members: &[u8], max_size: usize, visit: &mut impl FnMut(usize, usize)) {
        self.subsets_from(members, max_size.min(5), 0, 0, 0, visit);
    }

    fn subsets_from(
        &self,
        members: &[u8],
        max_size: usize,
        first: usize,
        size: usize,
        index: usize,
        visit: &mut impl FnMut(usize, usize),
    ) {
        visit(self.offsets[size] + index, size);
        if size == max_size {
            return;
        }
        for (i, &x) in members.iter().enumerate().skip(first) {
            let index = index + self.table[usize::from(x)][size] as usize;
            self.subsets_from(members, max_size, i + 1, size + 1, index, visit);
        }
    }

    /// Slot of the subset of `members` picked by `mask` (members strictly increasing, < n).
    #[inline]
    pub(super) fn slot(&self, members: &[u8], mask: u32) -> usize {
        let mut size = 0usize;
        let mut index = 0usize;
        for (i, &x) in members.iter().enumerate() {
            if mask & (1 << i) != 0 {
                index += self.table[usize::from(x)][size] as usize;
                size += 1;
            }
        }
        self.offsets[size] + index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(52, 5), 2_598_960);
        assert_eq!(binomial(49, 3), 18_424);
        assert_eq!(binomial(46, 4), 163_185);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn subset_slots_are_a_bijection() {
        let n = 9;
        let indexer = SubsetIndexer::new(n, 3);
        let mut seen = vec![false; indexer.slots()];
        for mask in 0u32..(1 << n) {
            if mask.count_ones() > 3 {
                continue;
            }
            let members: Vec<u8> = (0..n as u8).collect();
            let slot = indexer.slot(&members, mask);
            assert!(!seen[slot], "slot {slot} used twice");
            seen[slot] = true;
        }
        assert!(seen.iter().all(|&s| s));
        // The direct walk visits the same slots as the masks.
        let members: Vec<u8> = vec![1, 4, 5, 8];
        let mut walked = Vec::new();
        indexer.for_each_subset(&members, 3, &mut |slot, _| walked.push(slot));
        let mut masked: Vec<usize> = (0u32..16)
            .filter(|m| m.count_ones() <= 3)
            .map(|m| indexer.slot(&members, m))
            .collect();
        walked.sort_unstable();
        masked.sort_unstable();
        assert_eq!(walked, masked);
    }
}
