//! A session runs one rule set: inputs in, the recognise–act loop, conclusions out, with every
//! firing recorded so any conclusion can be explained. Sessions are reusable: `run` starts from an
//! empty working memory each time but keeps every allocation, which is what makes a fresh working
//! memory per hand cheap.

use super::agenda::{Activation, Agenda, NOT_STANDING};
use super::matcher::{self, AggMemo, Ctx, Flow, Frame, IndexSteps, MatchError, MatchErrorKind, PlanSteps};
use super::memory::{FactId, Memory, Origin};
use super::program::*;
pub use super::run::{
    location, EvalError, EvalFailure, MemoryBound, RuleFailure, RuleLocation, RunError, RunOptions, RunResult, Stats,
    StopReason,
};
use super::whatif::{Library, Site, SubQueries, WhatIfMemo, WhatIfOutcome};
use crate::builtins::registry::{BuiltinFailure, Solutions};
use crate::value::Value;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

/// The firing number of a fact concluded by a run that keeps no records (`set_recording`).
const UNRECORDED: u32 = u32::MAX;

/// A session's what-if sub-queries: what it knows of them and the sub-sessions that answer them,
/// pooled by rule set. It lives beside `Session` because it runs sessions.
#[derive(Default)]
pub(crate) struct WhatIfRunner {
    pub(crate) memo: WhatIfMemo,
    #[allow(clippy::vec_box)] // sessions are large and move in and out of the pool by pointer
    pool: Vec<Box<Session>>,
}

impl SubQueries for WhatIfRunner {
    fn run(
        &mut self,
        site: u32,
        target: &WhatIfTarget,
        looked_at: &str,
        inputs: &[(&str, Value)],
        current: &Program,
        params: &[Value],
    ) -> Result<Rc<WhatIfOutcome>, RunError> {
        if let Some(hit) = self.memo.recall(site, inputs) {
            return Ok(hit);
        }
        self.memo.resolve_site(site, target, looked_at, current)?;
        let mut sub = self.session_for(site);
        let at = self.memo.site(site);
        sub.reset();
        sub.set_relevant(Some(&at.relevant));
        // Once per run of the asking session and kind of site: a copy compared ~20 values per
        // sub-query (~1% of a durak game).
        let stamp = (self.memo.run_number, at.inherit);
        if sub.params_stamp != Some(stamp) {
            if at.inherit {
                sub.copy_param_values(params);
            } else {
                sub.copy_param_values(&at.program.default_params());
            }
            // Nor can the bounds change during a run.
            sub.set_bounds(self.memo.bounds);
            sub.params_stamp = Some(stamp);
        }
        let given = self.give_inputs(site, &mut sub, inputs);
        // A sub-query cut short by a budget has no answer to give: the asking run stops too.
        let result = given.and_then(|()| sub.run()).and_then(|r| match r.stop.is_budget() {
            true => Err(RunError::Budget(r.stop)),
            false => Ok(r),
        });
        let outcome = result.map(|r| {
            self.memo.sub_fired += r.stats.fired + r.stats.whatif_fired;
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
            ) = (self.memo.sites.get(site as usize), Rc::get_mut(&mut outcome))
            {
                sub.for_each_fact(*rel, |args| {
                    filled.facts.push((looked_at.clone(), SmallVec::from(args)))
                });
            }
            outcome
        });
        self.pool.push(sub);
        let outcome = outcome?;
        self.memo.remember(site, inputs, outcome.clone());
        Ok(outcome)
    }
}

impl WhatIfRunner {
    /// A runner of the same rule sets and bounds with nothing pooled or remembered, for the
    /// sub-queries an explanation runs without changing the session it explains.
    pub(crate) fn detached(&self) -> WhatIfRunner {
        WhatIfRunner {
            memo: WhatIfMemo {
                library: self.memo.library.clone(),
                self_program: self.memo.self_program.clone(),
                depth: self.memo.depth,
                bounds: self.memo.bounds,
                ..WhatIfMemo::default()
            },
            pool: Vec::new(),
        }
    }

    /// Gives a sub-query's session its inputs, by the slots the site knows (found by name the
    /// first time, when an unknown name is reported as `set_input` reports it).
    fn give_inputs(&mut self, site: u32, sub: &mut Session, inputs: &[(&str, Value)]) -> Result<(), RunError> {
        let Some(Some(at)) = self.memo.sites.get_mut(site as usize) else {
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
    pub(crate) fn replay(
        &self,
        target: &WhatIfTarget,
        inputs: &[(String, Value)],
        current: &Program,
        params: &[Value],
    ) -> Result<Session, RunError> {
        let (program, inherit) = self.memo.resolve(target, current)?;
        let mut sub = Session::with_library(program.clone(), self.memo.library.clone(), self.memo.depth + 1);
        sub.set_bounds(self.memo.bounds);
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

    /// A pooled (or new) session for a sub-query of the resolved `site`.
    fn session_for(&mut self, site: u32) -> Box<Session> {
        let at = self.memo.site(site);
        if let Some(i) = self.pool.iter().position(|s| Arc::ptr_eq(s.program(), &at.program)) {
            return self.pool.swap_remove(i);
        }
        let mut sub = Session::with_library(at.program.clone(), self.memo.library.clone(), self.memo.depth + 1);
        // Nobody reads a pooled sub-query's run time nor its firing records (an explanation runs
        // the sub-query again): skip the clock reads and the records.
        sub.set_timed(false);
        sub.set_recording(false);
        Box::new(sub)
    }
}

/// Where the facts a firing matched are, for the actions that name one by its handle.
#[derive(Clone, Copy)]
enum Matched {
    /// In the agenda's arena (an activation's, or a record's).
    Stored((u32, u32)),
    /// In `Session::frame.facts`, until the first action joins a new fact.
    Frame,
}

/// Where the bindings a rule's actions read are.
#[derive(Clone, Copy)]
enum Bindings {
    /// In the agenda's arena (an activation's slots, or a record's).
    Stored((u32, u32)),
    /// The first `n` of `Session::found.vars` (lent there by an unrecorded firing).
    Spare(usize),
}

/// One firing: the rule, its bindings, and the facts it matched (by condition index).
#[derive(Debug, Clone)]
pub struct Firing {
    /// The rule, by its index in the program.
    pub rule: u32,
    /// Which of its variables are bound (bit `i` for variable `i`).
    pub mask: u64,
    vars: (u32, u32),
    facts: (u32, u32),
}

/// One step of a trace.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum TraceEvent {
    /// A rule fired.
    Fired {
        /// The firing's number ([`Session::firing`]).
        firing: u32,
    },
    /// A selected activation did not fire.
    Dropped {
        /// The rule, by its index in the program.
        rule: u32,
        /// The condition that failed, with its values.
        reason: String,
    },
    /// A firing retracted a fact.
    Retracted {
        /// The fact.
        fact: FactId,
        /// The firing that retracted it.
        firing: u32,
    },
    /// A fact asserted with `assert logical` lost its last support (the match of each firing
    /// that asserted it no longer holds), and was retracted.
    Withdrawn {
        /// The fact.
        fact: FactId,
        /// The firing whose action ended the support.
        firing: u32,
    },
    /// A firing modified a fact: `old` was retracted and `new` asserted in its place (`new` is
    /// `None` when an equal fact was already there).
    Modified {
        /// The fact as it was.
        old: FactId,
        /// The fact as it is now.
        new: Option<FactId>,
        /// The firing that modified it.
        firing: u32,
    },
}

/// Spent activations and retracted facts a run may keep before `Session::collect_garbage`
/// frees them (below this, freeing costs more than it saves).
const GARBAGE_SLACK: usize = 4096;

/// A selected activation that lost: the condition that failed when its turn came and the
/// bindings there, so a why-not judges it as of that moment, not by the final memory.
#[derive(Debug, Clone)]
pub(crate) struct DropRecord {
    pub rule: u32,
    /// The condition that failed (index in the order written), when one could be told.
    pub cond: Option<u16>,
    pub vars: Vec<Value>,
    pub mask: u64,
    /// When it lost to its first-match group: the rule the group chose and that rule's firing
    /// ([`UNRECORDED`] when the run kept no records).
    pub group: Option<(u32, u32)>,
    /// Which drop of the run it was (later drops have larger numbers).
    pub seq: u64,
}

/// A conclusion: an output fact.
#[derive(Debug, Clone)]
pub struct Conclusion {
    /// The output relation.
    pub relation: String,
    /// Its arguments.
    pub args: Vec<Value>,
    /// The fact, for `Explainer::explain`.
    pub fact: FactId,
}

impl std::fmt::Display for Conclusion {
    /// `category(3, "full house")`: the relation and its arguments as a rule file would write them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}(", self.relation)?;
        for (i, a) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{a}")?;
        }
        f.write_str(")")
    }
}

/// A rule set being queried.
pub struct Session {
    prog: Arc<Program>,
    /// A second handle on `prog`, lent to each run for its duration (moved out and back): a
    /// clone would cost an atomic increment and decrement per run, and a stud classification,
    /// or each what-if sub-query, is a run of a few hundred nanoseconds.
    lent: Option<Arc<Program>>,
    /// The deadline the last run ran under, which its why-not and explanations share.
    pub(crate) deadline: Option<Instant>,
    params: Vec<Value>,
    inputs: Vec<Option<Value>>,
    pub(crate) mem: Memory,
    agenda: Agenda,
    /// The firings' records; their bindings and matched facts are in the agenda's arenas.
    firings: Vec<Firing>,
    fired_per_rule: Vec<u64>,
    trace: Vec<TraceEvent>,
    /// Activations dropped when selected, with the check that failed (kept when recording):
    /// per rule, the last lost to its group and the last lost to a condition, in the order
    /// each rule first lost so (a why-not and the passed-over list read no more).
    pub(crate) drops: Vec<DropRecord>,
    /// Per rule: where in `drops` its record lost to a group, and to a condition, are.
    drop_at: Vec<[u32; 2]>,
    /// The values of aggregates that depend on memory alone, for the selections of a run.
    memo: AggMemo,
    pub(crate) whatif: WhatIfRunner,
    /// For a pooled what-if sub-session: the asking run (`WhatIfRunner::run_number`) and kind of
    /// site (inheriting or not) its parameters were last copied for.
    pub(crate) params_stamp: Option<(u64, bool)>,
    /// When a what-if looks at one relation only: the rules that can matter to it (the others
    /// are never seeded). None = every rule.
    relevant: Option<Arc<[bool]>>,
    /// Under a `relevant` mask: which inputs some relevant rule reads, computed once per mask
    /// (kept with the mask it was computed for). An input no relevant rule reads is not
    /// asserted: nothing that runs could match it.
    read_inputs: Option<(Arc<[bool]>, Vec<bool>)>,
    /// The program's triggers without the rules the `relevant` mask leaves out, per relation
    /// (kept with `read_inputs`): a new fact then visits only rules that can matter. A stud
    /// hand seeds 14 rules, of which a query for `category` needs nine.
    relevant_triggers: Vec<Vec<Trigger>>,
    /// The program's `input_triggers` without the rules the `relevant` mask leaves out.
    relevant_input_triggers: Vec<Vec<Trigger>>,
    /// The seeds a new fact visits when its relation's are indexed (see `TriggerIndex`).
    picked: Vec<Trigger>,
    /// This run's outputs declared `one` that have an answer, with the rule that concluded it.
    answered: Vec<(RelId, String)>,
    /// Per first-match group: the rule this run chose and its firing (empty for a rule set
    /// without groups).
    pub(crate) chosen: Vec<Option<(u32, u32)>>,
    /// Per gate (`Program::gates`): the stamp of its relation when it was last looked at, and
    /// whether a live fact matched it then.
    gates: Vec<((u32, u32), bool)>,
    frame: Frame,
    /// Where a selection-time match's mask and matched facts are copied (kept to reuse its
    /// allocation); its values stay in `frame`, which a stopped search leaves as they were.
    found: Frame,
    /// Per shared call of the relation a new fact belongs to (`Program::shared_calls`): its
    /// solutions when it was made for the fact being joined. Reused for every new fact.
    shared_solutions: Vec<Solutions>,
    opts: RunOptions,
    stats: Stats,
    /// The firing count at which the budgets are looked at next (the firing limit, the clock),
    /// brought closer by each drop (`count_drop`).
    next_check: u64,
    /// Value cells the facts of this run hold (see [`RunOptions::max_cells`]).
    cells: u64,
    /// Measure `Stats::micros` (see `set_timed`).
    timed: bool,
    /// Keep each firing's record for explanations (see `set_recording`).
    recording: bool,
    /// The memory bound that stopped this run, if one did.
    bound: Option<MemoryBound>,
    /// Activations selected once whose negations or aggregates may judge differently when
    /// facts change: they come back then (see `wake`).
    standing: Vec<Standing>,
    /// Per relation: the standing activations a retraction of one of its facts brings back,
    /// and those an assertion brings back.
    stand_on_retract: Vec<Vec<u32>>,
    stand_on_assert: Vec<Vec<u32>>,
    /// Firings with an `assert logical`, in the order fired: what each supports, and whether
    /// its match still holds (see `maintain`).
    supports: Vec<Support>,
    /// The facts asserted logically and never plainly: how many supports each has.
    logical: rustc_hash::FxHashMap<FactId, u32>,
    /// Per fact a support matched: the supports its retraction ends.
    support_of_fact: rustc_hash::FxHashMap<FactId, smallvec::SmallVec<[u32; 2]>>,
    /// Per relation: the supports whose selection reads it.
    support_on_rel: Vec<Vec<u32>>,
    /// Supports to look at again, first made first (see `maintain`).
    candidates: std::collections::BTreeSet<u32>,
    maintaining: bool,
    /// With firing records: how each fact that went went, and by which firing (why-not tells
    /// what became of a rule's conclusions).
    pub(crate) ended: rustc_hash::FxHashMap<FactId, (u32, Ending)>,
    /// Standing activations no longer live (a fact they matched was retracted, or they can
    /// never fire again), freed by `collect_garbage`.
    standing_dead: usize,
    stand_vals: Vec<Value>,
    stand_facts: Vec<(u16, FactId)>,
    /// The relations whose `stand_on_*` lists hold anything (emptied at the next run).
    stand_touched: Vec<RelId>,
    /// Retractions at the last sweep of waiting activations, and the activations left waiting
    /// (see `collect_garbage`).
    swept_at: usize,
    swept_pending: usize,
    /// The matches of a reordered join, put back in the written join's order before they go on
    /// the agenda (kept to reuse its allocation).
    batch: Vec<Reordered>,
}

/// How a fact left working memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Ending {
    Retracted,
    /// Replaced by a `modify` (by this fact, unless an equal one was there).
    Modified(Option<FactId>),
    /// A logical fact whose supports all ended.
    Withdrawn,
}

/// A firing of a rule with an `assert logical`: the facts it asserted so last while its match
/// holds (its facts live, its selection satisfied with the same late values).
struct Support {
    rule: u32,
    mask: u64,
    vars: Vec<Value>,
    facts: Vec<(u16, FactId)>,
    supported: Vec<FactId>,
    live: bool,
}

/// An activation of a rule with a negation or an aggregate, kept once selected: when a fact
/// of a relation those read is retracted or asserted, it comes back as a new activation and is
/// judged again (see `Session::wake`).
struct Standing {
    rule: u32,
    mask: u64,
    /// Its bindings as the join made them, and its facts, at these ranges of
    /// `Session::stand_vals` and `stand_facts` (one arena for all: no allocation each).
    vars: (u32, u32),
    facts: (u32, u32),
    /// The values of its late bindings the first time it fired, a range of `stand_vals` (empty
    /// if it has not fired), then those of each later firing, one after the other (refraction is
    /// per value).
    first: (u32, u32),
    fired: Vec<Value>,
    has_fired: bool,
    /// Brought back and not yet selected again.
    queued: bool,
    live: bool,
}

/// A match of a reordered join (`Seed::reordered`), waiting to be put in the written order.
struct Reordered {
    /// Its facts' ids in the order the written join iterates them: the seed's, then the other
    /// patterns' by condition.
    key: smallvec::SmallVec<[FactId; 8]>,
    mask: u64,
    vars: Vec<Value>,
    /// (condition, fact), in the same order as `key`.
    facts: Vec<(u16, FactId)>,
}

impl Reordered {
    fn of(fr: &Frame, nvars: usize, seed: u16) -> Reordered {
        let mut facts = fr.facts.clone();
        facts.sort_by_key(|&(c, _)| (c != seed, c));
        Reordered {
            key: facts.iter().map(|&(_, f)| f).collect(),
            mask: fr.mask,
            vars: fr.vars[..nvars].to_vec(),
            facts,
        }
    }
}

/// Pushes a reordered join's matches in the order the written join would have made them (each
/// pattern's facts oldest first, patterns nested in the order written), each variable taken from
/// the pattern written first to bind it. Returns a budget stop, if one was reached.
fn push_in_written_order(
    batch: &mut [Reordered],
    rebind: &[(Slot, u16, u16)],
    mem: &Memory,
    agenda: &mut Agenda,
    rule_idx: u32,
    elided: u64,
    max_activations: usize,
) -> Option<StopReason> {
    batch.sort_by(|a, b| a.key.cmp(&b.key));
    for m in batch.iter_mut() {
        for &(slot, cond, pos) in rebind {
            if let Some(&(_, f)) = m.facts.iter().find(|(c, _)| *c == cond) {
                if let (Some(v), Some(arg)) = (m.vars.get_mut(slot as usize), mem.args_of(f).get(pos as usize)) {
                    *v = arg.clone();
                }
            }
        }
        agenda.push(rule_idx, m.mask, elided, &m.vars, &m.facts);
        let created = agenda.created();
        if created.is_multiple_of(4096) || agenda.pending() > max_activations {
            if let Some(stop) = activation_budget(agenda.pending(), max_activations) {
                return Some(stop);
            }
        }
    }
    None
}

impl Session {
    /// A session with no library: `whatif` may only call the rule set itself.
    pub fn new(program: Arc<Program>) -> Session {
        Session::with_library(program, None, 0)
    }

    /// A session whose `whatif`s find other rule sets in `library`.
    pub fn with_library(program: Arc<Program>, library: Option<Arc<dyn Library>>, depth: usize) -> Session {
        let nvars = program.rules.iter().map(|r| r.var_names.len()).max().unwrap_or(0);
        Session {
            params: program.default_params(),
            inputs: vec![None; program.inputs.len()],
            mem: Memory::new(program.matching.probed.clone()),
            agenda: Agenda::new(
                &program.rules.iter().map(|r| r.salience).collect::<Vec<_>>(),
                &program.rules.iter().map(|r| r.group.is_some()).collect::<Vec<_>>(),
                program.strategy,
            ),
            firings: Vec::new(),
            fired_per_rule: vec![0; program.rules.len()],
            trace: Vec::new(),
            drops: Vec::new(),
            drop_at: vec![[u32::MAX; 2]; program.rules.len()],
            memo: AggMemo::new(program.memos as usize),
            relevant: None,
            read_inputs: None,
            relevant_triggers: Vec::new(),
            relevant_input_triggers: Vec::new(),
            gates: vec![((u32::MAX, u32::MAX), false); program.matching.gates.len()],
            picked: Vec::new(),
            answered: Vec::new(),
            chosen: vec![None; program.groups.len()],
            whatif: WhatIfRunner {
                memo: WhatIfMemo {
                    library,
                    self_program: Some(program.clone()),
                    depth,
                    bounds: {
                        let o = RunOptions::default();
                        [o.firing_limit, o.max_facts, o.max_cells, o.max_activations]
                    },
                    ..WhatIfMemo::default()
                },
                pool: Vec::new(),
            },
            params_stamp: None,
            frame: Frame::with_vars(nvars),
            found: Frame::with_vars(nvars),
            shared_solutions: Vec::new(),
            opts: RunOptions::default(),
            stats: Stats::default(),
            next_check: 0,
            cells: 0,
            timed: true,
            recording: true,
            bound: None,
            standing: Vec::new(),
            stand_on_retract: vec![Vec::new(); program.relations.len()],
            stand_on_assert: vec![Vec::new(); program.relations.len()],
            standing_dead: 0,
            stand_vals: Vec::new(),
            stand_facts: Vec::new(),
            stand_touched: Vec::new(),
            supports: Vec::new(),
            logical: Default::default(),
            support_of_fact: Default::default(),
            support_on_rel: vec![Vec::new(); program.relations.len()],
            candidates: Default::default(),
            maintaining: false,
            ended: Default::default(),
            swept_at: 0,
            swept_pending: 0,
            batch: Vec::new(),
            lent: Some(program.clone()),
            deadline: None,
            prog: program,
        }
    }

    /// The rule set.
    pub fn program(&self) -> &Arc<Program> {
        &self.prog
    }

    /// The limits and recording runs use.
    pub fn options(&self) -> &RunOptions {
        &self.opts
    }

    /// Sets limits and recording.
    pub fn set_options(&mut self, opts: RunOptions) {
        self.recording = opts.record || opts.trace || opts.why_not;
        self.opts = opts;
        self.whatif.memo.bounds = self.bounds();
    }

    /// Overrides a parameter from text (`--param bet_big_above=0.8`); the value must have the
    /// declared type (an integer is accepted for a decimal).
    pub fn set_param(&mut self, name: &str, text: &str) -> Result<(), RunError> {
        let Some(i) = self.prog.param_index(name) else {
            let known: Vec<&str> = self
                .prog
                .params
                .iter()
                .filter(|p| !p.constant)
                .map(|p| p.name.as_str())
                .collect();
            return Err(RunError::Param(format!(
                "unknown parameter `{name}` (parameters of `{}`: {})",
                self.prog.name,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        };
        let decl = &self.prog.params[i];
        if decl.constant {
            return Err(RunError::Param(format!("`{name}` is a constant, not a parameter")));
        }
        let t = text.trim();
        let v = match decl.value.value() {
            Value::Int(_) => t.parse::<i64>().ok().map(Value::Int),
            Value::Num(_) => t.parse::<f64>().ok().filter(|n| n.is_finite()).map(Value::Num),
            Value::Bool(_) => match t {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            Value::Str(_) => Some(Value::str(t)),
            Value::List(_) => parse_list(t),
            _ => None,
        };
        match v {
            Some(v) => match &decl.domain {
                Some(domain) if !domain.admits(&v) => Err(RunError::Param(format!(
                    "parameter `{name}` must be {}{domain}, got `{t}`",
                    match domain {
                        ParamDomain::Range(..) => "within ",
                        ParamDomain::OneOf(_) => "",
                    }
                ))),
                _ => {
                    self.params[i] = v;
                    Ok(())
                }
            },
            None => Err(RunError::Param(format!(
                "parameter `{name}` is {}, got `{t}`",
                match decl.value.ty() {
                    crate::value::ValueType::Int => "an integer",
                    crate::value::ValueType::Num => "a number",
                    crate::value::ValueType::Bool => "true or false",
                    crate::value::ValueType::List => "a list like [1, 2.5]",
                    _ => "text",
                }
            ))),
        }
    }

    /// Every parameter back to the rule set's own value (a session reused between queries).
    pub fn reset_params(&mut self) {
        self.params = self.prog.default_params();
    }

    /// All parameter values at once (what-ifs of the rule set itself inherit them).
    pub(crate) fn set_param_values(&mut self, values: Vec<Value>) {
        self.params = values;
    }

    /// Copies parameter values in, reusing the session's vector (what-ifs, once per sub-query).
    pub(crate) fn copy_param_values(&mut self, values: &[Value]) {
        if self.params.len() == values.len() {
            // Usually the very same values as last time: copying a shared value costs two atomic
            // operations, recognising it costs a pointer comparison.
            for (mine, theirs) in self.params.iter_mut().zip(values) {
                if !mine.same(theirs) {
                    mine.clone_from(theirs);
                }
            }
        } else {
            self.params = values.to_vec();
        }
    }

    /// Whether runs keep each firing's record (the rule, its bindings and matched facts: what
    /// explanations, `--trace` and why-not read). On by default. A what-if runner turns it off
    /// for its pooled sub-sessions: a sub-query is explained by running it again (runs are
    /// deterministic), so the record of every sub-run would only be thrown away. Off, the facts a
    /// run concludes name no firing and cannot be explained, and no trace is kept.
    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
    }

    /// Whether `run` measures its duration (`Stats::micros`, on by default). Off, a run skips its
    /// two clock reads (~5% of a stud classification) and reports 0: pooled what-if
    /// sub-sessions, the embedded players and the benchmarks (which time runs themselves) turn it
    /// off.
    pub fn set_timed(&mut self, timed: bool) {
        self.timed = timed;
    }

    /// The current parameter values, in declaration order.
    pub fn params(&self) -> &[Value] {
        &self.params
    }

    /// Gives an input from text, read per its declared type (`hand="8S TD TS 8H 8C"`).
    pub fn set_input_text(&mut self, name: &str, text: &str) -> Result<(), RunError> {
        let i = self.input_index(name)?;
        let decl = &self.prog.inputs[i];
        let v = (decl.parse)(text, &decl.type_args, name).map_err(|source| RunError::BadInput {
            name: name.to_string(),
            source,
        })?;
        if decl.domain.is_some() {
            check_domain(decl, &v, || text.trim().to_string())?;
        }
        self.inputs[i] = Some(v);
        Ok(())
    }

    /// Gives an input as a value (what-ifs and programs embedding kibitzer).
    pub fn set_input(&mut self, name: &str, value: Value) -> Result<(), RunError> {
        let i = self.input_index(name)?;
        self.set_input_at(i, value)
    }

    /// Gives input number `i` (in declaration order; see `input_index`), checked as `set_input`
    /// checks it. For hot loops that give the same input query after query: the name is looked
    /// up once.
    ///
    /// ```
    /// use kibitzer_core::{builtins::Registry, cards::{parse_card, Cards}, engine::session::Session};
    /// use kibitzer_core::value::{Shared, Value};
    /// let rules = "ruleset t\ninput hand: cards(5)\noutput size\n\
    ///              rule Size when hand(?h) then assert size(len(?h)) end\n";
    /// let no_includes = |_: &str, path: &str| Err(format!("no include here: {path}"));
    /// let program = kibitzer_core::build(&Registry::general(), "t.rules", rules, &no_includes, &[]).unwrap();
    /// let mut session = Session::new(std::sync::Arc::new(program));
    /// let hand = session.input_index("hand").unwrap();
    /// for text in ["8S TD TS 8H 8C", "AS KS QS JS TS"] {
    ///     let cards = text.split(' ').map(|c| parse_card(c).unwrap());
    ///     session.set_input_at(hand, Value::Cards(Shared::local(Cards::new(cards, 0)))).unwrap();
    ///     session.run().unwrap();
    /// }
    /// assert_eq!(session.first_output_arg(), Some(&Value::Int(5)));
    /// assert!(session.set_input_at(99, Value::Int(0)).is_err());
    /// ```
    pub fn set_input_at(&mut self, i: usize, value: Value) -> Result<(), RunError> {
        let Some(decl) = self.prog.inputs.get(i) else {
            return Err(self.unknown_input(&format!("number {i}")));
        };
        if !decl.value_type.accepts(value.ty()) {
            return Err(RunError::InputType {
                name: decl.name.clone(),
                expected: decl.value_type.name(),
                got: value.to_string(),
            });
        }
        if decl.domain.is_some() {
            check_domain(decl, &value, || value.to_string())?;
        }
        self.inputs[i] = Some(value);
        Ok(())
    }

    /// The number of the input called `name` (for `set_input_at`), or the error `set_input`
    /// reports for it.
    pub fn input_index(&self, name: &str) -> Result<usize, RunError> {
        self.prog
            .inputs
            .iter()
            .position(|d| d.name == name)
            .ok_or_else(|| self.unknown_input(name))
    }

    fn unknown_input(&self, name: &str) -> RunError {
        RunError::UnknownInput {
            name: name.to_string(),
            ruleset: self.prog.name.clone(),
            known: self
                .prog
                .inputs
                .iter()
                .map(|d| d.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// Input number `i` as given (none when not given: its default applies).
    pub(crate) fn input_value(&self, i: usize) -> Option<&Value> {
        self.inputs.get(i)?.as_ref()
    }

    /// Forgets the inputs given so far.
    pub fn reset(&mut self) {
        for i in &mut self.inputs {
            *i = None;
        }
    }

    /// Runs the rules on the inputs from an empty working memory until nothing can fire.
    pub fn run(&mut self) -> Result<RunResult, RunError> {
        let prog = self.lent.take().unwrap_or_else(|| self.prog.clone());
        let deadline = crate::budget::with_deadline(self.opts.timeout);
        self.deadline = crate::budget::deadline();
        let mut result = self.run_with(&prog);
        // A native search polls the deadline and, cut short, answers what it has: a run whose
        // deadline passed counts as timed out even when the engine finished its loop.
        if let Ok(r) = &mut result {
            if self.opts.timeout.is_some() && crate::budget::expired() && r.stop != StopReason::MemoryLimit {
                r.stop = StopReason::Timeout;
            }
        }
        drop(deadline);
        self.lent = Some(prog);
        result
    }

    fn run_with(&mut self, prog: &Arc<Program>) -> Result<RunResult, RunError> {
        let start = self.timed.then(Instant::now);
        let stop = match self.run_to_stop(prog) {
            Ok(stop) | Err(RunError::Budget(stop)) => stop,
            Err(e) => return Err(e),
        };
        // A run that ended by itself (asked for every output) owes each `exactly one` output its fact.
        if matches!(stop, StopReason::Quiescent | StopReason::Halted) && self.relevant.is_none() {
            self.owed_answers(prog)?;
        }
        // Built in the result, not written into `self.stats` and copied out: a block copy of
        // fields stored a moment before stalls on store forwarding (~2% of a classification).
        let counted = &self.stats;
        Ok(RunResult {
            bound: self.bound.filter(|_| stop == StopReason::MemoryLimit),
            stop,
            stats: Stats {
                fired: counted.fired,
                activations: self.agenda.created() as u64,
                dropped: counted.dropped,
                facts: self.mem.made() as u64,
                builtin_calls: counted.builtin_calls,
                whatif_asked: self.whatif.memo.asked,
                whatif_memo_hits: self.whatif.memo.memo_hits,
                whatif_fired: self.whatif.memo.sub_fired,
                micros: start.map_or(0, |s| s.elapsed().as_micros() as u64),
            },
        })
    }

    /// The recognise–act loop from an empty memory: why it ended, or the error that ended it (a
    /// budget's stop comes as [`RunError::Budget`]).
    fn run_to_stop(&mut self, prog: &Arc<Program>) -> Result<StopReason, RunError> {
        self.clear_run();
        self.insert_inputs(prog)?;
        for &r in &prog.matching.initial {
            if self.relevant.as_ref().is_some_and(|m| !m[r as usize]) {
                continue;
            }
            self.join_initial(prog, r)?;
        }
        let mut stop = StopReason::Quiescent;
        // Read once: a rule set without groups never looks at them again.
        let grouped = !prog.groups.is_empty();
        loop {
            if self.stats.fired >= self.next_check && self.agenda.pending() > 0 {
                self.check_budgets()?;
            }
            let Some(act) = self.agenda.pop() else {
                break;
            };
            let rule = &prog.rules[act.rule as usize];
            let plan = &prog.matching.plans[act.rule as usize];
            // Every fact is live until one is retracted: only then can an activation be stale.
            let stale = match self.mem.retracted_any() {
                false => None,
                true => self
                    .agenda
                    .facts_at(act.facts)
                    .iter()
                    .find(|(_, f)| !self.mem.is_alive(*f)),
            };
            if let Some(&(_, f)) = stale {
                self.drop_activation(act.rule, || format!("fact #{f} it matched was retracted"));
                continue;
            }
            if plan.select.is_empty() {
                if grouped && self.group_refuses(prog, &act, false) {
                    continue;
                }
                // Nothing to check again: the activation fires where the agenda stored it (its
                // slots become the firing's record), with no trip through the frame.
                if self.fire_stored(prog, act.rule, &act)? {
                    stop = StopReason::Halted;
                    break;
                }
                continue;
            }
            // Moved, not copied: the activation is never read again, and the frame's stale values
            // go to the agenda's arena (dropped at the next reset).
            let stored = self.agenda.vars_mut(&act);
            self.frame.vars[..stored.len()].swap_with_slice(stored);
            self.frame.mask = act.mask;
            self.frame.facts.clear();
            self.frame.facts.extend_from_slice(self.agenda.facts_at(act.facts));
            if !plan.select.is_empty() {
                let mut found = false;
                let found_frame = &mut self.found;
                // Only the mask and the matched facts are copied out of the solution: a search
                // that stops returns at once, without binding again, so the solution's values are
                // still in `self.frame.vars` afterwards (only the mask and facts are unwound).
                let mut ctx = Ctx {
                    prog,
                    mem: &self.mem,
                    params: &self.params,
                    whatif: &mut self.whatif,
                    calls: 0,
                    deepest: None,
                    // A dropped activation's record needs where its search stopped.
                    track_depth: self.opts.why_not || self.opts.trace,
                    failure: None,
                    memo: Some(&mut self.memo),
                };
                let steps = IndexSteps {
                    conds: &rule.conds,
                    order: &plan.select,
                };
                let flow = matcher::solve(&mut ctx, &steps, 0, FactId::MAX, &mut self.frame, &mut |_, fr| {
                    found = true;
                    found_frame.mask = fr.mask;
                    found_frame.facts.clone_from(&fr.facts);
                    Flow::Stop
                });
                self.stats.builtin_calls += ctx.calls;
                let deepest = ctx.deepest.take();
                ctx.outcome(flow).map_err(|e| in_rule(prog, act.rule, e))?;
                let stands = !plan.wake_on_retract.is_empty() || !plan.wake_on_assert.is_empty();
                match found {
                    true => {
                        self.frame.mask = self.found.mask;
                        std::mem::swap(&mut self.frame.facts, &mut self.found.facts);
                        if stands && self.stand(prog, &act, true) {
                            self.count_drop();
                            if self.opts.trace {
                                let reason = format!(
                                    "it fired with {} already",
                                    late_shown(rule, &self.frame.vars, plan.late)
                                );
                                self.trace.push(TraceEvent::Dropped { rule: act.rule, reason });
                            }
                            continue;
                        }
                    }
                    false => {
                        self.count_drop();
                        if self.opts.why_not || self.opts.trace {
                            self.note_drop(prog, act.rule, deepest.map(|d| *d));
                        }
                        if stands {
                            self.stand(prog, &act, false);
                        }
                        continue;
                    }
                }
            }
            if grouped && self.group_refuses(prog, &act, true) {
                continue;
            }
            if self.fire(prog, act.rule)? {
                stop = StopReason::Halted;
                break;
            }
        }
        Ok(stop)
    }

    /// Empties what one run fills: memory, agenda, records, counters.
    #[inline]
    fn clear_run(&mut self) {
        self.mem.reset();
        self.answered.clear();
        self.chosen.iter_mut().for_each(|c| *c = None);
        self.next_check = 0;
        self.cells = 0;
        self.agenda.reset();
        self.firings.clear();
        self.trace.clear();
        if !self.drops.is_empty() {
            for d in self.drops.drain(..) {
                self.drop_at[d.rule as usize] = [u32::MAX; 2];
            }
        }
        self.whatif.memo.reset();
        for n in &mut self.fired_per_rule {
            *n = 0;
        }
        self.stats = Stats::default();
        self.bound = None;
        self.swept_at = 0;
        if !self.standing.is_empty() {
            self.standing.clear();
            self.stand_vals.clear();
            self.stand_facts.clear();
            for rel in self.stand_touched.drain(..) {
                self.stand_on_retract[rel as usize].clear();
                self.stand_on_assert[rel as usize].clear();
            }
            self.standing_dead = 0;
        }
        if !self.supports.is_empty() {
            self.supports.clear();
            self.logical.clear();
            self.support_of_fact.clear();
            self.support_on_rel.iter_mut().for_each(Vec::clear);
            self.candidates.clear();
        }
        self.maintaining = false;
        self.ended.clear();
        self.swept_pending = 0;
    }

    /// Asserts the inputs in declaration order, each joined as it arrives; an input neither
    /// given nor defaulted is an error.
    #[inline]
    fn insert_inputs(&mut self, prog: &Arc<Program>) -> Result<(), RunError> {
        self.note_read_inputs();
        for (i, decl) in prog.inputs.iter().enumerate() {
            // Inserted straight from the input slot: working memory keeps its own copy.
            let v = match (&self.inputs[i], &decl.default) {
                (Some(v), _) => v,
                (None, Some(v)) => v.value(),
                (None, None) => return Err(RunError::MissingInput(decl.name.clone())),
            };
            if self.read_inputs.as_ref().is_some_and(|(_, read)| !read[i]) {
                continue;
            }
            if let Some(id) = self
                .mem
                .insert(decl.rel, std::slice::from_ref(v), Origin::Input(i as u16))
            {
                self.on_new_fact(prog, id, Some(i))?;
            }
        }
        Ok(())
    }

    /// How many selections (firings and drops) go by between two looks at the clock.
    const CLOCK_EVERY: u64 = 256;

    /// The firing limit and the deadline, looked at every [`Self::CLOCK_EVERY`] selections:
    /// counting drops too, a run that drops millions of activations between two firings still
    /// looks at the clock and frees what it dropped.
    #[cold]
    fn check_budgets(&mut self) -> Result<(), RunError> {
        if self.stats.fired >= self.opts.firing_limit {
            return Err(self.limit_error());
        }
        if crate::budget::expired() {
            return Err(RunError::Budget(StopReason::Timeout));
        }
        // Below the slack there is nothing to collect (a classification never gets there).
        if self.agenda.garbage() + self.agenda.pending() + self.mem.garbage() > GARBAGE_SLACK {
            self.collect_garbage();
        }
        // Never past the firing limit: each firing is a selection too.
        let to_limit = self.opts.firing_limit - self.stats.fired;
        self.next_check = self.stats.fired + Self::CLOCK_EVERY.min(to_limit);
        Ok(())
    }

    /// Counts a dropped activation; a drop brings the next look at the clock one selection
    /// closer, as a firing does.
    #[inline(always)]
    fn count_drop(&mut self) {
        self.stats.dropped += 1;
        self.next_check = self.next_check.saturating_sub(1);
    }

    /// Frees retracted facts and spent activations once they outnumber the live ones (amortised
    /// O(1) a selection), so that a long run's memory follows what is live, not its history.
    /// With firing records, which point at facts and activation slots, only the activations
    /// that neither wait nor fired are freed.
    #[inline(never)]
    fn collect_garbage(&mut self) {
        const SLACK: usize = GARBAGE_SLACK;
        if self.recording {
            if self.agenda.garbage() > self.agenda.pending() + self.firings.len() + SLACK {
                let records = self.firings.iter_mut().map(|f| (&mut f.vars, &mut f.facts));
                self.agenda.compact_keeping(|_| true, |f| f, |s| s, records);
            }
            return;
        }
        let all = |_: &[(u16, FactId)]| true;
        let pending = self.agenda.pending();
        if self.mem.garbage() > self.mem.live() + SLACK {
            let remap = self.mem.compact_all();
            let renumber = |f: FactId| remap.get(f as usize).copied().unwrap_or(FactId::MAX);
            for p in self.standing.iter_mut().filter(|p| p.live) {
                let facts = &mut self.stand_facts[p.facts.0 as usize..p.facts.1 as usize];
                facts.iter_mut().for_each(|(_, f)| *f = renumber(*f));
                if facts.iter().any(|&(_, f)| f == FactId::MAX) {
                    p.live = false;
                    self.standing_dead += 1;
                }
            }
            if !self.supports.is_empty() {
                self.renumber_supports(&renumber);
            }
            let restand = self.free_standing();
            self.agenda.compact(all, renumber, |s| {
                restand.get(s as usize).copied().unwrap_or(NOT_STANDING)
            });
        } else if pending > SLACK && pending > 2 * self.swept_pending && self.mem.retractions() > self.swept_at {
            // Activations waiting on facts retracted since: let go now rather than when they
            // come up (they would be dropped then), so they do not pile up. A sweep when the
            // waiting ones have doubled since the last costs O(1) per activation made.
            let mem = &self.mem;
            let live = |facts: &[(u16, FactId)]| facts.iter().all(|&(_, f)| mem.is_alive(f));
            let let_go = self.agenda.compact(live, |f| f, |s| s);
            self.stats.dropped += let_go as u64;
            self.swept_at = self.mem.retractions();
            self.swept_pending = self.agenda.pending();
        } else if self.agenda.garbage() > pending + SLACK {
            self.agenda.compact(all, |f| f, |s| s);
        }
    }

    /// Brings `read_inputs` up to date with the `relevant` mask.
    fn note_read_inputs(&mut self) {
        let Some(mask) = &self.relevant else {
            self.read_inputs = None;
            return;
        };
        // Compared by pointer with the mask it holds (so that mask cannot be freed and its
        // address reused by another).
        if self
            .read_inputs
            .as_ref()
            .is_some_and(|(known, _)| Arc::ptr_eq(known, mask))
        {
            return;
        }
        self.read_inputs = Some((mask.clone(), self.prog.inputs_read_by(mask)));
        let relevant = |lists: &[Vec<Trigger>]| -> Vec<Vec<Trigger>> {
            lists
                .iter()
                .map(|ts| ts.iter().copied().filter(|t| mask[t.rule as usize]).collect())
                .collect()
        };
        self.relevant_triggers = relevant(&self.prog.matching.triggers);
        self.relevant_input_triggers = relevant(&self.prog.matching.input_triggers);
    }

    fn drop_activation(&mut self, rule: u32, reason: impl FnOnce() -> String) {
        self.count_drop();
        if self.opts.trace {
            self.trace.push(TraceEvent::Dropped { rule, reason: reason() });
        }
    }

    /// For an activation about to fire: false when its rule is in no group, or its group has
    /// chosen nothing yet (it is then chosen, by the firing about to be made); true when the
    /// group chose another firing this run, and the activation is dropped. `in_frame`: its
    /// bindings were made again in the frame (else they are where the agenda stored them).
    fn group_refuses(&mut self, prog: &Arc<Program>, act: &Activation, in_frame: bool) -> bool {
        let Some(g) = prog.rules[act.rule as usize].group else {
            return false;
        };
        let Some(chosen) = self.chosen[g as usize] else {
            let firing = match self.recording {
                true => self.firings.len() as u32,
                false => UNRECORDED,
            };
            self.chosen[g as usize] = Some((act.rule, firing));
            return false;
        };
        self.count_drop();
        // Kept whenever firings are: the chosen firing's explanation names the rules it won over.
        if self.recording || self.opts.why_not || self.opts.trace {
            self.note_group_drop(prog, act, in_frame, chosen);
        }
        true
    }

    #[cold]
    fn note_group_drop(&mut self, prog: &Arc<Program>, act: &Activation, in_frame: bool, chosen: (u32, u32)) {
        let nvars = prog.rules[act.rule as usize].var_names.len();
        let (mut vars, mask) = match in_frame {
            true => (self.frame.vars[..nvars].to_vec(), self.frame.mask),
            false => (self.agenda.vars_at(act.vars).to_vec(), act.mask),
        };
        let facts = match in_frame {
            true => self.frame.facts.clone(),
            false => self.agenda.facts_at(act.facts).to_vec(),
        };
        // The pattern-bound values the activation did not keep, from the facts it matched.
        for &(slot, cond, pos) in &prog.matching.plans[act.rule as usize].restored {
            let fact = facts.iter().find(|(c, _)| *c == cond).map(|(_, id)| *id);
            if let (Some(v), Some(fact)) = (vars.get_mut(slot as usize), fact) {
                if let Some(arg) = self.mem.args_of(fact).get(pos as usize) {
                    *v = arg.clone();
                }
            }
        }
        if self.opts.trace {
            let reason = self.group_reason(act.rule, chosen, "it");
            self.trace.push(TraceEvent::Dropped { rule: act.rule, reason });
        }
        self.keep_drop(DropRecord {
            rule: act.rule,
            cond: None,
            vars,
            mask,
            group: Some(chosen),
            seq: self.stats.dropped,
        });
    }

    /// Keeps a drop record in place of its rule's last of the same kind (a rule dropped a
    /// million times keeps one record of each kind, not a million).
    fn keep_drop(&mut self, record: DropRecord) {
        let at = &mut self.drop_at[record.rule as usize][usize::from(record.group.is_some())];
        match self.drops.get_mut(*at as usize) {
            Some(kept) => *kept = record,
            None => {
                *at = self.drops.len() as u32;
                self.drops.push(record);
            }
        }
    }

    /// Records why a selected activation lost: the deepest step its selection search reached and
    /// the bindings there, or (no step passed) its own bindings, still in the frame.
    #[cold]
    fn note_drop(&mut self, prog: &Arc<Program>, rule_idx: u32, deepest: Option<(usize, Vec<Value>, u64)>) {
        let rule = &prog.rules[rule_idx as usize];
        let plan = &prog.matching.plans[rule_idx as usize];
        let nvars = rule.var_names.len();
        let mut record = match deepest {
            Some((step, vars, mask)) => DropRecord {
                rule: rule_idx,
                cond: plan.select.get(step).copied(),
                vars,
                mask,
                group: None,
                seq: self.stats.dropped,
            },
            None => DropRecord {
                rule: rule_idx,
                cond: None,
                vars: self.frame.vars[..nvars].to_vec(),
                mask: self.frame.mask,
                group: None,
                seq: self.stats.dropped,
            },
        };
        // The pattern-bound values the activation did not keep, from the facts it matched.
        for &(slot, cond, pos) in &plan.restored {
            let fact = self.frame.facts.iter().find(|(c, _)| *c == cond).map(|(_, id)| *id);
            if let (Some(v), Some(fact)) = (record.vars.get_mut(slot as usize), fact) {
                if let Some(arg) = self.mem.args_of(fact).get(pos as usize) {
                    *v = arg.clone();
                }
            }
        }
        if self.opts.trace {
            let reason = super::wording::drop_reason(
                prog,
                &self.mem,
                record.rule,
                record.cond,
                (&record.vars, record.mask),
                &self.params,
            );
            self.trace.push(TraceEvent::Dropped { rule: rule_idx, reason });
        }
        self.keep_drop(record);
    }

    fn limit_error(&self) -> RunError {
        let mut counts: Vec<(u64, &str)> = self
            .fired_per_rule
            .iter()
            .zip(&self.prog.rules)
            .filter(|(n, _)| **n > 0)
            .map(|(n, r)| (*n, r.name.as_str()))
            .collect();
        counts.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        RunError::FiringLimit {
            limit: self.opts.firing_limit,
            rules: counts
                .iter()
                .take(3)
                .map(|(n, r)| format!("`{r}` ({n}×)"))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// Counts a firing of rule `rule_idx`, recorded or not.
    #[inline(always)]
    fn count_firing(&mut self, rule_idx: u32) {
        self.stats.fired += 1;
        self.fired_per_rule[rule_idx as usize] += 1;
    }

    /// Fires the rule with the bindings in `self.frame`. Returns true on `halt`.
    fn fire(&mut self, prog: &Arc<Program>, rule_idx: u32) -> Result<bool, RunError> {
        let rule = &prog.rules[rule_idx as usize];
        let nvars = rule.var_names.len();
        if !self.recording {
            self.count_firing(rule_idx);
            // The bindings are lent to the actions by swapping the frame's vector with the spare
            // one `found` keeps (equally long): new facts are joined in the spare meanwhile.
            std::mem::swap(&mut self.frame.vars, &mut self.found.vars);
            return self.run_actions(prog, rule_idx, UNRECORDED, Bindings::Spare(nvars), Matched::Frame);
        }
        // Moved out of the frame (which every later match rebinds before reading): recording the
        // explanation costs no copy of the bindings.
        let (vars, facts) = self.agenda.record(&mut self.frame.vars[..nvars], &self.frame.facts);
        self.record_and_act(prog, rule_idx, self.frame.mask, vars, facts)
    }

    /// Fires an activation whose bindings need no second look, where the agenda stored it: when
    /// recording, the record points at the activation's own slots (nothing is moved or copied).
    fn fire_stored(&mut self, prog: &Arc<Program>, rule_idx: u32, act: &Activation) -> Result<bool, RunError> {
        if self.recording {
            return self.record_and_act(prog, rule_idx, act.mask, act.vars, act.facts);
        }
        self.count_firing(rule_idx);
        // A retraction's pattern reads which bindings are set from the frame's mask.
        self.frame.mask = act.mask;
        self.run_actions(
            prog,
            rule_idx,
            UNRECORDED,
            Bindings::Stored(act.vars),
            Matched::Stored(act.facts),
        )
    }

    /// Records a firing whose bindings and matched facts are at `vars` and `facts` in the
    /// agenda's arenas, then runs the rule's actions on those bindings.
    #[inline(always)]
    fn record_and_act(
        &mut self,
        prog: &Arc<Program>,
        rule_idx: u32,
        mask: u64,
        vars: (u32, u32),
        facts: (u32, u32),
    ) -> Result<bool, RunError> {
        let firing = self.firings.len() as u32;
        self.firings.push(Firing {
            rule: rule_idx,
            mask,
            vars,
            facts,
        });
        self.count_firing(rule_idx);
        if self.opts.trace {
            self.trace.push(TraceEvent::Fired { firing });
        }
        // A retraction's pattern reads which bindings are set from the frame's mask.
        self.frame.mask = mask;
        self.run_actions(prog, rule_idx, firing, Bindings::Stored(vars), Matched::Stored(facts))
    }

    /// Runs a firing's actions: those of a rule that only asserts plainly (most rules) by
    /// `assert_plain`, the others by `act`. Returns true on `halt`.
    #[inline(always)]
    fn run_actions(
        &mut self,
        prog: &Arc<Program>,
        rule_idx: u32,
        firing: u32,
        at: Bindings,
        matched: Matched,
    ) -> Result<bool, RunError> {
        if prog.matching.plans[rule_idx as usize].plain {
            self.assert_plain(prog, rule_idx, firing, at)?;
            return Ok(false);
        }
        self.act(prog, rule_idx, firing, at, matched)
    }

    /// The actions of a rule whose actions are all plain asserts (`RulePlan::plain`): `act`'s
    /// `Assert` with no support, and nothing made ready for the other actions.
    #[inline(never)]
    fn assert_plain(&mut self, prog: &Arc<Program>, rule_idx: u32, firing: u32, at: Bindings) -> Result<(), RunError> {
        let rule = &prog.rules[rule_idx as usize];
        for action in &rule.actions {
            let Action::Assert { rel, args, .. } = action else {
                continue;
            };
            // Read again for each action: the previous one's new facts may have grown the arena.
            let vars = match at {
                Bindings::Stored(range) => self.agenda.vars_at(range),
                Bindings::Spare(n) => &self.found.vars[..n],
            };
            if let Err(e) = stage(&mut self.mem, args, vars, &self.params, &mut self.stats.builtin_calls) {
                return Err(RunError::InRule {
                    rule: rule.name.clone(),
                    location: location(prog, rule.span),
                    failure: e.into(),
                });
            }
            if !self.logical.is_empty() && self.assert_existing(*rel, args.len(), None) {
                continue;
            }
            self.add_staged(prog, rule, *rel, args.len(), firing, None)?;
        }
        Ok(())
    }

    fn act(
        &mut self,
        prog: &Arc<Program>,
        rule_idx: u32,
        firing: u32,
        at: Bindings,
        matched: Matched,
    ) -> Result<bool, RunError> {
        let rule = &prog.rules[rule_idx as usize];
        // Which bindings are set, read before an assert's joins reuse the frame.
        let mask = self.frame.mask;
        // A rule with `assert logical`: this firing's match is the support of what it asserts
        // so, from before its first action (see `maintain`).
        let support = match prog.matching.plans[rule_idx as usize].logical {
            false => None,
            true => {
                let vars = match at {
                    Bindings::Stored(range) => self.agenda.vars_at(range).to_vec(),
                    Bindings::Spare(n) => self.found.vars[..n].to_vec(),
                };
                let facts = match matched {
                    Matched::Stored(range) => self.agenda.facts_at(range).to_vec(),
                    Matched::Frame => self.frame.facts.to_vec(),
                };
                Some(self.open_support(prog, rule_idx, mask, vars, facts))
            }
        };
        // The facts the actions name by handle, read before an assert's joins reuse the frame.
        let handles: smallvec::SmallVec<[(u16, FactId); 8]> = match (rule.handles, matched) {
            (false, _) => smallvec::SmallVec::new(),
            (true, Matched::Stored(range)) => self.agenda.facts_at(range).into(),
            (true, Matched::Frame) => self.frame.facts.as_slice().into(),
        };
        let handle = |cond: u16| handles.iter().find(|(c, _)| *c == cond).map(|(_, f)| *f);
        let failed = |failure: RuleFailure| RunError::InRule {
            rule: rule.name.clone(),
            location: location(prog, rule.span),
            failure,
        };
        for action in &rule.actions {
            // Read again for each action: the previous one's new facts may have grown the arena.
            let vars = match at {
                Bindings::Stored(range) => self.agenda.vars_at(range),
                Bindings::Spare(n) => &self.found.vars[..n],
            };
            match action {
                Action::Assert { rel, args, logical } => {
                    stage(&mut self.mem, args, vars, &self.params, &mut self.stats.builtin_calls)
                        .map_err(|e| failed(e.into()))?;
                    let by = match (*logical, support) {
                        (true, Some(sp)) => Some(sp),
                        _ => None,
                    };
                    if (by.is_some() || !self.logical.is_empty()) && self.assert_existing(*rel, args.len(), by) {
                        continue;
                    }
                    self.add_staged(prog, rule, *rel, args.len(), firing, by)?;
                }
                Action::RetractFact { cond } => {
                    if let Some(id) = handle(*cond) {
                        self.retract_fact(prog, id, firing)?;
                    }
                }
                Action::Modify { cond, rel, args } => {
                    let Some(old) = handle(*cond).filter(|&f| self.mem.is_alive(f)) else {
                        return Err(failed(RuleFailure::ModifyRetracted));
                    };
                    for (k, a) in args.iter().enumerate() {
                        let calls = &mut self.stats.builtin_calls;
                        let pushed = match a {
                            Some(e) => super::eval::push_value(self.mem.staging(), e, vars, &self.params, calls),
                            None => {
                                let kept = self.mem.args_of(old)[k].clone();
                                self.mem.staging().push(kept);
                                Ok(())
                            }
                        };
                        if let Err(e) = pushed {
                            self.mem.unstage(k);
                            return Err(failed(e.into()));
                        }
                    }
                    // Traced before what the change sets off (its `new` filled in once made).
                    let at = self.trace.len();
                    if self.opts.trace {
                        self.trace.push(TraceEvent::Modified { old, new: None, firing });
                    }
                    self.retract_quietly(prog, old, firing)?;
                    let new = self.add_staged(prog, rule, *rel, args.len(), firing, None)?;
                    if let Some(TraceEvent::Modified { new: made, .. }) = self.trace.get_mut(at) {
                        *made = new;
                    }
                    if self.recording {
                        self.ended.insert(old, (firing, Ending::Modified(new)));
                    }
                }
                Action::Retract { rel, args } => {
                    let in_rule = |e: super::eval::EvalError| failed(e.into());
                    // Every argument known: the one fact it can be is found by its hash.
                    let bound = |a: &PatArg| match a {
                        PatArg::Var(s) => *s < 64 && mask & (1u64 << s) != 0,
                        PatArg::Expr(_) => true,
                        PatArg::Wild => false,
                    };
                    if args.iter().all(bound) {
                        let mut values = Vec::with_capacity(args.len());
                        for a in args {
                            match a {
                                PatArg::Var(s) => values.push(vars[*s as usize].clone()),
                                PatArg::Expr(e) => {
                                    let v = super::eval::eval(e, vars, &self.params, &mut self.stats.builtin_calls);
                                    values.push(v.map_err(&in_rule)?);
                                }
                                PatArg::Wild => {}
                            }
                        }
                        // A number equals the other kind's number of the same value (`1 == 1.0`):
                        // each such fact is looked up too, and all go in the relation's order.
                        if let Some(found) = loosely_equal_facts(&self.mem, *rel, &mut values) {
                            for id in found {
                                self.retract_fact(prog, id, firing)?;
                            }
                            continue;
                        }
                    }
                    let ids: Vec<FactId> = self.mem.of_relation(*rel).to_vec();
                    let mut frame = Frame {
                        vars: vars.to_vec(),
                        mask,
                        facts: Default::default(),
                        argv: Vec::new(),
                    };
                    for id in ids {
                        if !self.mem.is_alive(id) {
                            continue;
                        }
                        frame.mask = mask;
                        let mut ctx = Ctx::new(prog, &self.mem, &self.params, &mut self.whatif);
                        let ok = matcher::match_fact(&mut ctx, args, id, &mut frame).map_err(&in_rule)?;
                        if ok {
                            self.retract_fact(prog, id, firing)?;
                        }
                    }
                }
                Action::Halt => return Ok(true),
            }
        }
        Ok(false)
    }

    /// Retracts a fact (if live), traced; its cells no longer count against the budget.
    fn retract_fact(&mut self, prog: &Program, id: FactId, firing: u32) -> Result<(), RunError> {
        if !self.mem.is_alive(id) {
            return Ok(());
        }
        if self.opts.trace {
            self.trace.push(TraceEvent::Retracted { fact: id, firing });
        }
        if self.recording {
            self.ended.insert(id, (firing, Ending::Retracted));
        }
        self.retract_quietly(prog, id, firing)
    }

    /// Retracts a live fact, untraced (a modify traces itself): the standing activations and
    /// supports that read its relation are looked at again.
    fn retract_quietly(&mut self, prog: &Program, id: FactId, firing: u32) -> Result<(), RunError> {
        self.forget_cells(id);
        self.mem.retract(id);
        let rel = self.mem.fact(id).rel;
        self.wake(rel, false);
        if !self.supports.is_empty() {
            self.logical.remove(&id);
            if let Some(list) = self.support_of_fact.remove(&id) {
                self.candidates.extend(list);
            }
            self.note_support_change(rel);
            self.maintain(prog, firing)?;
        }
        Ok(())
    }

    /// Notes a selected activation of a rule whose negations or aggregates read facts that
    /// actions change, so that it comes back when they do (`wake`): one standing entry per
    /// activation the joins made, kept by the activations that bring it back. `fired`: it is
    /// about to fire, with its late bindings in the frame. Returns true when it fired with the
    /// same values before (refraction: it is dropped).
    fn stand(&mut self, prog: &Program, act: &Activation, fired: bool) -> bool {
        let plan = &prog.matching.plans[act.rule as usize];
        let late = plan.late;
        if act.standing != NOT_STANDING {
            let s = &mut self.standing[act.standing as usize];
            s.queued = false;
            if !fired {
                return false;
            }
            let v = late_values(&self.frame.vars, late);
            let first = &self.stand_vals[s.first.0 as usize..s.first.1 as usize];
            let again = |c: &[Value]| c == v.as_slice();
            let seen = s.has_fired
                && ((s.first.0 < s.first.1 && again(first)) || (!v.is_empty() && s.fired.chunks(v.len()).any(again)));
            if seen {
                return true;
            }
            s.has_fired = true;
            s.fired.extend(v);
            if !plan.refires {
                s.live = false;
                self.standing_dead += 1;
            }
            return false;
        }
        if fired && !plan.refires {
            // A negation alone: once fired, nothing brings it back.
            return false;
        }
        let at = self.standing.len() as u32;
        let nvars = prog.rules[act.rule as usize].var_names.len();
        // The late slots' values stay in the copy, unread: the mask says they are unbound.
        let v0 = self.stand_vals.len() as u32;
        self.stand_vals.extend_from_slice(&self.frame.vars[..nvars]);
        let f0 = self.stand_facts.len() as u32;
        self.stand_facts.extend_from_slice(self.agenda.facts_at(act.facts));
        let l0 = self.stand_vals.len() as u32;
        if fired {
            for (i, v) in self.frame.vars[..nvars].iter().enumerate() {
                if i < 64 && late & (1u64 << i) != 0 {
                    self.stand_vals.push(v.clone());
                }
            }
        }
        self.standing.push(Standing {
            rule: act.rule,
            mask: act.mask,
            vars: (v0, v0 + nvars as u32),
            facts: (f0, self.stand_facts.len() as u32),
            first: (l0, self.stand_vals.len() as u32),
            fired: Vec::new(),
            has_fired: fired,
            queued: false,
            live: true,
        });
        for &rel in &plan.wake_on_retract {
            let list = &mut self.stand_on_retract[rel as usize];
            if list.is_empty() && self.stand_on_assert[rel as usize].is_empty() {
                self.stand_touched.push(rel);
            }
            list.push(at);
        }
        for &rel in &plan.wake_on_assert {
            let list = &mut self.stand_on_assert[rel as usize];
            if list.is_empty() && self.stand_on_retract[rel as usize].is_empty() {
                self.stand_touched.push(rel);
            }
            list.push(at);
        }
        false
    }

    /// Brings back, as new activations in the order they were first selected, the standing
    /// activations a retraction (or, `asserted`, an assertion) of a fact of `rel` may change the
    /// verdict of: those live, not already back, whose facts are all live.
    fn wake(&mut self, rel: RelId, asserted: bool) {
        let lists = match asserted {
            true => &mut self.stand_on_assert,
            false => &mut self.stand_on_retract,
        };
        let Some(list) = lists.get_mut(rel as usize) else {
            return;
        };
        if list.is_empty() {
            return;
        }
        let mut list = std::mem::take(list);
        let prog = self.prog.clone();
        list.retain(|&at| {
            let s = &mut self.standing[at as usize];
            if !s.live {
                return false;
            }
            if s.queued {
                return true;
            }
            let facts = &self.stand_facts[s.facts.0 as usize..s.facts.1 as usize];
            let decided = prog.rules[s.rule as usize]
                .group
                .is_some_and(|g| self.chosen[g as usize].is_some());
            if decided || !facts.iter().all(|&(_, f)| self.mem.is_alive(f)) {
                s.live = false;
                self.standing_dead += 1;
                return false;
            }
            s.queued = true;
            let elided = prog.matching.plans[s.rule as usize].elided;
            let vars = &self.stand_vals[s.vars.0 as usize..s.vars.1 as usize];
            self.agenda.push_standing(s.rule, s.mask, elided, vars, facts, at);
            true
        });
        let lists = match asserted {
            true => &mut self.stand_on_assert,
            false => &mut self.stand_on_retract,
        };
        lists[rel as usize] = list;
    }

    /// Frees the standing activations no longer live when they outnumber the live ones;
    /// returns the renumbering of those kept (empty when nothing moved).
    fn free_standing(&mut self) -> Vec<u32> {
        if self.standing_dead * 2 <= self.standing.len() {
            return (0..self.standing.len() as u32).collect();
        }
        let mut remap = vec![NOT_STANDING; self.standing.len()];
        let mut kept = 0u32;
        for (i, s) in self.standing.iter().enumerate() {
            if s.live {
                remap[i] = kept;
                kept += 1;
            }
        }
        self.standing.retain(|s| s.live);
        let (mut vals, mut facts) = (Vec::new(), Vec::new());
        for s in &mut self.standing {
            let v0 = vals.len() as u32;
            vals.extend_from_slice(&self.stand_vals[s.vars.0 as usize..s.vars.1 as usize]);
            s.vars = (v0, vals.len() as u32);
            let f0 = facts.len() as u32;
            facts.extend_from_slice(&self.stand_facts[s.facts.0 as usize..s.facts.1 as usize]);
            s.facts = (f0, facts.len() as u32);
            let l0 = vals.len() as u32;
            vals.extend_from_slice(&self.stand_vals[s.first.0 as usize..s.first.1 as usize]);
            s.first = (l0, vals.len() as u32);
        }
        self.stand_vals = vals;
        self.stand_facts = facts;
        for list in self.stand_on_retract.iter_mut().chain(self.stand_on_assert.iter_mut()) {
            list.retain_mut(|at| {
                *at = remap[*at as usize];
                *at != NOT_STANDING
            });
        }
        self.standing_dead = 0;
        remap
    }

    /// Starts the support a firing of a rule with `assert logical` gives; returns its number.
    fn open_support(
        &mut self,
        prog: &Program,
        rule: u32,
        mask: u64,
        vars: Vec<Value>,
        facts: Vec<(u16, FactId)>,
    ) -> u32 {
        let at = self.supports.len() as u32;
        for &(_, f) in &facts {
            let list = self.support_of_fact.entry(f).or_default();
            if list.last() != Some(&at) {
                list.push(at);
            }
        }
        for &r in &prog.matching.plans[rule as usize].support_rels {
            self.support_on_rel[r as usize].push(at);
        }
        self.supports.push(Support {
            rule,
            mask,
            vars,
            facts,
            supported: Vec::new(),
            live: true,
        });
        at
    }

    /// An assert of a fact equal to a live one (the last `n` staged values): a plain assert makes
    /// a logical fact plain (it no longer depends on any support), a logical one adds `support`
    /// to a logical fact's (and leaves a plain one plain). True when the fact existed (nothing
    /// more to do); false when it is new, or its support is gone (then nothing is asserted).
    fn assert_existing(&mut self, rel: RelId, n: usize, support: Option<u32>) -> bool {
        if let Some(sp) = support {
            if !self.supports[sp as usize].live {
                // The firing's match ended during its own actions: it supports nothing more.
                self.mem.unstage(n);
                return true;
            }
        }
        let Some(f) = self.mem.find_staged(rel, n) else {
            return false;
        };
        self.mem.unstage(n);
        match support {
            None => {
                self.logical.remove(&f);
            }
            Some(sp) => {
                if let Some(count) = self.logical.get_mut(&f) {
                    *count += 1;
                    self.supports[sp as usize].supported.push(f);
                }
            }
        }
        true
    }

    /// A fact of `rel` asserted or retracted: the supports whose selection reads it are looked
    /// at again.
    fn note_support_change(&mut self, rel: RelId) {
        let supports = &self.supports;
        let list = &mut self.support_on_rel[rel as usize];
        list.retain(|&s| supports[s as usize].live);
        self.candidates.extend(list.iter().copied());
    }

    /// Withdraws the supports that no longer hold, first made first, until every one left holds;
    /// a logical fact left with no support is retracted (which may end other supports in turn).
    /// A loop, not a recursion: a retraction made here only adds candidates.
    fn maintain(&mut self, prog: &Program, firing: u32) -> Result<(), RunError> {
        if self.maintaining {
            return Ok(());
        }
        self.maintaining = true;
        let mut result = Ok(());
        while let Some(sp) = self.candidates.pop_first() {
            if !self.supports[sp as usize].live {
                continue;
            }
            match self.support_holds(prog, sp) {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            let s = &mut self.supports[sp as usize];
            s.live = false;
            s.vars = Vec::new();
            s.facts = Vec::new();
            for f in std::mem::take(&mut s.supported) {
                let Some(count) = self.logical.get_mut(&f) else {
                    continue;
                };
                *count -= 1;
                if *count == 0 {
                    self.logical.remove(&f);
                    if !self.mem.is_alive(f) {
                        continue;
                    }
                    if self.opts.trace {
                        self.trace.push(TraceEvent::Withdrawn { fact: f, firing });
                    }
                    if self.recording {
                        self.ended.insert(f, (firing, Ending::Withdrawn));
                    }
                    if let Err(e) = self.retract_quietly(prog, f, firing) {
                        result = Err(e);
                        break;
                    }
                }
            }
            if result.is_err() {
                break;
            }
        }
        self.candidates.clear();
        self.maintaining = false;
        result
    }

    /// Renumbers the facts the supports name after a compaction of memory (`renumber` maps an
    /// old fact to its new number, a retracted one to `FactId::MAX`), and frees the supports no
    /// longer live.
    fn renumber_supports(&mut self, renumber: &impl Fn(FactId) -> FactId) {
        let mut kept = vec![u32::MAX; self.supports.len()];
        let mut n = 0u32;
        for (i, s) in self.supports.iter().enumerate() {
            if s.live {
                kept[i] = n;
                n += 1;
            }
        }
        self.supports.retain(|s| s.live);
        for s in &mut self.supports {
            s.facts.iter_mut().for_each(|(_, f)| *f = renumber(*f));
            s.supported.iter_mut().for_each(|f| *f = renumber(*f));
        }
        self.logical = self.logical.drain().map(|(f, c)| (renumber(f), c)).collect();
        self.logical.remove(&FactId::MAX);
        let mut of_fact: rustc_hash::FxHashMap<FactId, smallvec::SmallVec<[u32; 2]>> = Default::default();
        for (i, s) in self.supports.iter().enumerate() {
            for &(_, f) in &s.facts {
                let list = of_fact.entry(f).or_default();
                if list.last() != Some(&(i as u32)) {
                    list.push(i as u32);
                }
            }
        }
        self.support_of_fact = of_fact;
        for list in &mut self.support_on_rel {
            list.retain_mut(|s| {
                *s = kept[*s as usize];
                *s != u32::MAX
            });
        }
    }

    /// Whether support `sp`'s match still holds: its facts live and, for a rule with conditions
    /// checked at selection, those satisfied again with the late values it fired with.
    fn support_holds(&mut self, prog: &Program, sp: u32) -> Result<bool, RunError> {
        let s = &self.supports[sp as usize];
        if !s.facts.iter().all(|&(_, f)| self.mem.is_alive(f)) {
            return Ok(false);
        }
        let plan = &prog.matching.plans[s.rule as usize];
        if plan.select.is_empty() {
            return Ok(true);
        }
        let rule = &prog.rules[s.rule as usize];
        let want = late_values(&s.vars, plan.late);
        self.frame.vars[..s.vars.len()].clone_from_slice(&s.vars);
        self.frame.mask = s.mask & plan.early;
        self.frame.facts.clear();
        self.frame
            .facts
            .extend(s.facts.iter().filter(|(c, _)| plan.join.contains(c)).copied());
        let mut same = false;
        let mut ctx = Ctx::new(prog, &self.mem, &self.params, &mut self.whatif);
        ctx.memo = Some(&mut self.memo);
        let steps = IndexSteps {
            conds: &rule.conds,
            order: &plan.select,
        };
        let flow = matcher::solve(
            &mut ctx,
            &steps,
            0,
            FactId::MAX,
            &mut self.frame,
            &mut |_, fr| match late_values(&fr.vars, plan.late) == want {
                true => {
                    same = true;
                    Flow::Stop
                }
                false => Flow::Continue,
            },
        );
        self.stats.builtin_calls += ctx.calls;
        ctx.outcome(flow).map_err(|e| in_rule(prog, s.rule, e))?;
        Ok(same)
    }

    /// Takes a live fact's cells off the count of [`RunOptions::max_cells`], which counts the
    /// facts rules add (weighing every input of every run cost about 0.6% of a stud classification).
    fn forget_cells(&mut self, id: FactId) {
        if matches!(self.mem.fact(id).origin, Origin::Input(_)) {
            return;
        }
        let cells: u64 = self
            .mem
            .args_of(id)
            .iter()
            .map(|v| v.cells(crate::value::MAX_VALUE_DEPTH).unwrap_or(0))
            .sum();
        self.cells = self.cells.saturating_sub(cells);
    }

    /// The stop for a memory bound reached, noted for [`RunResult::bound`].
    #[cold]
    fn memory_limit(&mut self, bound: MemoryBound) -> RunError {
        self.bound = Some(bound);
        RunError::Budget(StopReason::MemoryLimit)
    }

    /// Adds the fact whose `n` arguments are staged, within the memory budgets, and joins it: its
    /// id, or `None` when an equal fact was there.
    #[inline(always)]
    /// Records `id` as the answer of an output declared `one`, or stops the run when another
    /// live fact of it was concluded before: two answers where the rule set promised one.
    #[cold]
    fn one_answer(&mut self, prog: &Program, rule: &RuleIr, rel: RelId, id: FactId) -> Result<(), RunError> {
        let fact = |s: &Self, f: FactId| {
            let args: Vec<String> = s.mem.args_of(f).iter().map(|v| v.to_string()).collect();
            format!("{}({})", prog.relations[rel as usize].name, args.join(", "))
        };
        let earlier = self
            .mem
            .of_relation(rel)
            .iter()
            .copied()
            .find(|&f| f != id && self.mem.is_alive(f));
        let by = self.answered.iter().position(|(r, _)| *r == rel);
        if let (Some(first), Some(by)) = (earlier, by) {
            return Err(RunError::Answers(format!(
                "two answers for `{}`, which the rule set declares `one`: {} by rule `{}`, then {} by rule `{}`",
                prog.relations[rel as usize].name,
                fact(self, first),
                self.answered[by].1,
                fact(self, id),
                rule.name
            )));
        }
        match by {
            Some(i) => self.answered[i].1 = rule.name.clone(),
            None => self.answered.push((rel, rule.name.clone())),
        }
        Ok(())
    }

    /// Stops a finished run that concluded nothing for an output declared `exactly one`.
    fn owed_answers(&self, prog: &Program) -> Result<(), RunError> {
        use crate::lang::ast::Answers;
        for (rel, a) in prog.answers.iter().enumerate() {
            let none = || !self.mem.of_relation(rel as RelId).iter().any(|&f| self.mem.is_alive(f));
            if *a == Some(Answers::ExactlyOne) && none() {
                return Err(RunError::Answers(format!(
                    "no answer for `{}`, which the rule set declares `exactly one`: no rule concluded it",
                    prog.relations[rel].name
                )));
            }
        }
        Ok(())
    }

    fn add_staged(
        &mut self,
        prog: &Arc<Program>,
        rule: &RuleIr,
        rel: RelId,
        n: usize,
        firing: u32,
        support: Option<u32>,
    ) -> Result<Option<FactId>, RunError> {
        let cells = self.weigh_staged(n).ok_or_else(|| RunError::TooDeep {
            rule: rule.name.clone(),
            location: location(prog, rule.span),
        })?;
        let Some(id) = self.mem.insert_staged(rel, n, Origin::Firing(firing)) else {
            return Ok(None);
        };
        self.cells += cells;
        if self.cells > self.opts.max_cells {
            return Err(self.memory_limit(MemoryBound::Cells));
        }
        if self.mem.live() as u64 > self.opts.max_facts {
            return Err(self.memory_limit(MemoryBound::Facts));
        }
        if let Some(sp) = support {
            self.logical.insert(id, 1);
            self.supports[sp as usize].supported.push(id);
        }
        if prog.answers[rel as usize].is_some() {
            self.one_answer(prog, rule, rel, id)?;
        }
        // A relation no rule starts a join at (terms read by an aggregate only) seeds nothing: no
        // call. (Under a relevance mask the list is shorter still; an empty one there is found
        // by `on_new_fact`.)
        if !prog.matching.triggers[rel as usize].is_empty() {
            self.on_new_fact(prog, id, None)?;
        }
        if !self.stand_on_assert[rel as usize].is_empty() {
            self.wake(rel, true);
        }
        if !self.supports.is_empty() {
            self.note_support_change(rel);
            self.maintain(prog, firing)?;
        }
        Ok(Some(id))
    }

    /// The cells the last `n` staged values hold, or `None` (and nothing staged) when one nests
    /// too deeply to be stored.
    fn weigh_staged(&mut self, n: usize) -> Option<u64> {
        let staged = self.mem.staging();
        let mut cells = 0u64;
        for v in &staged[staged.len().saturating_sub(n)..] {
            match v.cells(crate::value::MAX_VALUE_DEPTH) {
                Some(c) => cells += c,
                None => {
                    self.mem.unstage(n);
                    return None;
                }
            }
        }
        Some(cells)
    }

    /// Joins a new fact with every rule pattern it can match; new activations go on the agenda.
    /// `input`: the input the fact is, while the inputs go in (its seeds are then
    /// `input_triggers`).
    fn on_new_fact(&mut self, prog: &Arc<Program>, fact: FactId, input: Option<usize>) -> Result<(), RunError> {
        let rel = self.mem.fact(fact).rel;
        // `read_inputs` and the relevant lists follow the mask (`note_read_inputs`, at the start
        // of every run): with a mask, the filtered list; without, all of the program's.
        let triggers = match (input, &self.read_inputs) {
            (Some(i), Some(_)) => &self.relevant_input_triggers[i],
            (Some(i), None) => &prog.matching.input_triggers[i],
            (None, Some(_)) => &self.relevant_triggers[rel as usize],
            (None, None) => &prog.matching.triggers[rel as usize],
        };
        if triggers.is_empty() {
            return Ok(());
        }
        // Many seeds that require different constants: only those the fact's value can match.
        let index = match (input, &self.read_inputs) {
            (None, None) => prog.matching.trigger_index[rel as usize].as_ref(),
            _ => None,
        };
        let triggers = match index {
            Some(ix) if pick_triggers(ix, triggers, self.mem.args_of(fact), &mut self.picked) => &self.picked[..],
            _ => triggers,
        };
        // One context and one read of the fact for all the rules it seeds (the same hand seeds
        // nine rules in a classification): per rule, only the match itself.
        let Session {
            mem,
            params,
            whatif,
            frame,
            agenda,
            stats,
            shared_solutions,
            opts,
            bound,
            batch,
            gates,
            chosen,
            ..
        } = self;
        let max_activations = opts.max_activations as usize;
        let mut over_budget = None;
        let shared = &prog.matching.shared_tests[rel as usize];
        let calls = &prog.matching.shared_calls[rel as usize];
        if shared_solutions.len() < calls.len() {
            shared_solutions.resize_with(calls.len(), || Solutions::new(0));
        }
        let mut said = SharedOutcomes::default();
        let mut ctx = Ctx::new(prog, mem, params, whatif);
        let values = mem.args_of(fact);
        let mut result = Ok(());
        for trigger in triggers {
            let Some(mut start) = said.start(trigger, shared, values, &mut ctx.calls) else {
                continue;
            };
            if let Some(g) = trigger.gate {
                if start == trigger.prefix_steps as usize
                    && !gate_open(&mut gates[g as usize], &prog.matching.gates[g as usize], ctx.mem)
                {
                    continue;
                }
            }
            // The built-in the join calls next: made once per fact for every rule that calls it
            // so. No solution means no match; an error leaves the join to raise it, in order.
            let mut first_call = None;
            if let (Some(c), true) = (trigger.first_call, start == trigger.prefix_steps as usize) {
                let solutions = &mut shared_solutions[c as usize];
                if said.call_failed(c, || {
                    ctx.calls += 1;
                    shared_call(&calls[c as usize], values, ctx.params, solutions)
                }) {
                    start = 0;
                } else if shared_solutions[c as usize].is_empty() {
                    continue;
                } else {
                    first_call = Some(c as usize);
                }
            }
            let rule_idx = trigger.rule;
            let rule = &prog.rules[rule_idx as usize];
            // A decided first-match group's rules match nothing more: none of theirs could fire.
            if rule.group.is_some_and(|g| chosen[g as usize].is_some()) {
                continue;
            }
            let seed = &prog.matching.plans[rule_idx as usize].seeds[trigger.seed as usize];
            let Cond::Pattern { args, .. } = &rule.conds[seed.cond as usize].cond else {
                continue;
            };
            frame.mask = 0;
            frame.facts.clear();
            match matcher::match_args(&mut ctx, args, values, frame) {
                Ok(true) => frame.mask &= !seed.taken,
                Ok(false) => continue,
                Err(e) => {
                    let error = MatchErrorKind::Eval(e);
                    let span = rule.conds[seed.cond as usize].span;
                    result = Err(in_rule(prog, rule_idx, Box::new(MatchError { span, error })));
                    break;
                }
            }
            frame.facts.push((seed.cond, fact));
            let nvars = rule.var_names.len();
            let elided = prog.matching.plans[rule_idx as usize].elided;
            let steps = PlanSteps {
                conds: &rule.conds,
                order: &seed.rest,
                fallback: &seed.fallback,
                written_first: &seed.written_first,
                made: first_call.zip(trigger.again).map(|(c, at)| (at, &shared_solutions[c])),
            };
            let reordered = seed.reordered;
            if reordered {
                batch.clear();
            }
            let mut sink = |_: &mut Ctx<'_>, fr: &Frame| {
                if reordered {
                    batch.push(Reordered::of(fr, nvars, seed.cond));
                    return Flow::Continue;
                }
                agenda.push(rule_idx, fr.mask, elided, &fr.vars[..nvars], &fr.facts);
                let created = agenda.created();
                if created % 4096 == 0 || agenda.pending() > max_activations {
                    over_budget = activation_budget(agenda.pending(), max_activations);
                    if over_budget.is_some() {
                        return Flow::Stop;
                    }
                }
                Flow::Continue
            };
            let solutions = first_call.map(|c| &shared_solutions[c]);
            let flow = join_seed(&mut ctx, &steps, start, fact, frame, &mut sink, solutions);
            if let Err(e) = ctx.outcome(flow) {
                result = Err(in_rule(prog, rule_idx, e));
                break;
            }
            if reordered && !batch.is_empty() {
                over_budget =
                    push_in_written_order(batch, &seed.rebind, ctx.mem, agenda, rule_idx, elided, max_activations);
            }
            if let Some(stop) = over_budget {
                if stop == StopReason::MemoryLimit {
                    *bound = Some(MemoryBound::Activations);
                }
                result = Err(RunError::Budget(stop));
                break;
            }
        }
        stats.builtin_calls += ctx.calls;
        result
    }

    /// Matches a rule with no positive pattern once, at the start of a run.
    fn join_initial(&mut self, prog: &Arc<Program>, rule_idx: u32) -> Result<(), RunError> {
        let rule = &prog.rules[rule_idx as usize];
        let plan = &prog.matching.plans[rule_idx as usize];
        let order: Vec<(u16, bool)> = plan.join.iter().map(|&c| (c, false)).collect();
        self.frame.mask = 0;
        self.frame.facts.clear();
        let mut ctx = Ctx::new(prog, &self.mem, &self.params, &mut self.whatif);
        let agenda = &mut self.agenda;
        let nvars = rule.var_names.len();
        // `?x = range(0, 1000000), ?y = range(0, 1000000)` makes 10^12 activations here, so
        // the bound on waiting ones (and the deadline) is looked at as in every other join.
        let max_activations = self.opts.max_activations as usize;
        let mut over_budget = None;
        let flow = matcher::solve(
            &mut ctx,
            &PlanSteps {
                conds: &rule.conds,
                order: &order,
                fallback: &[],
                made: None,
                written_first: &[],
            },
            0,
            FactId::MAX,
            &mut self.frame,
            &mut |_, fr| {
                agenda.push(rule_idx, fr.mask, plan.elided, &fr.vars[..nvars], &fr.facts);
                if agenda.created().is_multiple_of(4096) || agenda.pending() > max_activations {
                    over_budget = activation_budget(agenda.pending(), max_activations);
                    if over_budget.is_some() {
                        return Flow::Stop;
                    }
                }
                Flow::Continue
            },
        );
        self.stats.builtin_calls += ctx.calls;
        ctx.outcome(flow).map_err(|e| in_rule(prog, rule_idx, e))?;
        match over_budget {
            Some(StopReason::MemoryLimit) => Err(self.memory_limit(MemoryBound::Activations)),
            Some(stop) => Err(RunError::Budget(stop)),
            None => Ok(()),
        }
    }

    /// The output facts, output by output in declaration order, each in the order asserted.
    pub fn conclusions(&self) -> Vec<Conclusion> {
        let mut out = Vec::new();
        for &rel in &self.prog.outputs {
            for &f in self.mem.of_relation(rel) {
                if self.mem.is_alive(f) {
                    out.push(Conclusion {
                        relation: self.prog.relations[rel as usize].name.clone(),
                        args: self.mem.args_of(f).to_vec(),
                        fact: f,
                    });
                }
            }
        }
        out
    }

    /// The first argument of the first output fact, without building a conclusion list (for
    /// tight loops such as benchmarks).
    pub fn first_output_arg(&self) -> Option<&Value> {
        let rel = *self.prog.outputs.first()?;
        let f = *self.mem.of_relation(rel).iter().find(|f| self.mem.is_alive(**f))?;
        self.mem.args_of(f).first()
    }

    /// The output facts as (relation, arguments), for what-ifs.
    /// Asks only for some relations: the next runs seed only the rules that can contribute to them
    /// (`Program::relevant_to`), so a query for `category` does not pay for the odds rules. The
    /// conclusions of those relations are exactly those of a full run; other outputs may be missing.
    /// An empty list (or an unknown name) asks for everything again.
    pub fn set_goal(&mut self, relations: &[&str]) {
        let mut mask: Option<Vec<bool>> = None;
        for name in relations {
            let Some(rel) = self.prog.relation(name) else {
                self.relevant = None;
                return;
            };
            let r = self.prog.relevant_to(rel);
            mask = Some(match mask {
                None => r,
                Some(m) => m.iter().zip(&r).map(|(a, b)| *a || *b).collect(),
            });
        }
        self.relevant = mask.map(Into::into);
    }

    /// The bounds a run keeps to: firings, live facts, value cells, waiting activations.
    pub(crate) fn bounds(&self) -> [u64; 4] {
        let o = &self.opts;
        [o.firing_limit, o.max_facts, o.max_cells, o.max_activations]
    }

    /// Sets the bounds of [`Session::bounds`] (a what-if sub-query keeps the asking run's).
    pub(crate) fn set_bounds(&mut self, [firings, facts, cells, activations]: [u64; 4]) {
        self.opts.firing_limit = firings;
        self.opts.max_facts = facts;
        self.opts.max_cells = cells;
        self.opts.max_activations = activations;
        self.whatif.memo.bounds = self.bounds();
    }

    /// Restricts the next runs to the rules marked (what-if sub-queries; see `Program::relevant_to`).
    pub(crate) fn set_relevant(&mut self, relevant: Option<&Arc<[bool]>>) {
        // Usually the very mask of the last sub-query: kept without touching reference counts.
        match (&self.relevant, relevant) {
            (Some(mine), Some(theirs)) if Arc::ptr_eq(mine, theirs) => {}
            (_, theirs) => self.relevant = theirs.cloned(),
        }
    }

    /// Calls `f` with the arguments of each live fact of `rel`, in the order asserted.
    pub fn for_each_fact(&self, rel: RelId, mut f: impl FnMut(&[Value])) {
        for &id in self.mem.of_relation(rel) {
            if self.mem.is_alive(id) {
                f(self.mem.args_of(id));
            }
        }
    }

    /// The arguments of the first live fact of `relation` (by name), borrowed: for a caller that
    /// reads one decision after every run, no copy of the facts.
    pub fn first_fact_of(&self, relation: &str) -> Option<&[Value]> {
        let rel = self.prog.relation(relation)?;
        let f = *self.mem.of_relation(rel).iter().find(|f| self.mem.is_alive(**f))?;
        Some(self.mem.args_of(f))
    }

    /// Every live fact of a relation, by name (inputs and intermediate facts too).
    pub fn facts_of(&self, relation: &str) -> Vec<Vec<Value>> {
        let Some(rel) = self.prog.relation(relation) else {
            return Vec::new();
        };
        self.mem
            .of_relation(rel)
            .iter()
            .filter(|f| self.mem.is_alive(**f))
            .map(|f| self.mem.args_of(*f).to_vec())
            .collect()
    }

    /// The trace of the last run (empty unless `RunOptions::trace`).
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }

    /// Firing number `i` of the last run.
    pub fn firing(&self, i: u32) -> Option<&Firing> {
        self.firings.get(i as usize)
    }

    /// The bindings of a firing, complete. The bindings only its `because` text reads are not
    /// made during the run (see `RulePlan::deferred`): they are computed here, from the others,
    /// in the order written. One that fails reads `(error: …)` in place of its value.
    pub fn firing_vars(&self, f: &Firing) -> Cow<'_, [Value]> {
        self.firing_bindings(f).0
    }

    /// The bindings of a firing, complete, and the mask of the variables bound (see
    /// `firing_vars`).
    pub fn firing_bindings(&self, f: &Firing) -> (Cow<'_, [Value]>, u64) {
        let recorded = self.agenda.vars_at(f.vars);
        let (Some(rule), Some(plan)) = (
            self.prog.rules.get(f.rule as usize),
            self.prog.matching.plans.get(f.rule as usize),
        ) else {
            return (Cow::Borrowed(recorded), f.mask);
        };
        if plan.deferred.is_empty() && plan.restored.is_empty() {
            return (Cow::Borrowed(recorded), f.mask);
        }
        let mut vars = recorded.to_vec();
        let mut mask = f.mask;
        // The pattern-bound values the activation did not keep, from the facts matched there
        // (working memory keeps every fact's arguments until the next run, retracted or not).
        let facts = self.firing_facts(f);
        for &(slot, cond, pos) in &plan.restored {
            let fact = facts.iter().find(|(c, _)| *c == cond).map(|(_, id)| *id);
            if let (Some(v), Some(fact)) = (vars.get_mut(slot as usize), fact) {
                if let Some(arg) = self.mem.args_of(fact).get(pos as usize) {
                    *v = arg.clone();
                }
            }
        }
        for &c in &plan.deferred {
            let Some(Cond::Bind { slot, expr }) = rule.conds.get(c as usize).map(|at| &at.cond) else {
                continue;
            };
            if *slot as usize >= vars.len() {
                continue;
            }
            let v = super::eval::eval(expr, &vars, &self.params, &mut 0)
                .unwrap_or_else(|e| Value::str(&format!("(error: {e})")));
            vars[*slot as usize] = v;
            mask |= 1u64.checked_shl(u32::from(*slot)).unwrap_or(0);
        }
        (Cow::Owned(vars), mask)
    }

    /// The facts a firing matched, with the index of the condition each matched, in the order
    /// the join matched them (not sorted: readers pick a condition's facts by its index, and
    /// one condition's facts keep their order).
    pub fn firing_facts(&self, f: &Firing) -> &[(u16, FactId)] {
        self.agenda.facts_at(f.facts)
    }

    /// How many times each rule fired in the last run.
    pub fn fired_count(&self, rule: usize) -> u64 {
        self.fired_per_rule.get(rule).copied().unwrap_or(0)
    }

    /// Why an activation of rule `rule`, whose conditions held, lost to its first-match group:
    /// `{who} would apply, but the earlier S in group G was chosen: S's reason`.
    pub(crate) fn group_reason(&self, rule: u32, (by, firing): (u32, u32), who: &str) -> String {
        let prog = self.program();
        let group = prog.rules[rule as usize]
            .group
            .and_then(|g| prog.groups.get(g as usize))
            .map_or("?", |g| g.name.as_str());
        let chosen = &prog.rules[by as usize];
        let which = match by < rule {
            true => format!("the earlier {}", chosen.name),
            false => format!("{}, chosen before it,", chosen.name),
        };
        let mut out = format!("{who} would apply, but {which} in group {group} was chosen");
        let because = self.firing(firing).and_then(|f| {
            let vars = self.firing_vars(f);
            chosen
                .because
                .as_ref()
                .map(|t| super::wording::because_text(t, &vars, self.params()))
        });
        let reason = match (&chosen.title, because) {
            (Some(t), Some(b)) => Some(format!("{t} — {b}")),
            (Some(t), None) => Some(t.clone()),
            (None, b) => b,
        };
        if let Some(r) = reason {
            out.push_str(": ");
            out.push_str(&r);
        }
        out
    }

    /// Matches `conds` in the order written with the given frame, tracking the deepest step reached
    /// (for why-not). Returns whether a complete match exists and the deepest (step, vars, mask).
    pub(crate) fn probe_rule(
        &self,
        rule_idx: usize,
        whatif: &mut WhatIfRunner,
        memo: &mut AggMemo,
    ) -> Result<(bool, Option<DeepestMatch>), RunError> {
        let prog = self.prog.clone();
        let rule = &prog.rules[rule_idx];
        let order: Vec<u16> = (0..rule.conds.len() as u16).collect();
        let mut frame = Frame::with_vars(rule.var_names.len());
        let mut ctx = Ctx {
            prog: &prog,
            mem: &self.mem,
            params: &self.params,
            whatif,
            calls: 0,
            deepest: None,
            track_depth: true,
            failure: None,
            memo: Some(memo),
        };
        let flow = matcher::solve(
            &mut ctx,
            &IndexSteps {
                conds: &rule.conds,
                order: &order,
            },
            0,
            FactId::MAX,
            &mut frame,
            &mut |_, _| Flow::Stop,
        );
        let flow = ctx.outcome(flow).map_err(|e| in_rule(&prog, rule_idx as u32, e))?;
        Ok((flow == Flow::Stop, ctx.deepest.map(|d| *d)))
    }
}

/// The rest of a seed's join from step `start`, its pattern matched in `frame`: through the
/// solutions of the shared call when it was made for this fact (as the join's own call step would
/// go through them), else by the matcher from there.
#[inline(always)]
fn join_seed(
    ctx: &mut Ctx<'_>,
    steps: &PlanSteps<'_>,
    start: usize,
    fact: FactId,
    frame: &mut Frame,
    sink: &mut matcher::Sink<'_>,
    call_solutions: Option<&Solutions>,
) -> Flow {
    let Some(solutions) = call_solutions else {
        return matcher::solve(ctx, steps, start, fact, frame, sink);
    };
    let at = &steps.conds[steps.order[start].0 as usize];
    let Cond::CallOut { outputs, .. } = &at.cond else {
        unreachable!("a shared call is planned only for a call step")
    };
    matcher::solve_solutions(ctx, steps, start + 1, fact, frame, sink, at, outputs, solutions)
}

/// Stages an assert's argument values where the fact will live (no copy of them after they are
/// made); on a failure, takes back what it staged.
#[inline(always)]
fn stage(
    mem: &mut Memory,
    args: &[Expr],
    vars: &[Value],
    params: &[Value],
    calls: &mut u64,
) -> Result<(), super::eval::EvalError> {
    for (k, a) in args.iter().enumerate() {
        if let Err(e) = super::eval::push_value(mem.staging(), a, vars, params, calls) {
            mem.unstage(k);
            return Err(e);
        }
    }
    Ok(())
}

/// What the shared tests and calls said of one new fact, bit `i` for test or call `i` (at most
/// `MAX_SHARED` of each): each run once for all the rules the fact seeds, kept in registers.
#[derive(Default)]
struct SharedOutcomes {
    tests_ran: u64,
    tests_failed: u64,
    tests_undecided: u64,
    calls_made: u64,
    calls_failed: u64,
}

/// Puts in `picked` the seeds of `triggers` a fact of these arguments can match by the index (in
/// the list's order), or answers false when its value there is not compared exactly: then every
/// seed must look.
fn pick_triggers(ix: &TriggerIndex, triggers: &[Trigger], args: &[Value], picked: &mut Vec<Trigger>) -> bool {
    let Some(v) = args
        .get(ix.pos as usize)
        .filter(|v| !matches!(v, Value::Num(_) | Value::List(_)))
    else {
        return false;
    };
    let same = ix
        .by_value
        .get(&super::memory::hash_value(v))
        .map_or(&[][..], |l| l.as_slice());
    picked.clear();
    let (mut a, mut b) = (same.iter().peekable(), ix.others.iter().peekable());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&&x), Some(&&y)) if x < y => a.next(),
            (Some(_), Some(_)) | (None, Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, None) => break,
        };
        if let Some(&i) = next {
            picked.push(triggers[i as usize]);
        }
    }
    true
}

/// Whether a live fact matches `gate`, worked out again only when its relation's stamp moved
/// since `seen` was taken.
#[inline(always)]
fn gate_open(seen: &mut ((u32, u32), bool), gate: &Gate, mem: &Memory) -> bool {
    let stamp = mem.stamp(gate.rel);
    if seen.0 != stamp {
        *seen = (stamp, mem.any_with(gate.rel, &gate.consts));
    }
    seen.1
}

impl SharedOutcomes {
    /// Where `trigger`'s join starts, its prefix tests run first (those not yet run for this
    /// fact): `None` when one failed (the join would check the very same value: no match); after
    /// the prefix when all passed; at the start, as written, when one could not tell.
    #[inline(always)]
    fn start(&mut self, trigger: &Trigger, shared: &[SharedTest], values: &[Value], calls: &mut u64) -> Option<usize> {
        let mut unrun = trigger.prefix & !self.tests_ran;
        while unrun != 0 && trigger.prefix & self.tests_failed == 0 {
            let t = unrun.trailing_zeros();
            let bit = 1u64 << t;
            unrun &= !bit;
            self.tests_ran |= bit;
            match shared[t as usize].outcome(values, calls) {
                Some(true) => {}
                Some(false) => self.tests_failed |= bit,
                None => self.tests_undecided |= bit,
            }
        }
        match (
            trigger.prefix & self.tests_failed,
            trigger.prefix & self.tests_undecided,
        ) {
            (0, 0) => Some(trigger.prefix_steps as usize),
            (0, _) => Some(0),
            _ => None,
        }
    }

    /// Makes shared call `c` once per fact (`make` answers whether it succeeded); true when it
    /// failed, and the join must then make it itself, in order, to raise its error.
    #[inline(always)]
    fn call_failed(&mut self, c: u16, make: impl FnOnce() -> bool) -> bool {
        let bit = 1u64 << c;
        if self.calls_made & bit == 0 {
            self.calls_made |= bit;
            if !make() {
                self.calls_failed |= bit;
            }
        }
        self.calls_failed & bit != 0
    }
}

/// The live facts of `rel` equal to `values` as rules compare them, each number matching an
/// integer or a decimal of its value, in the relation's order; `None` when a lookup cannot say
/// (a list holding numbers, a number past 2^53, or many numbers), and the facts must be scanned.
fn loosely_equal_facts(mem: &Memory, rel: RelId, values: &mut [Value]) -> Option<smallvec::SmallVec<[FactId; 2]>> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    // A retract is on the hot path of many rule sets: no allocation for the usual few numbers.
    let mut numeric: smallvec::SmallVec<[usize; 4]> = smallvec::SmallVec::new();
    for (k, v) in values.iter().enumerate() {
        match v {
            // Zero has two decimals (0.0 and -0.0): scanned.
            Value::Int(i) if *i != 0 && (*i as f64).abs() < EXACT => numeric.push(k),
            Value::Num(x) if *x != 0.0 && x.fract() == 0.0 && x.abs() < EXACT => numeric.push(k),
            Value::Num(x) if *x != 0.0 => {}
            Value::Int(_) | Value::Num(_) => return None,
            Value::List(_) if has_number(v) => return None,
            _ => {}
        }
    }
    if numeric.len() > 4 {
        return None;
    }
    let mut found: smallvec::SmallVec<[FactId; 2]> = smallvec::SmallVec::new();
    for twins in 0..1u32 << numeric.len() {
        let flip = |values: &mut [Value]| {
            for (b, &k) in numeric.iter().enumerate() {
                if twins & (1 << b) != 0 {
                    values[k] = match values[k] {
                        Value::Int(i) => Value::Num(i as f64),
                        Value::Num(x) => Value::Int(x as i64),
                        ref other => other.clone(),
                    };
                }
            }
        };
        flip(values);
        if let Some(id) = mem.find(rel, values) {
            found.push(id);
        }
        flip(values);
    }
    found.sort_unstable();
    Some(found)
}

/// Whether a list holds a number, at any depth.
/// An input's value refused when it is outside the input's declared domain; `shown` is the value
/// as the error names it (the text given, when it was given as text).
#[cold]
fn check_domain(decl: &crate::lang::ir::InputDecl, v: &Value, shown: impl FnOnce() -> String) -> Result<(), RunError> {
    match &decl.domain {
        Some(domain) if !domain.admits(v) => Err(RunError::InputDomain {
            name: decl.name.clone(),
            expected: domain.expected(),
            got: shown(),
        }),
        _ => Ok(()),
    }
}

fn has_number(v: &Value) -> bool {
    match v {
        Value::Int(_) | Value::Num(_) => true,
        Value::List(items) => items.iter().any(has_number),
        _ => false,
    }
}

/// Whether a run that has created `created` activations must stop: past the bound, or past the
/// deadline (looked at when called, every few thousand activations).
#[cold]
fn activation_budget(pending: usize, max: usize) -> Option<StopReason> {
    if pending > max {
        Some(StopReason::MemoryLimit)
    } else if crate::budget::expired() {
        Some(StopReason::Timeout)
    } else {
        None
    }
}

/// The deepest partial match of a rule: condition index reached, variable values, bound mask.
pub(crate) type DeepestMatch = (usize, Vec<Value>, u64);

#[allow(clippy::boxed_local)] // the matcher hands errors over boxed; unboxing here gains nothing
fn in_rule(prog: &Program, rule: u32, e: Box<MatchError>) -> RunError {
    let failure = match e.error {
        MatchErrorKind::Eval(e) => {
            if let EvalFailure::Builtin(b) = e.failure() {
                if let BuiltinFailure::Input { input, message } = &*b.0 {
                    return RunError::BadPosition {
                        name: input.clone(),
                        message: message.clone(),
                    };
                }
            }
            e.into()
        }
        MatchErrorKind::Stopped(stop) => return RunError::Budget(stop),
        MatchErrorKind::WhatIf(inner) => match *inner {
            RunError::Budget(stop) => return RunError::Budget(stop),
            _ => RuleFailure::WhatIf(inner),
        },
    };
    RunError::InRule {
        rule: prog.rules[rule as usize].name.clone(),
        location: location(prog, e.span),
        failure,
    }
}

fn parse_list(t: &str) -> Option<Value> {
    let inner = t.strip_prefix('[')?.strip_suffix(']')?;
    let mut items = Vec::new();
    for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        items.push(match part.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::Num(part.parse::<f64>().ok().filter(|n| n.is_finite())?),
        });
    }
    Some(Value::list(items))
}

/// Makes a shared call on the new fact's arguments, borrowed where they are: true with `out`
/// holding its solutions, false if the built-in failed (the join then makes the call itself and
/// raises the error in order).
fn shared_call(call: &SharedCall, fact: &[Value], params: &[Value], out: &mut Solutions) -> bool {
    let called = super::eval::with_borrowed(
        &call.args,
        |a| match a {
            SharedArg::Fact(p) => fact.get(*p as usize),
            SharedArg::Const(v) => Some(v.value()),
            SharedArg::Param(i) => params.get(*i as usize),
        },
        |args| {
            out.reset(call.arity);
            call.builtin.call(args, out)
        },
    );
    called.is_some_and(|r| r.is_ok())
}

/// The values of the slots of `late` (those bound at selection), in slot order.
fn late_values(vars: &[Value], late: u64) -> Vec<Value> {
    vars.iter()
        .enumerate()
        .filter(|(i, _)| *i < 64 && late & (1u64 << i) != 0)
        .map(|(_, v)| v.clone())
        .collect()
}

/// The late bindings of a rule, as `?n=3 ?m=4`.
fn late_shown(rule: &RuleIr, vars: &[Value], late: u64) -> String {
    let mut shown = Vec::new();
    for (i, v) in vars.iter().enumerate().take(rule.var_names.len()) {
        if i < 64 && late & (1u64 << i) != 0 {
            shown.push(format!("?{}={v}", rule.var_names[i].trim_start_matches('?')));
        }
    }
    shown.join(" ")
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
        let masks: Vec<&Arc<[bool]>> = session
            .whatif
            .memo
            .sites
            .iter()
            .flatten()
            .map(|s| &s.relevant)
            .collect();
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
