//! The rule side of `kibitzer bench mahjong`: the shipped strong rule set's decision time on real
//! game positions (turns and calls, one reused session, in-process) and rule-vs-rule games/s.

use std::hint::black_box;
use std::time::Instant;

use crate::harness::Loader;
use crate::mahjong::play_match;
use crate::mahjong::rule_player::RulePlayer;
use crate::mahjong::Tile;
use crate::mahjong::{CallAction, Player, PlayerView, TurnAction};
use crate::mahjong::{ReferencePlayer, StrongPlayer};

/// Figures of the rule side.
pub struct RuleFigures {
    /// Report lines.
    pub lines: Vec<String>,
    /// Mean turn decision (win / kong / discard) of `mahjong.rules`, µs.
    pub decision_us: f64,
    /// Mean call decision of `mahjong.rules`, µs.
    pub call_decision_us: f64,
    /// `mahjong` vs `mahjong_reference` rule sets, games per second (0 when no match was asked for).
    pub games_per_s: f64,
    /// Median and 90th percentile of one decision (turns and calls, each timed on its own), ms.
    pub decision_ms: (f64, f64),
}

/// Records the positions a strong player decides on in real games.
struct Recorder {
    inner: StrongPlayer,
    turns: Vec<PlayerView>,
    calls: Vec<(PlayerView, Tile)>,
    limit: usize,
}

impl Player for Recorder {
    fn name(&self) -> String {
        "strong".into()
    }
    fn on_draw(&mut self, view: &PlayerView) -> TurnAction {
        if self.turns.len() < self.limit {
            self.turns.push(view.clone());
        }
        self.inner.on_draw(view)
    }
    fn on_discard(&mut self, view: &PlayerView, offered: Tile) -> CallAction {
        if self.calls.len() < self.limit {
            self.calls.push((view.clone(), offered));
        }
        self.inner.on_discard(view, offered)
    }
}

/// Timed passes over the recorded positions; the figures are their medians.
const PASSES: usize = 3;

/// The middle value (of an odd number of them).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// Measures on `positions` recorded positions and a `games`-game rule-vs-rule match; `edited`
/// names a rule file to time instead of the shipped `mahjong.rules`.
pub fn measure(positions: usize, games: u32, edited: Option<&str>, load: Loader) -> Result<RuleFigures, String> {
    let strong = match edited {
        Some(path) => load(path),
        None => load("mahjong"),
    }?;
    let seed_rules = load("mahjong_reference")?;
    let mut recorder = Recorder {
        inner: StrongPlayer::plain(),
        turns: Vec::new(),
        calls: Vec::new(),
        limit: positions,
    };
    let mut seed = ReferencePlayer::default();
    let mut g = 0;
    while (recorder.turns.len() < positions || recorder.calls.len() < positions) && g < 20_000 {
        play_match([&mut recorder, &mut seed], 1, 77 + g);
        g += 1;
    }
    let mut player = RulePlayer::new("mahjong", strong.clone());
    let mut lines = Vec::new();
    // A warm-up (tables, allocations), then three timed passes, each reported by its median: a
    // burst of other work on the machine slows one pass, not the figure. Recording played these
    // very positions, and a pass would find the one before it in the capped-distance memo: the memo
    // is emptied before each, so none is timed against answers already worked out.
    for v in recorder.turns.iter().take(20) {
        player.decide_turn(v)?;
    }
    let (mut turns, mut calls) = (Vec::new(), Vec::new());
    for _ in 0..PASSES {
        crate::mahjong::forget_capped_memo();
        let start = Instant::now();
        for v in &recorder.turns {
            black_box(player.decide_turn(black_box(v))?);
        }
        turns.push(start.elapsed().as_secs_f64() * 1e6 / recorder.turns.len().max(1) as f64);
        let start = Instant::now();
        for (v, t) in &recorder.calls {
            black_box(player.decide_call(black_box(v), *t)?);
        }
        calls.push(start.elapsed().as_secs_f64() * 1e6 / recorder.calls.len().max(1) as f64);
    }
    let (decision_us, call_decision_us) = (median(&mut turns), median(&mut calls));
    let decision_ms = one_by_one(&mut player, &recorder.turns, &recorder.calls)?;
    lines.push(format!(
        "decision time through the rules, each timed on its own: median {:.3} ms, 90th percentile {:.3} ms over {} turn and call positions",
        decision_ms.0,
        decision_ms.1,
        recorder.turns.len() + recorder.calls.len()
    ));
    lines.push(format!(
        "rule set `mahjong` (reused session, in-process): turn decision {:.2} µs over {} game positions, call decision {:.2} µs over {} (medians of {PASSES} passes)",
        decision_us,
        recorder.turns.len(),
        call_decision_us,
        recorder.calls.len()
    ));
    let mut a = RulePlayer::new("mahjong", strong);
    let mut b = RulePlayer::new("mahjong_reference", seed_rules);
    let mut games_per_s = 0.0;
    if games == 0 {
        lines.push("no rule-vs-rule match (games=0)".to_string());
    } else {
        let start = Instant::now();
        let stats = play_match([&mut a, &mut b], games, 5);
        games_per_s = f64::from(games) / start.elapsed().as_secs_f64().max(1e-9);
        lines.push(format!(
            "arena rule sets mahjong vs mahjong_reference: {games_per_s:.0} games/s over {games} games"
        ));
        lines.extend(stats.report().lines().map(str::to_string));
    }
    if a.failures + b.failures > 0 {
        return Err(format!(
            "the rule players failed {} decision(s): {}",
            a.failures + b.failures,
            a.first_failure.or(b.first_failure).unwrap_or_default()
        ));
    }
    Ok(RuleFigures {
        lines,
        decision_us,
        call_decision_us,
        games_per_s,
        decision_ms,
    })
}

/// The median and 90th percentile of one decision's wall time, in ms, each position timed alone.
fn one_by_one(
    player: &mut RulePlayer,
    turns: &[PlayerView],
    calls: &[(PlayerView, Tile)],
) -> Result<(f64, f64), String> {
    let mut times = Vec::with_capacity(turns.len() + calls.len());
    for v in turns {
        let start = Instant::now();
        black_box(player.decide_turn(black_box(v))?);
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    for (v, t) in calls {
        let start = Instant::now();
        black_box(player.decide_call(black_box(v), *t)?);
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    Ok(crate::harness::median_and_p90(&mut times))
}
