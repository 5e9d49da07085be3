//! The native players: the reference the rule sets are checked against.
//!
//! - [`RandomPlayer`]: wins whenever it can, otherwise discards a random tile; never calls.
//! - [`ReferencePlayer`]: the reference bot made exact (`docs/mahjong.md`): when a discard leaves the hand ready it
//!   picks the one with the most winning kinds (ties: the highest tile), declares ready and from
//!   then on discards every drawn tile that does not win (and only calls to win); otherwise it
//!   discards by shape in the best split: a single, then a gapped partial, then an adjacent one,
//!   then a pair, then any tile — always the highest tile of the first class present (honours
//!   rank above characters). Calls: for each legal kong, pong and chow the hand left is split and
//!   scored 0.5 × singles + 0.3 × gapped + 0.2 × adjacent; the lowest score is taken if it is not
//!   worse than the current hand's score (ties among calls: kong, pong, then chows from the lowest).
//!   It never declares a kong on its own turn (the reference bot has no such logic).
//! - [`StrongPlayer`]: discards by exact shanten, then live useful tiles, then the reference bot's shape
//!   order, then the highest tile. Calls only when the call lowers shanten (calling also at equal
//!   shanten measured worse: 51% against the reference bot instead of 54–56%); among calls, the same order
//!   then the reference bot's score. Declares a kong when it does not raise shanten (a free replacement
//!   draw). Never declares ready (it only binds). Default `defense` 1: once the opponent has
//!   declared ready, among the discards of the best shanten it takes the least dangerous —
//!   tiles known safe first (`PlayerView::opponent_safe`, honours whose other copies are all
//!   accounted for), then by copies the opponent may hold for pair and sequence waits.
//!   [`StrongPlayer::plain`] has no defense (the order a rule set without opponent reading
//!   reproduces). Against `ReferencePlayer` over 2,000 games (seed 11): default 56.0% of decided games
//!   (95% CI 53.8–58.1%), plain 54.1% (51.9–56.2%). Games are short: about 14 discards in all.
//! - [`LookaheadPlayer`]: the strong order with the chance to win within the draws left
//!   (`lookahead.rs`) between shanten and live useful tiles, for discards and calls alike; once the
//!   opponent has declared ready a discard's chance counts only when it does not deal in
//!   ([`deal_in_chances`]), and a hand whose own chance is below its best discard's deal-in chance
//!   folds to the safest discard ([`folds`]); the native twin of `mahjong.rules`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::call::{call_options, CallKind, CallOption, CallWeights};
use super::discard::{discard_options, discard_options_with, DiscardOption};
use super::lookahead::{
    call_chances, call_draws, discard_chances, draws_left, live_counts, CallChance, CallChances, DiscardChance,
};
use super::meld::{Meld, MeldKind};
use super::opponent::{declared_waits, exactly, Read};
use super::player::{CallAction, Player, PlayerView, TurnAction};
use super::shanten::shanten;
use super::split::best_split;
use super::split::TileShape;
use super::tile::{counts_of, tiles_of, Counts, Tile, KINDS};
use super::win::is_win;

/// Whether the hand just drawn wins.
fn can_self_draw_win(view: &PlayerView) -> bool {
    view.drawn.is_some() && is_win(&view.hand, &view.melds).is_some()
}

/// Whether the offered tile wins.
fn wins_on(view: &PlayerView, offered: Tile) -> bool {
    let mut hand = view.hand;
    hand[offered.index()] += 1;
    is_win(&hand, &view.melds).is_some()
}

/// The action that makes the call of an option.
fn call_action(option: &CallOption) -> CallAction {
    match option.kind {
        CallKind::Pong => CallAction::Pong,
        CallKind::Kong => CallAction::Kong,
        CallKind::Chow => CallAction::Chow(option.meld.tile),
    }
}

/// A kong needs a replacement tile; every other call is always possible.
fn kong_possible(view: &PlayerView, option: &CallOption) -> bool {
    option.kind != CallKind::Kong || view.wall_remaining > 0
}

/// The highest tile held (honours above characters).
fn highest(view: &PlayerView) -> TurnAction {
    let tile = (0..KINDS)
        .rev()
        .find(|&i| view.hand[i] > 0)
        .and_then(Tile::from_index)
        .unwrap_or(Tile::ONE_MAN);
    TurnAction::Discard(tile)
}

/// Random discards, wins when it can, never calls.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player (reseeded by every game's seed).
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn start_game(&mut self, seat: usize, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9));
    }

    fn on_draw(&mut self, view: &PlayerView) -> TurnAction {
        if can_self_draw_win(view) {
            return TurnAction::Win;
        }
        let tiles = tiles_of(&view.hand);
        if tiles.is_empty() {
            return highest(view);
        }
        TurnAction::Discard(tiles[self.rng.random_range(0..tiles.len())])
    }

    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction {
        if wins_on(view, offered) {
            CallAction::Win
        } else {
            CallAction::Pass
        }
    }
}

/// The reference bot, exact (see the module doc).
#[derive(Default)]
pub struct ReferencePlayer {
    /// Weights of the call score.
    pub weights: CallWeights,
}

/// The reference bot's choice among discard options (shared with tests and explanations).
pub fn seed_discard(options: &[DiscardOption]) -> Option<(Tile, bool)> {
    // Ready discards: most winning kinds (dead waits count: the reference bot counts kinds), then highest.
    let ready = options
        .iter()
        .filter(|o| o.shanten_after == 0 && !o.waits.is_empty())
        .max_by_key(|o| (o.waits.len(), o.tile));
    if let Some(o) = ready {
        return Some((o.tile, true));
    }
    for shape in [
        TileShape::Single,
        TileShape::Gapped,
        TileShape::Adjacent,
        TileShape::Pair,
    ] {
        if let Some(o) = options.iter().filter(|o| o.shape == shape).max_by_key(|o| o.tile) {
            return Some((o.tile, false));
        }
    }
    options.iter().map(|o| o.tile).max().map(|t| (t, false))
}

impl Player for ReferencePlayer {
    fn name(&self) -> String {
        "reference".into()
    }

    fn on_draw(&mut self, view: &PlayerView) -> TurnAction {
        if can_self_draw_win(view) {
            return TurnAction::Win;
        }
        if view.ready {
            return match view.drawn {
                Some(t) => TurnAction::Discard(t),
                None => highest(view),
            };
        }
        let options = discard_options(&view.hand, &view.melds, &view.visible);
        match seed_discard(&options) {
            Some((t, true)) => TurnAction::DeclareReady(t),
            Some((t, false)) => TurnAction::Discard(t),
            None => highest(view),
        }
    }

    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction {
        if wins_on(view, offered) {
            return CallAction::Win;
        }
        if view.ready {
            return CallAction::Pass;
        }
        let analysis = call_options(&view.hand, &view.melds, offered, view.can_chow, &view.visible);
        let current = self.weights.score(&analysis.current_shape);
        let mut best: Option<(f64, &CallOption)> = None;
        for option in analysis.options.iter().filter(|o| kong_possible(view, o)) {
            let score = self.weights.score(&option.shape);
            if best.is_none_or(|(b, _)| score < b) {
                best = Some((score, option));
            }
        }
        match best {
            Some((score, option)) if score <= current + 1e-9 => call_action(option),
            _ => CallAction::Pass,
        }
    }
}

/// Shanten first, live useful tiles second, the reference bot's order after (see the module doc).
pub struct StrongPlayer {
    /// Weights of the call score (last tie-break among calls).
    pub weights: CallWeights,
    /// Call policy: 0 = only when shanten drops, 1 = also when it stays and live useful tiles
    /// grow, 2 = whenever shanten does not rise.
    pub call_policy: u8,
    /// With `defense` 2: fold (least dangerous tile whatever the shanten) when the best discard
    /// would leave the hand this many or more away.
    pub fold_at: i8,
    /// Against a ready opponent: 0 = no defense (the plain order), 1 = among the discards of the
    /// best shanten take the least dangerous (tiles known safe first), 2 = also fold.
    pub defense: u8,
}

impl Default for StrongPlayer {
    fn default() -> Self {
        StrongPlayer {
            weights: CallWeights::default(),
            call_policy: 0,
            fold_at: 2,
            defense: 1,
        }
    }
}

/// The strong choice among discard options: lowest shanten, most live useful tiles, the reference bot's
/// shape order, the highest tile.
pub fn strong_discard(options: &[DiscardOption]) -> Option<&DiscardOption> {
    options.iter().min_by(|a, b| {
        a.shanten_after
            .cmp(&b.shanten_after)
            .then(b.useful_live.cmp(&a.useful_live))
            .then(a.shape.cmp(&b.shape))
            .then(b.tile.cmp(&a.tile))
    })
}

impl StrongPlayer {
    /// The plain order with no defense: shanten, live useful tiles, the reference bot's shapes, the
    /// highest tile (what a rule set without opponent reading reproduces).
    pub fn plain() -> StrongPlayer {
        StrongPlayer {
            defense: 0,
            ..StrongPlayer::default()
        }
    }

    /// A kong that does not raise shanten, if any.
    fn kong(&self, view: &PlayerView) -> Option<Tile> {
        if view.wall_remaining == 0 {
            return None;
        }
        let now = shanten(&view.hand, &view.melds);
        for i in 0..KINDS {
            let tile = Tile::from_index(i)?;
            let concealed = view.hand[i] == 4;
            let added = view.hand[i] >= 1 && view.melds.contains(&Meld::pong(tile));
            if !concealed && !added {
                continue;
            }
            let mut hand = view.hand;
            let mut melds = view.melds.clone();
            if concealed {
                hand[i] = 0;
                melds.push(Meld::concealed_kong(tile));
            } else {
                hand[i] -= 1;
                if let Some(m) = melds.iter_mut().find(|m| **m == Meld::pong(tile)) {
                    m.kind = MeldKind::Kong;
                }
            }
            if shanten(&hand, &melds) <= now {
                return Some(tile);
            }
        }
        None
    }
}

/// A tile that cannot complete the ready opponent's hand: shown safe since it declared, or an
/// honour whose other copies are all in this seat's hand and melds or on the table (an honour
/// wait needs a copy in the waiting hand).
fn known_safe(view: &PlayerView, tile: Tile) -> bool {
    let i = tile.index();
    let own_melded: u8 = view.melds.iter().flat_map(|m| m.tiles()).filter(|&t| t == tile).count() as u8;
    view.opponent_safe[i] > 0 || (tile.is_honor() && view.hand[i] + own_melded + view.visible[i] >= 4)
}

/// How likely a discard completes the ready opponent's hand, from copies it may hold: a pair
/// wait (tanki, shanpon) needs the kind in its hand, a sequence wait two neighbours. Zero for
/// tiles known safe. A heuristic, not a probability.
fn danger(view: &PlayerView, tile: Tile) -> f64 {
    if known_safe(view, tile) {
        return 0.0;
    }
    let unseen = |t: Option<Tile>| -> f64 {
        t.map_or(0.0, |t| {
            let i = t.index();
            let melded = view.melds.iter().flat_map(|m| m.tiles()).filter(|&x| x == t).count() as u8;
            4u8.saturating_sub(view.hand[i] + melded + view.visible[i]) as f64
        })
    };
    let mut d = unseen(Some(tile));
    for (a, b) in [(-2, -1), (-1, 1), (1, 2)] {
        d += unseen(tile.neighbour(a)).min(unseen(tile.neighbour(b)));
    }
    d
}

/// The winning kinds a declared-ready hand is taken to wait on, on average (what the deal-in
/// chances of all kinds not known safe add up to).
pub const EXPECTED_WAITS: f64 = 2.0;

/// The chance that `hidden` tiles drawn from `pool` unseen ones hold at least one of `unseen`
/// copies (hypergeometric).
fn holds_one(unseen: u8, pool: u32, hidden: u32) -> f64 {
    let u = f64::from(unseen);
    if unseen == 0 || pool == 0 {
        return 0.0;
    }
    let mut none = 1.0;
    for k in 0..hidden.min(pool) {
        let left = f64::from(pool - k);
        none *= (left - u).max(0.0) / left;
    }
    1.0 - none
}

/// How much of its wait-shape weight a kind the opponent discarded itself keeps. A hand that is
/// ready now rarely waits on a tile it let go: in arena play against the reference bot, 0.14% of
/// such kinds completed the declared hand, against 20% of the other kinds not shown safe.
pub const OWN_DISCARD_WEIGHT: f64 = 0.01;

/// Per kind, the chance that discarding it completes the declared-ready opponent's hand, an
/// estimate: zero for kinds in `safe` (shown not to win for it: its hand is fixed since it
/// declared), else the kind's share of the wait-shape weight of every kind not known safe, scaled to
/// `EXPECTED_WAITS`. A kind's weight adds up the shapes the opponent's `hidden` concealed tiles
/// may wait in, from the copies this seat cannot see (`4 − hand − melds − seen`): a single or
/// pair of the kind, and the two tiles of each sequence wait on it, leaving out a two-sided wait
/// whose other winning tile is safe; a single only where the honour `read` allows it. A kind in
/// `thrown` (the opponent's own discards) keeps `OWN_DISCARD_WEIGHT` of its weight.
pub fn deal_in_chances(
    hand: &Counts,
    melds: &[Meld],
    seen: &Counts,
    safe: &Counts,
    thrown: &Counts,
    hidden: u32,
    read: &Read,
) -> [f64; KINDS] {
    let unseen = live_counts(hand, melds, seen);
    let pool: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
    let holds: [f64; KINDS] = std::array::from_fn(|i| holds_one(unseen[i], pool, hidden));
    let weight = |i: usize| -> f64 {
        let Some(t) = Tile::from_index(i).filter(|_| safe[i] == 0) else {
            return 0.0;
        };
        // A single of the kind (the read may rule it out) or a pair or more.
        let mut w = holds[i];
        if read.no_single[i] {
            w += read.single(i, unseen[i], pool, hidden) - exactly(1, unseen[i], pool, hidden);
        }
        let at = |o: i8| t.neighbour(o).map(|n| n.index());
        // The two tiles held, and the other tile the shape also waits on (0: none).
        for (a, b, other) in [(-2i8, -1i8, -3i8), (-1, 1, 0), (1, 2, 3)] {
            let (Some(x), Some(y)) = (at(a), at(b)) else {
                continue;
            };
            if other != 0 && at(other).is_some_and(|n| safe[n] > 0) {
                continue;
            }
            w += holds[x] * holds[y];
        }
        if thrown[i] > 0 {
            w * OWN_DISCARD_WEIGHT
        } else {
            w
        }
    };
    let weights: [f64; KINDS] = std::array::from_fn(weight);
    let total: f64 = weights.iter().sum();
    weights.map(|w| {
        if w <= 0.0 {
            0.0
        } else {
            (EXPECTED_WAITS * w / total).min(1.0)
        }
    })
}

/// Concealed tiles of a player with `melds` called melds.
pub fn hidden_tiles(melds: usize) -> u32 {
    13u32.saturating_sub(3 * melds.min(4) as u32)
}

impl Player for StrongPlayer {
    fn name(&self) -> String {
        match self.defense {
            0 => "strong-plain".into(),
            _ => "strong".into(),
        }
    }

    fn on_draw(&mut self, view: &PlayerView) -> TurnAction {
        if can_self_draw_win(view) {
            return TurnAction::Win;
        }
        if let Some(t) = self.kong(view) {
            return TurnAction::Kong(t);
        }
        // Shapes only break ties of (shanten, live useful tiles): skip the split when there are none.
        let mut options = discard_options_with(&view.hand, &view.melds, &view.visible, None, false);
        let key = |o: &DiscardOption| (o.shanten_after, std::cmp::Reverse(o.useful_live));
        if let Some(top) = options.iter().map(key).min() {
            if options.iter().filter(|o| key(o) == top).count() > 1 {
                let shapes = best_split(&view.hand, &view.melds, &view.visible).tile_shapes();
                for o in options.iter_mut() {
                    o.shape = shapes[o.tile.index()].unwrap_or(TileShape::Single);
                }
            }
        }
        let Some(best) = strong_discard(&options) else {
            return highest(view);
        };
        if view.opponent_ready && self.defense > 0 && !known_safe(view, best.tile) {
            let fold = self.defense >= 2 && best.shanten_after >= self.fold_at;
            let pick = options
                .iter()
                .filter(|o| fold || o.shanten_after == best.shanten_after)
                .min_by(|a, b| {
                    danger(view, a.tile)
                        .total_cmp(&danger(view, b.tile))
                        .then(a.shanten_after.cmp(&b.shanten_after))
                        .then(b.useful_live.cmp(&a.useful_live))
                        .then(b.tile.cmp(&a.tile))
                });
            if let Some(p) = pick {
                return TurnAction::Discard(p.tile);
            }
        }
        TurnAction::Discard(best.tile)
    }

    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction {
        if wins_on(view, offered) {
            return CallAction::Win;
        }
        let analysis = call_options(&view.hand, &view.melds, offered, view.can_chow, &view.visible);
        let best = analysis
            .options
            .iter()
            .filter(|o| kong_possible(view, o))
            .min_by(|a, b| {
                a.shanten_after
                    .cmp(&b.shanten_after)
                    .then(b.useful_live_after.cmp(&a.useful_live_after))
                    .then(self.weights.score(&a.shape).total_cmp(&self.weights.score(&b.shape)))
            });
        match best {
            Some(o)
                if o.shanten_after < analysis.current_shanten
                    || (o.shanten_after == analysis.current_shanten
                        && (self.call_policy >= 2
                            || (self.call_policy == 1 && o.useful_live_after > analysis.current_useful_live))) =>
            {
                call_action(o)
            }
            _ => CallAction::Pass,
        }
    }
}

/// The lookahead player: the discard of fewest shanten, then the best chance to win within the
/// draws left (`lookahead.rs`), then the strong order (live useful tiles, the reference bot's shapes, the
/// highest tile). Calls when the call leaves fewer shanten, or as many with a better chance (then
/// more live useful tiles). Declares a kong as `StrongPlayer` does. The native twin of
/// `mahjong.rules`.
pub struct LookaheadPlayer {
    /// Hands the search may expand per decision (see `Lookahead`).
    pub budget: usize,
    /// The most draws looked at (the opponent rarely leaves more).
    pub horizon: usize,
    /// Weights of the call score (last tie-break among calls).
    pub weights: CallWeights,
    /// What it reads from the opponent.
    pub levers: Levers,
}

/// The levers of the lookahead player beyond `mahjong.rules`'s play, each measured on its own
/// against the reference bot (docs/mahjong.md, "Levers"). The default is the rule set's: the
/// honour read alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Levers {
    /// Deal-in chances use the honour read (`Read`).
    pub read: bool,
    /// The chance to win counts wins on the opponent's discards (`Read::throw_chances`):
    /// before it declares from its discard order, after it from its thrown-back draws.
    pub rons: bool,
    /// Wins on its discards only once it has declared.
    pub rons_declared: bool,
    /// Wins on its discards not counted in call decisions.
    pub rons_no_calls: bool,
    /// Deal-in chances from the ready hands a declared opponent may hold (`declared_waits`).
    pub hands: bool,
    /// The fold compares the own chance with the risk of pushing over the turns left, not with
    /// this discard's alone.
    pub race: bool,
    /// Fold when the own chance is below this many times the risk.
    pub margin: f64,
    /// Against a declared opponent, rank by the chance times not dealing in before shanten.
    pub value: bool,
}

impl Default for Levers {
    fn default() -> Self {
        Levers {
            read: true,
            ..Levers::none()
        }
    }
}

impl Levers {
    /// No lever: the lookahead's play without any read of the opponent beyond its safe tiles
    /// and own discards.
    pub fn none() -> Levers {
        Levers {
            read: false,
            rons: false,
            rons_declared: false,
            rons_no_calls: false,
            hands: false,
            race: false,
            margin: 1.0,
            value: false,
        }
    }

    /// Levers from a list such as `read+rons` (`none`: none of them): `read`, `rons`,
    /// `rons-declared`, `rons-no-calls`, `hands`, `race`, `value`, `margin-X`.
    pub fn parse(list: &str) -> Option<Levers> {
        let mut levers = Levers::none();
        for lever in list.split('+') {
            match lever {
                "none" => {}
                "read" => levers.read = true,
                "rons" => levers.rons = true,
                "rons-declared" => {
                    levers.rons = true;
                    levers.rons_declared = true;
                }
                "rons-no-calls" => {
                    levers.rons = true;
                    levers.rons_no_calls = true;
                }
                "hands" => levers.hands = true,
                "race" => levers.race = true,
                "value" => levers.value = true,
                m => {
                    let x: f64 = m.strip_prefix("margin-")?.parse().ok()?;
                    levers.margin = (x.is_finite() && x >= 0.0).then_some(x)?;
                }
            }
        }
        Some(levers)
    }
}

/// The default search budget of the lookahead player and of `mahjong.rules`.
pub const LOOKAHEAD_BUDGET: usize = 20;

/// The default horizon (draws looked at) of the lookahead player and of `mahjong.rules`.
pub const LOOKAHEAD_HORIZON: usize = 6;

impl Default for LookaheadPlayer {
    fn default() -> Self {
        LookaheadPlayer {
            budget: LOOKAHEAD_BUDGET,
            horizon: LOOKAHEAD_HORIZON,
            weights: CallWeights::default(),
            levers: Levers::default(),
        }
    }
}

/// The lookahead's discard: fewest shanten, the best chance to win without dealing in (the chance
/// times one minus the deal-in chance, `danger` per kind index: zero while the opponent is not
/// ready), then the strong order. When that discard's own chance to win is below its deal-in
/// chance, the hand folds: the least dangerous discard whatever its shanten, then the same order.
/// Options and chances in the same kind order.
pub fn lookahead_discard<'a>(
    options: &'a [DiscardOption],
    chances: &[DiscardChance],
    danger: &[f64; KINDS],
) -> Option<&'a DiscardOption> {
    lookahead_discard_racing(options, chances, danger, &|_, d| d)
}

/// [`lookahead_discard`] with the fold's risk of pushing given by `risk(option, its deal-in
/// chance)`.
pub fn lookahead_discard_racing<'a>(
    options: &'a [DiscardOption],
    chances: &[DiscardChance],
    danger: &[f64; KINDS],
    risk: &dyn Fn(&DiscardOption, f64) -> f64,
) -> Option<&'a DiscardOption> {
    let chance = |o: &DiscardOption| chances.iter().find(|c| c.tile == o.tile).map_or(0.0, |c| c.chance.p);
    let p = |o: &DiscardOption| chance(o) * (1.0 - danger[o.tile.index()]);
    let order = |a: &DiscardOption, b: &DiscardOption| {
        a.shanten_after
            .cmp(&b.shanten_after)
            .then(p(b).total_cmp(&p(a)))
            .then(b.useful_live.cmp(&a.useful_live))
            .then(a.shape.cmp(&b.shape))
            .then(b.tile.cmp(&a.tile))
    };
    let push = options.iter().min_by(|a, b| order(a, b))?;
    if !folds(chance(push), risk(push, danger[push.tile.index()])) {
        return Some(push);
    }
    options.iter().min_by(|a, b| {
        danger[a.tile.index()]
            .total_cmp(&danger[b.tile.index()])
            .then(order(a, b))
    })
}

/// Whether a hand folds: its own chance to win is below the chance its best discard deals in
/// (the rules' `Fold`).
pub fn folds(chance: f64, deal_in: f64) -> bool {
    chance < deal_in
}

/// The lookahead's call (None: pass): the call of fewest shanten, then the best chance, live
/// tiles, the reference bot's score, the listed order; taken when it beats passing on shanten, then chance,
/// then live useful tiles.
pub fn lookahead_call<'a>(c: &'a CallChances, weights: &CallWeights) -> Option<&'a CallChance> {
    let key = |s: i8, p: f64, live: u32| (s, std::cmp::Reverse(ordered(p)), std::cmp::Reverse(live));
    let best = c.calls.iter().enumerate().min_by(|(i, a), (j, b)| {
        key(a.option.shanten_after, a.chance.p, a.option.useful_live_after)
            .cmp(&key(b.option.shanten_after, b.chance.p, b.option.useful_live_after))
            .then(
                weights
                    .score(&a.option.shape)
                    .total_cmp(&weights.score(&b.option.shape)),
            )
            .then(i.cmp(j))
    })?;
    let call = key(
        best.1.option.shanten_after,
        best.1.chance.p,
        best.1.option.useful_live_after,
    );
    (call < key(c.shanten, c.pass.p, c.useful_live)).then_some(best.1)
}

/// A chance as an ordered integer (its bits: chances are never negative).
fn ordered(p: f64) -> u64 {
    p.max(0.0).to_bits()
}

impl LookaheadPlayer {
    /// What it reads from the opponent's discards (nothing without the `read` lever).
    fn read(&self, view: &PlayerView) -> Read {
        if self.levers.read {
            Read::from_discards(&view.opponent_discards, view.opponent_ready_at, view.opponent_ready)
        } else {
            Read::blind(view.opponent_ready)
        }
    }

    /// Per kind, the chance that discarding it deals in (zero until the opponent declares): the
    /// held kinds, and with the `race` lever every kind unseen, for the second figure: the
    /// deal-in chance of a tile drawn at random.
    fn dangers(&self, view: &PlayerView, read: &Read, hidden: u32) -> ([f64; KINDS], f64) {
        let mut danger = [0.0; KINDS];
        let mut average = 0.0;
        if !view.opponent_ready {
            return (danger, average);
        }
        let thrown = counts_of(&view.opponent_discards);
        let unseen = live_counts(&view.hand, &view.melds, &view.visible);
        let pool: u32 = unseen.iter().map(|&u| u32::from(u)).sum();
        let estimates = deal_in_chances(
            &view.hand,
            &view.melds,
            &view.visible,
            &view.opponent_safe,
            &thrown,
            hidden,
            read,
        );
        let hands = self.levers.hands.then(|| {
            let upto = view.opponent_ready_at.min(view.opponent_discards.len());
            let before = counts_of(&view.opponent_discards[..upto]);
            declared_waits(&unseen, hidden, &view.opponent_safe, &before, read)
        });
        for t in Tile::all() {
            let i = t.index();
            if view.hand[i] == 0 && (!self.levers.race || unseen[i] == 0) {
                continue;
            }
            danger[i] = match hands {
                Some(Some(p)) => p[i],
                _ => estimates[i],
            };
            if pool > 0 {
                average += danger[i] * f64::from(unseen[i]) / f64::from(pool);
            }
        }
        (danger, average)
    }

    /// The chances of the opponent's next `turns` discards by kind (none without `rons`).
    fn rons(&self, view: &PlayerView, read: &Read, hidden: u32, turns: usize) -> Vec<[f64; KINDS]> {
        if !self.levers.rons || (self.levers.rons_declared && !view.opponent_ready) {
            return Vec::new();
        }
        let unseen = live_counts(&view.hand, &view.melds, &view.visible);
        let pool: u32 = unseen.iter().map(|&u| u32::from(u)).sum();
        read.throw_chances(&unseen, pool, hidden, turns)
    }
}

/// The `value` lever's discard: the best chance times not dealing in, whatever the shanten.
fn value_discard<'a>(
    options: &'a [DiscardOption],
    chances: &[DiscardChance],
    danger: &[f64; KINDS],
) -> Option<&'a DiscardOption> {
    let chance = |o: &DiscardOption| chances.iter().find(|c| c.tile == o.tile).map_or(0.0, |c| c.chance.p);
    let p = |o: &DiscardOption| chance(o) * (1.0 - danger[o.tile.index()]);
    options.iter().min_by(|a, b| {
        p(b).total_cmp(&p(a))
            .then(a.shanten_after.cmp(&b.shanten_after))
            .then(danger[a.tile.index()].total_cmp(&danger[b.tile.index()]))
            .then(b.useful_live.cmp(&a.useful_live))
            .then(b.tile.cmp(&a.tile))
    })
}

impl Player for LookaheadPlayer {
    fn name(&self) -> String {
        "lookahead".into()
    }

    fn on_draw(&mut self, view: &PlayerView) -> TurnAction {
        if can_self_draw_win(view) {
            return TurnAction::Win;
        }
        if let Some(t) = StrongPlayer::plain().kong(view) {
            return TurnAction::Kong(t);
        }
        let split = best_split(&view.hand, &view.melds, &view.visible);
        let options = discard_options_with(&view.hand, &view.melds, &view.visible, Some(&split), false);
        let draws = draws_left(view.wall_remaining as i64, false).min(self.horizon);
        let hidden = hidden_tiles(view.opponent_melds.len());
        let read = self.read(view);
        let rons = self.rons(view, &read, hidden, draws);
        let (chances, _) = discard_chances(&view.hand, &view.melds, &view.visible, draws, self.budget, rons);
        let (danger, average) = self.dangers(view, &read, hidden);
        let margin = self.levers.margin;
        let race = self.levers.race;
        // Pushing risks this discard now and, on each later turn, a discard about as risky as a
        // tile drawn at random.
        let risk = |_: &DiscardOption, now: f64| -> f64 {
            let later = if race { draws.saturating_sub(1) } else { 0 };
            margin * (1.0 - (1.0 - now) * (1.0 - average).powi(later as i32))
        };
        if self.levers.value && view.opponent_ready {
            if let Some(o) = value_discard(&options, &chances, &danger) {
                return TurnAction::Discard(o.tile);
            }
        }
        match lookahead_discard_racing(&options, &chances, &danger, &risk) {
            Some(o) => TurnAction::Discard(o.tile),
            None => highest(view),
        }
    }

    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction {
        if wins_on(view, offered) {
            return CallAction::Win;
        }
        let draws = call_draws(view.wall_remaining as i64, self.horizon);
        let read = self.read(view);
        let mut rons = self.rons(view, &read, hidden_tiles(view.opponent_melds.len()), draws.0);
        if self.levers.rons_no_calls {
            rons.clear();
        }
        let c = call_chances(
            &view.hand,
            &view.melds,
            offered,
            view.can_chow,
            &view.visible,
            draws,
            self.budget,
            rons,
        );
        match lookahead_call(&c, &self.weights) {
            Some(call) => call_action(&call.option),
            None => CallAction::Pass,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::notation::{parse_counts, parse_tile};
    use super::super::tile::NO_TILES;
    use super::*;

    fn view(hand: &str, drawn: Option<&str>) -> PlayerView {
        PlayerView::for_hand(
            parse_counts(hand).unwrap(),
            Vec::new(),
            NO_TILES,
            drawn.map(|d| parse_tile(d).unwrap()),
        )
    }

    fn tile(t: &str) -> Tile {
        parse_tile(t).unwrap()
    }

    #[test]
    fn seed_declares_ready_on_the_discard_with_most_winning_kinds() {
        // Dropping C waits on 1m and 4m (two kinds); dropping 1m or 4m waits on C alone.
        let mut seed = ReferencePlayer::default();
        let v = view("1122334m EEESSS C", Some("C"));
        assert_eq!(seed.on_draw(&v), TurnAction::DeclareReady(tile("C")));
        // Once ready it throws every drawn tile that does not win.
        let mut ready = view("1122334m EEESSS 9m", Some("9m"));
        ready.ready = true;
        assert_eq!(seed.on_draw(&ready), TurnAction::Discard(tile("9m")));
        let won = view("11223344m EEESSS", Some("4m"));
        assert_eq!(seed.on_draw(&won), TurnAction::Win);
    }

    #[test]
    fn seed_discards_the_highest_single_first() {
        // Singles 9m and C (and N): honours rank above characters, C is the highest.
        let mut seed = ReferencePlayer::default();
        let v = view("123m 456m 78m 9m 11m N C P", Some("P"));
        assert_eq!(seed.on_draw(&v), TurnAction::Discard(tile("C")));
        // No single (13m 57m are gapped, the rest pairs; 1-shanten whatever goes): the highest
        // tile of a gapped partial goes before any pair.
        let v = view("13m 57m 99m EE SS NN WW", Some("W"));
        let options = discard_options(&v.hand, &[], &NO_TILES);
        assert!(options.iter().all(|o| o.shanten_after >= 1));
        let (t, ready) = seed_discard(&options).unwrap();
        assert!(!ready);
        assert_eq!(t, tile("7m"));
    }

    #[test]
    fn seed_calls_when_the_score_does_not_get_worse() {
        let mut seed = ReferencePlayer::default();
        // EE + E: the pong leaves the same singles S N: score unchanged → pong (the reference bot's <=).
        let v = view("123m 456m 789m EE S N", None);
        assert_eq!(seed.on_discard(&v, tile("E")), CallAction::Pong);
        // Chow 123m on 1m would add the 1m single: worse → pass.
        assert_eq!(seed.on_discard(&v, tile("1m")), CallAction::Pass);
        // S completes the hand: a win beats every call.
        let v = view("123m 456m 789m EEE S", None);
        assert_eq!(seed.on_discard(&v, tile("S")), CallAction::Win);
    }

    /// A hand for the deal-in tests, and the tiles seen: pins and bamboo out of play, plus `extra`.
    fn deal_in_position(extra: &[&str]) -> (Counts, Counts) {
        let mut seen = NO_TILES;
        seen[9..27].fill(4);
        for t in extra {
            seen[tile(t).index()] += 1;
        }
        (parse_counts("1122m 567m EESS P C").unwrap(), seen)
    }

    #[test]
    fn deal_in_chances_share_the_expected_waits_and_spare_safe_tiles() {
        let (hand, mut seen) = deal_in_position(&[]);
        // Two copies of W discarded, one of P: the last W and the last two P are unseen.
        seen[tile("W").index()] = 2;
        seen[tile("P").index()] = 1;
        let hidden = hidden_tiles(0);
        let chance = |safe: &Counts, t: &str| {
            deal_in_chances(&hand, &[], &seen, safe, &NO_TILES, hidden, &Read::blind(true))[tile(t).index()]
        };
        // Over every kind the chances add up to the expected number of winning kinds.
        let total: f64 = Tile::all().map(|t| chance(&NO_TILES, &t.to_string())).sum();
        assert!((total - EXPECTED_WAITS).abs() < 1e-9, "{total}");
        // A kind shown safe cannot deal in; nor an honour with no copy left unseen.
        let mut safe = NO_TILES;
        safe[tile("9m").index()] = 1;
        assert_eq!(chance(&safe, "9m"), 0.0);
        let mut all_seen = seen;
        all_seen[tile("C").index()] = 3;
        assert_eq!(
            deal_in_chances(&hand, &[], &all_seen, &NO_TILES, &NO_TILES, hidden, &Read::blind(true))[tile("C").index()],
            0.0
        );
        // A middle tile has more sequence waits than an end tile, an end tile more than an honour
        // with as many copies unseen (E: two held, S: two held, so compare N, none held).
        assert!(chance(&NO_TILES, "4m") > chance(&NO_TILES, "9m"));
        assert!(chance(&NO_TILES, "9m") > chance(&NO_TILES, "N"));
        // 9m's waits: 78m (with 6m), and the tiles themselves. With 6m safe the two-sided 78m wait
        // is ruled out, so 9m's share drops.
        let mut six = NO_TILES;
        six[tile("6m").index()] = 1;
        assert!(chance(&six, "9m") < chance(&NO_TILES, "9m"));
    }

    #[test]
    fn the_opponents_own_discards_keep_a_hundredth_of_their_share() {
        let (hand, seen) = deal_in_position(&["4m"]);
        let hidden = hidden_tiles(0);
        let thrown = counts_of(&[tile("4m")]);
        let chance = |thrown: &Counts, t: &str| {
            deal_in_chances(&hand, &[], &seen, &NO_TILES, thrown, hidden, &Read::blind(true))[tile(t).index()]
        };
        // The same weight as before, times OWN_DISCARD_WEIGHT, over a total that lost most of 4m's.
        let (before, after) = (chance(&NO_TILES, "4m"), chance(&thrown, "4m"));
        assert!(
            after > 0.0 && after < before * OWN_DISCARD_WEIGHT * 1.2,
            "{before} {after}"
        );
        // The other kinds share what 4m gave up: the expected waits still add up.
        assert!(chance(&thrown, "9m") > chance(&NO_TILES, "9m"));
        let total: f64 = Tile::all().map(|t| chance(&thrown, &t.to_string())).sum();
        assert!((total - EXPECTED_WAITS).abs() < 1e-9, "{total}");
    }

    #[test]
    fn the_honour_read_lowers_the_honours_it_clears_and_nothing_else_of_theirs() {
        let (hand, seen) = deal_in_position(&[]);
        let hidden = hidden_tiles(0);
        let chance = |read: &Read, t: &str| {
            deal_in_chances(&hand, &[], &seen, &NO_TILES, &NO_TILES, hidden, read)[tile(t).index()]
        };
        // It threw W as its last single before declaring: N, P, F and C are pairs or sets if
        // held, so a single-tile wait on them needs the declaring turn's draw.
        let read = Read::after(Some(tile("W")), true);
        let blind = Read::blind(true);
        for t in ["N", "F"] {
            assert!(chance(&read, t) < chance(&blind, t) * 0.8, "{t}");
            assert!(chance(&read, t) > 0.0, "{t}: a pair may still wait");
        }
        // The kinds it leaves alone take the share the cleared ones gave up.
        assert!(chance(&read, "5m") > chance(&blind, "5m"));
        let total: f64 = Tile::all().map(|t| chance(&read, &t.to_string())).sum();
        assert!((total - EXPECTED_WAITS).abs() < 1e-9, "{total}");
    }

    #[test]
    fn strong_orders_by_shanten_then_live_tiles() {
        let mut strong = StrongPlayer::default();
        // The choice is the lowest shanten after, then the most live useful tiles.
        let v = view("23m 4m 567m 888m 9m EE S C", Some("C"));
        let TurnAction::Discard(t) = strong.on_draw(&v) else {
            panic!("expected a discard");
        };
        let options = discard_options(&v.hand, &[], &NO_TILES);
        let best = strong_discard(&options).unwrap();
        assert_eq!(t, best.tile);
        let min_shanten = options.iter().map(|o| o.shanten_after).min().unwrap();
        assert_eq!(best.shanten_after, min_shanten);
        assert!(options
            .iter()
            .filter(|o| o.shanten_after == min_shanten)
            .all(|o| o.useful_live <= best.useful_live));
        // Pong of E lowers shanten (1 → ready on a single) and is taken; chow 123m on 1m does not
        // and is passed.
        let v = view("123m 456m 789m EE S N", None);
        assert_eq!(strong.on_discard(&v, tile("E")), CallAction::Pong);
        assert_eq!(strong.on_discard(&v, tile("1m")), CallAction::Pass);
    }
}
