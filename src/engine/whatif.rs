//! What-if sub-queries (SPEC §3.5): a rule runs a rule set (itself or another) on hypothetical
//! inputs and matches its conclusions. Results are memoised per session by rule set and inputs,
//! and sub-sessions are pooled, so thousands of sub-queries per query stay cheap. Because runs are
//! deterministic, an explanation can re-run a sub-query to show how it concluded.

use super::program::{Program, WhatIfTarget};
use super::session::{RunError, Session};
use super::value::Value;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Where `whatif` finds rule sets other than the one running.
pub trait Library: Send + Sync {
    /// The compiled rule set of this name.
    fn get(&self, name: &str) -> Option<Arc<Program>>;
}

/// The conclusions of one sub-query: its output facts, in the order they were asserted.
#[derive(Debug, Clone, Default)]
pub struct WhatIfOutcome {
    pub facts: Vec<(String, Vec<Value>)>,
    pub fired: u64,
}

/// How deep what-ifs may nest.
pub const MAX_WHATIF_DEPTH: usize = 6;
/// Memo entries kept before the memo is cleared.
const MEMO_LIMIT: usize = 1 << 18;

/// A sub-query: the rule set (None = itself), the relation looked at, the inputs.
type Key = (Option<String>, String, Vec<(String, Value)>);

/// Runs and remembers sub-queries for one session.
#[derive(Default)]
pub struct WhatIfRunner {
    pub(crate) library: Option<Arc<dyn Library>>,
    pub(crate) self_program: Option<Arc<Program>>,
    pub(crate) depth: usize,
    pub(crate) memo: FxHashMap<Key, Arc<WhatIfOutcome>>,
    /// Per (rule set, relation looked at): the rules that can matter (see `Program::relevant_to`).
    /// Kept across runs: it depends only on the program.
    pub(crate) relevance: FxHashMap<(usize, String), Arc<[bool]>>,
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
        inputs: Vec<(String, Value)>,
        current: &Program,
        params: &[Value],
    ) -> Result<Arc<WhatIfOutcome>, RunError> {
        self.asked += 1;
        let k = (target_name(target), looked_at.to_string(), inputs);
        if let Some(hit) = self.memo.get(&k) {
            self.memo_hits += 1;
            return Ok(hit.clone());
        }
        let (program, inherit) = self.resolve(target, current)?;
        let relevant = {
            let rk = (Arc::as_ptr(&program) as usize, looked_at.to_string());
            match self.relevance.get(&rk) {
                Some(r) => r.clone(),
                None => {
                    let mask: Arc<[bool]> = match program.relation(looked_at) {
                        Some(rel) => program.relevant_to(rel).into(),
                        None => vec![true; program.rules.len()].into(),
                    };
                    self.relevance.insert(rk, mask.clone());
                    mask
                }
            }
        };
        let mut sub = self.take_session(&program)?;
        sub.reset();
        sub.set_relevant(Some(relevant));
        if inherit {
            sub.set_param_values(params.to_vec());
        } else {
            sub.set_param_values(program.default_params());
        }
        for (name, v) in &k.2 {
            sub.set_input(name, v.clone())?;
        }
        let result = sub.run();
        let outcome = result.map(|r| {
            self.sub_fired += r.stats.fired + r.stats.whatif_fired;
            Arc::new(WhatIfOutcome {
                facts: sub.output_facts(),
                fired: r.stats.fired,
            })
        });
        self.pool.push(sub);
        let outcome = outcome?;
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        self.memo.insert(k, outcome.clone());
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
        Ok(Box::new(Session::with_library(
            program.clone(),
            self.library.clone(),
            self.depth + 1,
        )))
    }
}

fn target_name(t: &WhatIfTarget) -> Option<String> {
    match t {
        WhatIfTarget::SelfSet => None,
        WhatIfTarget::Named(n) => Some(n.clone()),
    }
}
