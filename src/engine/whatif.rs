//! What-if sub-queries (SPEC §3.5): a rule runs a rule set (itself or another) on hypothetical
//! inputs and matches its conclusions. Results are memoised per session by rule set and inputs,
//! and sub-sessions are pooled, so thousands of sub-queries per query stay cheap. Because runs are
//! deterministic, an explanation can re-run a sub-query to show how it concluded.

use super::program::{Program, WhatIfTarget};
use super::session::{RunError, Session};
use super::value::Value;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::sync::Arc;

/// Where `whatif` finds rule sets other than the one running.
pub trait Library: Send + Sync {
    /// The compiled rule set of this name.
    fn get(&self, name: &str) -> Option<Arc<Program>>;
}

/// One output fact of a sub-query: its relation and arguments.
pub type OutputFact = (Arc<str>, SmallVec<[Value; 4]>);

/// The conclusions of one sub-query: its output facts, in the order they were asserted.
#[derive(Debug, Clone, Default)]
pub struct WhatIfOutcome {
    /// (relation, arguments) per output fact. Names are shared with the runner's interned copy
    /// and the usual one or two facts are stored inline: one allocation per sub-query in all.
    pub facts: SmallVec<[OutputFact; 2]>,
    pub fired: u64,
}

/// How deep what-ifs may nest.
pub const MAX_WHATIF_DEPTH: usize = 6;
/// Memo entries kept before the memo is cleared.
const MEMO_LIMIT: usize = 1 << 18;

/// A remembered sub-query: the rule set (None = itself), the relation looked at, the inputs in
/// the order written, and what it concluded.
pub(crate) struct MemoEntry {
    target: Option<Arc<str>>,
    looked_at: Arc<str>,
    inputs: SmallVec<[(Arc<str>, Value); 2]>,
    outcome: Arc<WhatIfOutcome>,
}

impl MemoEntry {
    fn matches(&self, target: Option<&str>, looked_at: &str, inputs: &[(&str, Value)]) -> bool {
        self.target.as_deref() == target
            && &*self.looked_at == looked_at
            && self.inputs.len() == inputs.len()
            && self
                .inputs
                .iter()
                .zip(inputs)
                .all(|((n, v), (m, w))| &**n == *m && v == w)
    }
}

/// The shared copy of `name` (added on first use). The list holds the few names `whatif`s use.
fn intern(names: &mut Vec<Arc<str>>, name: &str) -> Arc<str> {
    if let Some(n) = names.iter().find(|n| &***n == name) {
        return n.clone();
    }
    let n: Arc<str> = Arc::from(name);
    names.push(n.clone());
    n
}

/// The memo's hash of a sub-query, computed from borrowed parts so that a lookup allocates
/// nothing (a hit is the common case: the same hand asked again).
fn memo_hash(target: Option<&str>, looked_at: &str, inputs: &[(&str, Value)]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    target.hash(&mut h);
    looked_at.hash(&mut h);
    for (n, v) in inputs {
        n.hash(&mut h);
        v.hash(&mut h);
    }
    h.finish()
}

/// Runs and remembers sub-queries for one session.
#[derive(Default)]
pub struct WhatIfRunner {
    pub(crate) library: Option<Arc<dyn Library>>,
    pub(crate) self_program: Option<Arc<Program>>,
    pub(crate) depth: usize,
    /// Remembered sub-queries by `memo_hash`; entries with equal hashes share a bucket.
    pub(crate) memo: FxHashMap<u64, SmallVec<[MemoEntry; 1]>>,
    pub(crate) memo_len: usize,
    /// Per (rule set, relation looked at): the rules that can matter (see `Program::relevant_to`).
    /// Kept across runs: it depends only on the program. A short list (one entry per `whatif`
    /// target and relation), searched without building a key.
    pub(crate) relevance: Vec<(usize, String, Arc<[bool]>)>,
    /// Names (rule sets, relations, inputs) the memo and outcomes refer to, each stored once
    /// for the runner's lifetime: a sub-query then shares them instead of allocating copies.
    pub(crate) names: Vec<Arc<str>>,
    #[allow(clippy::vec_box)] // sessions are large and move in and out of the pool by pointer
    pub(crate) pool: Vec<Box<Session>>,
    /// Sub-queries asked, and how many the memo answered.
    pub asked: u64,
    pub memo_hits: u64,
    /// Firings inside sub-queries (all depths).
    pub sub_fired: u64,
}

impl WhatIfRunner {
    /// Forgets remembered outcomes (at the start of a fresh query).
    pub fn reset(&mut self) {
        self.memo.clear();
        self.memo_len = 0;
        self.asked = 0;
        self.memo_hits = 0;
        self.sub_fired = 0;
    }

    /// Runs (or recalls) `target` on `inputs`. `current` is the running program and `params` its
    /// parameter values, which a run of the rule set itself inherits.
    pub fn run(
        &mut self,
        target: &WhatIfTarget,
        looked_at: &str,
        inputs: &[(&str, Value)],
        current: &Program,
        params: &[Value],
    ) -> Result<Arc<WhatIfOutcome>, RunError> {
        self.asked += 1;
        let target_name = match target {
            WhatIfTarget::SelfSet => None,
            WhatIfTarget::Named(n) => Some(n.as_str()),
        };
        let hash = memo_hash(target_name, looked_at, inputs);
        if let Some(hit) = self
            .memo
            .get(&hash)
            .and_then(|bucket| bucket.iter().find(|e| e.matches(target_name, looked_at, inputs)))
        {
            self.memo_hits += 1;
            return Ok(hit.outcome.clone());
        }
        let (program, inherit) = self.resolve(target, current)?;
        let relevant = {
            let id = Arc::as_ptr(&program) as usize;
            match self.relevance.iter().find(|(p, r, _)| *p == id && r == looked_at) {
                Some((_, _, r)) => r.clone(),
                None => {
                    let mask: Arc<[bool]> = match program.relation(looked_at) {
                        Some(rel) => program.relevant_to(rel).into(),
                        None => vec![true; program.rules.len()].into(),
                    };
                    self.relevance.push((id, looked_at.to_string(), mask.clone()));
                    mask
                }
            }
        };
        let mut sub = self.take_session(&program)?;
        sub.reset();
        sub.set_relevant(Some(relevant));
        if inherit {
            sub.copy_param_values(params);
        } else {
            sub.copy_param_values(&program.default_params());
        }
        for (name, v) in inputs {
            sub.set_input(name, v.clone())?;
        }
        let result = sub.run();
        let outcome = result.map(|r| {
            self.sub_fired += r.stats.fired + r.stats.whatif_fired;
            let mut facts = SmallVec::new();
            sub.for_each_output(|name, args| facts.push((intern(&mut self.names, name), SmallVec::from(args))));
            Arc::new(WhatIfOutcome {
                facts,
                fired: r.stats.fired,
            })
        });
        self.pool.push(sub);
        let outcome = outcome?;
        if self.memo_len >= MEMO_LIMIT {
            self.memo.clear();
            self.memo_len = 0;
        }
        let entry = MemoEntry {
            target: target_name.map(|t| intern(&mut self.names, t)),
            looked_at: intern(&mut self.names, looked_at),
            inputs: inputs
                .iter()
                .map(|(n, v)| (intern(&mut self.names, n), v.clone()))
                .collect(),
            outcome: outcome.clone(),
        };
        self.memo.entry(hash).or_default().push(entry);
        self.memo_len += 1;
        Ok(outcome)
    }

    /// A fresh session for a sub-query, run to the end, for explanations.
    pub fn replay(
        &mut self,
        target: &WhatIfTarget,
        inputs: &[(String, Value)],
        current: &Program,
        params: &[Value],
    ) -> Result<Session, RunError> {
        let (program, inherit) = self.resolve(target, current)?;
        let mut sub = Session::with_library(program.clone(), self.library.clone(), self.depth + 1);
        if inherit {
            sub.set_param_values(params.to_vec());
        }
        for (name, v) in inputs {
            sub.set_input(name, v.clone())?;
        }
        sub.run()?;
        Ok(sub)
    }

    fn resolve(&self, target: &WhatIfTarget, current: &Program) -> Result<(Arc<Program>, bool), RunError> {
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

    fn take_session(&mut self, program: &Arc<Program>) -> Result<Box<Session>, RunError> {
        if let Some(i) = self.pool.iter().position(|s| Arc::ptr_eq(s.program(), program)) {
            return Ok(self.pool.swap_remove(i));
        }
        let mut sub = Session::with_library(program.clone(), self.library.clone(), self.depth + 1);
        // Nobody reads a pooled sub-query's run time: skip the two clock reads per run.
        sub.set_timed(false);
        Ok(Box::new(sub))
    }
}
