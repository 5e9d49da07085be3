//! Rule variants: which optional combinations are allowed.

/// The optional combinations of `docs/doudizhu.md`; every other combination (single, pair, trio,
/// straight, bomb, rocket) is always allowed.
///
/// Airplanes with wings need both switches: `airplanes` and `three_one` (single wings) or
/// `three_two` (pair wings), since an airplane's wings extend the trio's kicker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Trio with one single (`3 3 3 4`).
    pub three_one: bool,
    /// Trio with one pair (`3 3 3 4 4`).
    pub three_two: bool,
    /// Four with two singles or with two pairs.
    pub four_two: bool,
    /// Chains of three or more consecutive pairs.
    pub pair_chains: bool,
    /// Chains of two or more consecutive trios (bare or with wings).
    pub airplanes: bool,
}

impl Default for Rules {
    /// Standard rules: everything allowed (the move set of RLCard).
    fn default() -> Rules {
        Rules {
            three_one: true,
            three_two: true,
            four_two: true,
            pair_chains: true,
            airplanes: true,
        }
    }
}

impl Rules {
    /// Standard rules (same as `Default`).
    pub fn standard() -> Rules {
        Rules::default()
    }

    /// The original repository's rules: trio+single and four+two on, trio+pair off, no pair
    /// chains, no airplanes.
    pub fn original() -> Rules {
        Rules {
            three_one: true,
            three_two: false,
            four_two: true,
            pair_chains: false,
            airplanes: false,
        }
    }
}
