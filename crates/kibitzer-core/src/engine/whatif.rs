//! What-if sub-queries (docs/semantics.md): a rule runs a rule set (itself or another) on hypothetical
//! inputs and matches its conclusions. Here is what the matcher asks of them (`SubQueries`) and
//! what a session knows of them (`WhatIfMemo`): each `whatif` condition resolved once, and the
//! answers remembered by rule set and inputs, so thousands of sub-queries per query stay cheap.
//! The session runs them, on pooled sub-sessions (`session::WhatIfRunner`); because runs are
//! deterministic, an explanation can run a sub-query again to show how it concluded.

use super::program::{Program, WhatIfTarget};
use super::run::RunError;
use crate::value::Value;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::rc::Rc;
use std::sync::Arc;

/// Where `whatif` finds rule sets other than the one running.
pub trait Library: Send + Sync {
    /// The compiled rule set of this name.
    fn get(&self, name: &str) -> Option<Arc<Program>>;
}

/// One output fact of a sub-query: its relation and arguments. Outcomes and names are counted
/// with `Rc`, not `Arc`: they stay in the session that asked (which, holding values, never
/// leaves its thread), and a shared count cost an atomic operation per what-if answered.
pub(crate) type OutputFact = (Rc<str>, SmallVec<[Value; 4]>);

/// The conclusions of one sub-query: its output facts, in the order they were asserted.
#[derive(Debug, Clone, Default)]
pub(crate) struct WhatIfOutcome {
    /// (relation, arguments) per output fact. Names are shared with the runner's interned copy
    /// and the usual one or two facts are stored inline: one allocation per sub-query in all.
    pub facts: SmallVec<[OutputFact; 2]>,
}

/// How deep what-ifs may nest.
pub(crate) const MAX_WHATIF_DEPTH: usize = 6;
/// Memo entries kept before the memo is cleared.
pub(crate) const MEMO_LIMIT: usize = 1 << 18;

/// A remembered sub-query: the `whatif` condition that asked it (its site), where its input
/// values (in the order written) are in the runner's `memo_inputs`, and what it concluded. The
/// site fixes the rule set and the relation.
///
/// Small and flat: built inline and moved as a block, a larger entry (its inputs kept inline)
/// stalled on store forwarding each time one was added.
pub(crate) struct MemoEntry {
    site: u32,
    inputs: (u32, u32),
    outcome: Rc<WhatIfOutcome>,
}

impl MemoEntry {
    fn matches(&self, site: u32, inputs: &[(&str, Value)], kept: &[Value]) -> bool {
        let (start, end) = (self.inputs.0 as usize, self.inputs.1 as usize);
        self.site == site
            && end - start == inputs.len()
            && kept[start..end].iter().zip(inputs).all(|(v, (_, w))| v == w)
    }
}

/// A `whatif` condition resolved once for the runner's lifetime: everything a sub-query of it
/// needs besides the input values, so a sub-query looks up no name and compares no string.
pub(crate) struct Site {
    /// The program the condition belongs to (a runner serves one; checked all the same).
    pub(crate) owner: usize,
    pub(crate) program: Arc<Program>,
    /// Whether the sub-query inherits the asking run's parameters (a run of the rule set itself).
    pub(crate) inherit: bool,
    /// The target's rules that can matter to the relation looked at.
    pub(crate) relevant: Arc<[bool]>,
    /// The target's input number of each input the condition passes, in the order written
    /// (found at the first sub-query, whose session reports a name that is not an input).
    pub(crate) slots: Option<SmallVec<[u16; 2]>>,
    /// The relation looked at, when it is one of the target's outputs (else nothing matches).
    pub(crate) rel: Option<super::program::RelId>,
    pub(crate) looked_at: Rc<str>,
}

/// The shared copy of `name` (added on first use). The list holds the few names `whatif`s use.
fn intern(names: &mut Vec<Rc<str>>, name: &str) -> Rc<str> {
    if let Some(n) = names.iter().find(|n| &***n == name) {
        return n.clone();
    }
    let n: Rc<str> = Rc::from(name);
    names.push(n.clone());
    n
}

/// The memo's hash of a sub-query: its site and its input values (a lookup allocates nothing;
/// a hit is the common case, the same hand asked again).
fn memo_hash(site: u32, inputs: &[(&str, Value)]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    site.hash(&mut h);
    for (_, v) in inputs {
        v.hash(&mut h);
    }
    h.finish()
}

/// What a session knows of its sub-queries: where rule sets are found, each `whatif` condition
/// resolved, the answers remembered, and counters.
#[derive(Default)]
pub(crate) struct WhatIfMemo {
    pub(crate) library: Option<Arc<dyn Library>>,
    pub(crate) self_program: Option<Arc<Program>>,
    pub(crate) depth: usize,
    /// Remembered sub-queries by `memo_hash`; entries with equal hashes share a bucket.
    pub(crate) answers: FxHashMap<u64, SmallVec<[MemoEntry; 1]>>,
    pub(crate) memo_len: usize,
    /// The remembered sub-queries' input values, entry after entry.
    pub(crate) memo_inputs: Vec<Value>,
    /// The `whatif` conditions resolved so far, by site number. Kept across runs: a site depends
    /// only on the program.
    pub(crate) sites: Vec<Option<Site>>,
    /// Relation names the outcomes refer to, each stored once for the runner's lifetime.
    pub(crate) names: Vec<Rc<str>>,
    /// The number of the asking session's run (counted by `reset`): the parameters cannot change
    /// during a run, so a pooled sub-session that took them in this run has them still.
    pub(crate) run_number: u64,
    /// Sub-queries asked, and how many the memo answered.
    pub asked: u64,
    pub memo_hits: u64,
    /// Firings inside sub-queries (all depths).
    pub sub_fired: u64,
    /// The asking session's bounds (`Session::bounds`, kept in step with its options), which
    /// each sub-query keeps too: the firing limit and memory bounds a query is given reach its
    /// what-ifs.
    pub(crate) bounds: [u64; 4],
}

impl WhatIfMemo {
    /// Forgets remembered outcomes (at the start of a fresh query).
    pub fn reset(&mut self) {
        self.run_number += 1;
        self.answers.clear();
        self.memo_inputs.clear();
        self.memo_len = 0;
        self.asked = 0;
        self.memo_hits = 0;
        self.sub_fired = 0;
    }

    /// The remembered answer of this sub-query, if any (each question counted).
    pub(crate) fn recall(&mut self, site: u32, inputs: &[(&str, Value)]) -> Option<Rc<WhatIfOutcome>> {
        self.asked += 1;
        let hash = memo_hash(site, inputs);
        let kept = &self.memo_inputs;
        let hit = self
            .answers
            .get(&hash)
            .and_then(|bucket| bucket.iter().find(|e| e.matches(site, inputs, kept)))?;
        self.memo_hits += 1;
        Some(hit.outcome.clone())
    }

    /// Remembers the answer of a sub-query (all answers are forgotten past `MEMO_LIMIT`).
    pub(crate) fn remember(&mut self, site: u32, inputs: &[(&str, Value)], outcome: Rc<WhatIfOutcome>) {
        if self.memo_len >= MEMO_LIMIT {
            self.answers.clear();
            self.memo_inputs.clear();
            self.memo_len = 0;
        }
        let start = self.memo_inputs.len() as u32;
        self.memo_inputs.extend(inputs.iter().map(|(_, v)| v.clone()));
        let entry = MemoEntry {
            site,
            inputs: (start, self.memo_inputs.len() as u32),
            outcome,
        };
        self.answers.entry(memo_hash(site, inputs)).or_default().push(entry);
        self.memo_len += 1;
    }

    /// The condition numbered `site`, once `resolve_site` has resolved it.
    pub(crate) fn site(&self, site: u32) -> &Site {
        match self.sites.get(site as usize) {
            Some(Some(at)) => at,
            _ => unreachable!("resolve_site filled the site"),
        }
    }

    /// Makes sure `self.sites[site]` describes the condition numbered `site` of `current`.
    pub(crate) fn resolve_site(
        &mut self,
        site: u32,
        target: &WhatIfTarget,
        looked_at: &str,
        current: &Program,
    ) -> Result<(), RunError> {
        let owner = current as *const Program as usize;
        let i = site as usize;
        if let Some(Some(known)) = self.sites.get(i) {
            if known.owner == owner {
                return Ok(());
            }
        }
        let (program, inherit) = self.resolve(target, current)?;
        let rel = program.relation(looked_at);
        let mask = match rel {
            Some(rel) => program.relevant_to(rel),
            None => vec![true; program.rules.len()],
        };
        // The very mask of another site that asks the same program for the same rules (every
        // `whatif … yields hand_value` of a rule set): a pooled sub-session recognises its last
        // mask by pointer, and a new pointer made it work out its inputs and triggers again.
        let relevant: Arc<[bool]> = self
            .sites
            .iter()
            .flatten()
            .find(|s| Arc::ptr_eq(&s.program, &program) && *s.relevant == *mask)
            .map_or_else(|| mask.into(), |s| s.relevant.clone());
        let rel = rel.filter(|r| program.outputs.contains(r));
        let looked_at = intern(&mut self.names, looked_at);
        if self.sites.len() <= i {
            self.sites.resize_with(i + 1, || None);
        }
        self.sites[i] = Some(Site {
            owner,
            program,
            inherit,
            relevant,
            slots: None,
            rel,
            looked_at,
        });
        Ok(())
    }

    pub(crate) fn resolve(&self, target: &WhatIfTarget, current: &Program) -> Result<(Arc<Program>, bool), RunError> {
        if self.depth + 1 > MAX_WHATIF_DEPTH {
            return Err(RunError::WhatIfDepth(MAX_WHATIF_DEPTH));
        }
        match target {
            WhatIfTarget::SelfSet => self
                .self_program
                .clone()
                .map(|p| (p, true))
                .ok_or_else(|| RunError::UnknownRuleSet(current.name.clone())),
            WhatIfTarget::Named(n) => self
                .library
                .as_ref()
                .and_then(|l| l.get(n))
                .map(|p| (p, false))
                .ok_or_else(|| RunError::UnknownRuleSet(n.clone())),
        }
    }
}

/// What the matcher asks of a `whatif` condition: the answer of `target` on `inputs` (the session
/// answers, running a sub-session or recalling the memo). `site` numbers the condition,
/// `looked_at` is the relation it matches, `current` the running program and `params` its
/// parameter values, which a run of the rule set itself inherits.
pub(crate) trait SubQueries {
    fn run(
        &mut self,
        site: u32,
        target: &WhatIfTarget,
        looked_at: &str,
        inputs: &[(&str, Value)],
        current: &Program,
        params: &[Value],
    ) -> Result<Rc<WhatIfOutcome>, RunError>;
}
