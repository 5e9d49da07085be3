//! What-if sub-queries (docs/semantics.md): a rule runs a rule set (itself or another) on hypothetical
//! inputs and matches its conclusions. Results are memoised per session by rule set and inputs,
//! and sub-sessions are pooled, so thousands of sub-queries per query stay cheap. Because runs are
//! deterministic, an explanation can re-run a sub-query to show how it concluded.

use super::program::{Program, WhatIfTarget};
use super::session::{RunError, Session};
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
const MEMO_LIMIT: usize = 1 << 18;

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
    owner: usize,
    program: Arc<Program>,
    /// Whether the sub-query inherits the asking run's parameters (a run of the rule set itself).
    inherit: bool,
    /// The target's rules that can matter to the relation looked at.
    relevant: Arc<[bool]>,
    /// The target's input number of each input the condition passes, in the order written
    /// (found at the first sub-query, whose session reports a name that is not an input).
    slots: Option<SmallVec<[u16; 2]>>,
    /// The relation looked at, when it is one of the target's outputs (else nothing matches).
    rel: Option<super::program::RelId>,
    looked_at: Rc<str>,
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

/// Runs and remembers sub-queries for one session.
#[derive(Default)]
pub(crate) struct WhatIfRunner {
    pub(crate) library: Option<Arc<dyn Library>>,
    pub(crate) self_program: Option<Arc<Program>>,
    pub(crate) depth: usize,
    /// Remembered sub-queries by `memo_hash`; entries with equal hashes share a bucket.
    pub(crate) memo: FxHashMap<u64, SmallVec<[MemoEntry; 1]>>,
    pub(crate) memo_len: usize,
    /// The remembered sub-queries' input values, entry after entry.
    pub(crate) memo_inputs: Vec<Value>,
    /// The `whatif` conditions resolved so far, by site number. Kept across runs: a site depends
    /// only on the program.
    pub(crate) sites: Vec<Option<Site>>,
    /// Relation names the outcomes refer to, each stored once for the runner's lifetime.
    pub(crate) names: Vec<Rc<str>>,
    #[allow(clippy::vec_box)] // sessions are large and move in and out of the pool by pointer
    pub(crate) pool: Vec<Box<Session>>,
    /// The number of the asking session's run (counted by `reset`): the parameters cannot change
    /// during a run, so a pooled sub-session that took them in this run has them still.
    pub(crate) run_number: u64,
    /// Sub-queries asked, and how many the memo answered.
    pub asked: u64,
    pub memo_hits: u64,
    /// Firings inside sub-queries (all depths).
    pub sub_fired: u64,
    /// The asking session's bounds ([`Session::bounds`], kept in step with its options), which
    /// each sub-query keeps too: the firing limit and memory bounds a query is given reach its
    /// what-ifs.
    pub(crate) bounds: [u64; 4],
}

impl WhatIfRunner {
    /// Forgets remembered outcomes (at the start of a fresh query).
    pub fn reset(&mut self) {
        self.run_number += 1;
        self.memo.clear();
        self.memo_inputs.clear();
        self.memo_len = 0;
        self.asked = 0;
        self.memo_hits = 0;
        self.sub_fired = 0;
    }

    /// Runs (or recalls) `target` on `inputs` for the `whatif` condition numbered `site`.
    /// `current` is the running program and `params` its parameter values, which a run of the
    /// rule set itself inherits.
    pub fn run(
        &mut self,
        site: u32,
        target: &WhatIfTarget,
        looked_at: &str,
        inputs: &[(&str, Value)],
        current: &Program,
        params: &[Value],
    ) -> Result<Rc<WhatIfOutcome>, RunError> {
        self.asked += 1;
        let hash = memo_hash(site, inputs);
        let kept = &self.memo_inputs;
        if let Some(hit) = self
            .memo
            .get(&hash)
            .and_then(|bucket| bucket.iter().find(|e| e.matches(site, inputs, kept)))
        {
            self.memo_hits += 1;
            return Ok(hit.outcome.clone());
        }
        self.resolve_site(site, target, looked_at, current)?;
        let mut sub = self.session_for(site);
        let Some(Some(at)) = self.sites.get(site as usize) else {
            unreachable!("resolve_site filled the site")
        };
        sub.reset();
        sub.set_relevant(Some(&at.relevant));
        // Once per run of the asking session and kind of site: a copy compared ~20 values per
        // sub-query (~1% of a durak game).
        let stamp = (self.run_number, at.inherit);
        if sub.params_stamp != Some(stamp) {
            if at.inherit {
                sub.copy_param_values(params);
            } else {
                sub.copy_param_values(&at.program.default_params());
            }
            // Nor can the bounds change during a run.
            sub.set_bounds(self.bounds);
            sub.params_stamp = Some(stamp);
        }
        let given = self.give_inputs(site, &mut sub, inputs);
        // A sub-query cut short by a budget has no answer to give: the asking run stops too.
        let result = given.and_then(|()| sub.run()).and_then(|r| match r.stop.is_budget() {
            true => Err(RunError::Budget(r.stop)),
            false => Ok(r),
        });
        let outcome = result.map(|r| {
            self.sub_fired += r.stats.fired + r.stats.whatif_fired;
            // Filled where it lives: the outcome is a few hundred bytes, and one built aside and
            // moved in stalled on store forwarding.
            let mut outcome = Rc::new(WhatIfOutcome { facts: SmallVec::new() });
            if let (
                Some(Some(Site {
                    rel: Some(rel),
                    looked_at,
                    ..
                })),
                Some(filled),
            ) = (self.sites.get(site as usize), Rc::get_mut(&mut outcome))
            {
                sub.for_each_fact(*rel, |args| {
                    filled.facts.push((looked_at.clone(), SmallVec::from(args)))
                });
            }
            outcome
        });
        self.pool.push(sub);
        let outcome = outcome?;
        if self.memo_len >= MEMO_LIMIT {
            self.memo.clear();
            self.memo_inputs.clear();
            self.memo_len = 0;
        }
        let start = self.memo_inputs.len() as u32;
        self.memo_inputs.extend(inputs.iter().map(|(_, v)| v.clone()));
        let entry = MemoEntry {
            site,
            inputs: (start, self.memo_inputs.len() as u32),
            outcome: outcome.clone(),
        };
        self.memo.entry(hash).or_default().push(entry);
        self.memo_len += 1;
        Ok(outcome)
    }

    /// Makes sure `self.sites[site]` describes the condition numbered `site` of `current`.
    fn resolve_site(
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

    /// Gives a sub-query's session its inputs, by the slots the site knows (found by name the
    /// first time, when an unknown name is reported as `set_input` reports it).
    fn give_inputs(&mut self, site: u32, sub: &mut Session, inputs: &[(&str, Value)]) -> Result<(), RunError> {
        let Some(Some(at)) = self.sites.get_mut(site as usize) else {
            unreachable!("resolve_site filled the site")
        };
        if at.slots.is_none() {
            let mut slots = SmallVec::new();
            for (name, _) in inputs {
                slots.push(sub.input_index(name)? as u16);
            }
            at.slots = Some(slots);
        }
        let slots = at.slots.as_deref().unwrap_or_default();
        for (&slot, (_, v)) in slots.iter().zip(inputs) {
            sub.set_input_at(slot as usize, v.clone())?;
        }
        Ok(())
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
        sub.set_bounds(self.bounds);
        if inherit {
            sub.set_param_values(params.to_vec());
        }
        for (name, v) in inputs {
            sub.set_input(name, v.clone())?;
        }
        let result = sub.run()?;
        // A sub-query a budget cut short concluded only part of what it would: not an explanation.
        if result.stop.is_budget() {
            return Err(RunError::Budget(result.stop));
        }
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

    /// A pooled (or new) session for a sub-query of the resolved `site`.
    fn session_for(&mut self, site: u32) -> Box<Session> {
        let Some(Some(at)) = self.sites.get(site as usize) else {
            unreachable!("resolve_site filled the site")
        };
        if let Some(i) = self.pool.iter().position(|s| Arc::ptr_eq(s.program(), &at.program)) {
            return self.pool.swap_remove(i);
        }
        let mut sub = Session::with_library(at.program.clone(), self.library.clone(), self.depth + 1);
        // Nobody reads a pooled sub-query's run time nor its firing records (an explanation runs
        // the sub-query again): skip the clock reads and the records.
        sub.set_timed(false);
        sub.set_recording(false);
        Box::new(sub)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::load_text;

    /// Sites that ask the same program for the same relation share one mask (a pooled
    /// sub-session then recognises it by pointer), a site asking for another relation keeps its
    /// own, and the answers are those of separate masks.
    #[test]
    fn sites_asking_for_the_same_rules_share_their_mask() {
        let program = load_text(
            "t",
            r#"ruleset t "t"
            input n: int
            output square, cube, both
            rule Square "square" when n(?n) then assert square(?n * ?n) end
            rule Cube "cube" when n(?n) then assert cube(?n * ?n * ?n) end
            rule Both "for smaller n, asked three times"
            when
                n(?n)
                ?n > 1
                ?k = range(1, ?n - 1)
                whatif t(n: ?k) yields square(?s)
                whatif t(n: ?k + 1) yields cube(?c)
                whatif t(n: ?k + 2) yields square(?q)
            then assert both(?k, ?s, ?c, ?q)
            end"#,
        )
        .unwrap();
        let mut session = Session::new(program);
        session.set_input_text("n", "3").unwrap();
        session.run().unwrap();
        let both: Vec<String> = session.facts_of("both").iter().map(|f| format!("{f:?}")).collect();
        assert_eq!(both, ["[1, 1, 8, 9]", "[2, 4, 27, 16]"]);
        let masks: Vec<&Arc<[bool]>> = session.whatif.sites.iter().flatten().map(|s| &s.relevant).collect();
        assert_eq!(masks.len(), 3);
        assert!(Arc::ptr_eq(masks[0], masks[2]), "the two `square` sites share a mask");
        assert!(!Arc::ptr_eq(masks[0], masks[1]));
        assert_ne!(**masks[0], **masks[1], "`cube` needs other rules");
    }

    /// A pooled sub-session takes the asking session's parameters once per run: a parameter set
    /// between two runs reaches the sub-queries of the second.
    #[test]
    fn sub_queries_see_the_parameters_of_each_run() {
        let program = load_text(
            "t",
            r#"ruleset t "t"
            input n: int
            output scaled, sum
            param k = 2 "scale"
            rule Scale "scale" when n(?n) then assert scaled(?n * k) end
            rule Sum "scaled smaller n"
            when
                n(?n)
                ?n > 1
                ?m = range(1, ?n - 1)
                whatif self(n: ?m) yields scaled(?s)
            then assert part(?m, ?s)
            end
            rule Total "total" salience -1 when n(?n) ?n > 1 ?t = sum ?s { part(_, ?s) } then assert sum(?t) end"#,
        )
        .unwrap();
        let mut session = Session::new(program);
        session.set_input_text("n", "4").unwrap();
        let mut sums = Vec::new();
        for k in ["2", "5", "5", "1"] {
            session.set_param("k", k).unwrap();
            session.run().unwrap();
            sums.push(format!("{:?}", session.facts_of("sum")));
        }
        assert_eq!(sums, ["[[12]]", "[[30]]", "[[30]]", "[[6]]"]);
    }
}
