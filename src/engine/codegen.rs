//! Rust source for a rule set's joins (`kibitzer compile`): each seed's plan written out as the
//! matcher would run it, for the joins a new fact starts. See `engine::compiled` for why and for
//! how the code is tied to the program it came from.
//!
//! What is written out:
//! - a pattern on a relation holding one fact (every input): its arguments bound or compared in
//!   place, as `match_args` does;
//! - a test or binding with a pre-decoded form (`Fast`), run as that very form;
//! - an arithmetic test or binding (`NumProg`), its ops as Rust on locals;
//! - `?x in list` for an unbound `?x` over a variable, parameter or constant: a loop;
//! - a built-in with outputs: its solutions made as the matcher makes them (or taken from the
//!   call made ahead of the join, `Join::made`), a loop over them.
//!
//! Any other step, and any value a written-out step does not take as it is, hands the search to
//! the matcher at that step (`interpret`). A seed is written out only when a run can start it and
//! its first step is one of the above.

use super::program::{Cond, Expr, PatArg, Program, Slot};
use super::value::Value;
use crate::builtins::registry::OneFn;
use std::fmt::Write;

/// The built-ins and constants generated code refers to by number (`j.fns[k]`, `j.consts[k]`),
/// in the order the text refers to them: one entry per reference, so that the text never
/// depends on which functions the compiler happened to merge.
#[derive(Default)]
pub struct Tables {
    pub fns: Vec<OneFn>,
    pub consts: Vec<Value>,
}

impl Tables {
    /// The number of a new entry for `f`.
    pub fn func(&mut self, f: OneFn) -> usize {
        self.fns.push(f);
        self.fns.len() - 1
    }

    /// The number of a new entry for `v`.
    pub fn constant(&mut self, v: &Value) -> usize {
        self.consts.push(v.clone());
        self.consts.len() - 1
    }
}

/// A rule set's generated module.
pub struct Generated {
    /// The module's whole text.
    pub text: String,
    /// The digest of the text after its digest line (what `compiled::attach` compares).
    pub digest: u64,
    pub tables: Tables,
    /// How many joins were written out.
    pub joins: usize,
}

/// The first line the digest does not cover; everything after it is.
const DIGEST_LINE: &str = "pub const DIGEST: u64 = ";

/// Generates the module of `prog`'s joins.
pub fn generate(prog: &Program) -> Generated {
    let mut tables = Tables::default();
    let mut table = String::new();
    let mut fns = String::new();
    let mut joins = 0usize;
    // The seeds a run can start: those an input starts while the inputs go in, and those of
    // relations rules assert (an input's other seeds wait for a later input, see
    // `Program::input_triggers`, and an input gets no fact after that).
    let mut asserted = vec![false; prog.relations.len()];
    for rule in &prog.rules {
        for action in &rule.actions {
            if let super::program::Action::Assert { rel, .. } = action {
                asserted[*rel as usize] = true;
            }
        }
    }
    let used: Vec<&super::program::Trigger> = prog
        .input_triggers
        .iter()
        .flatten()
        .chain(
            prog.triggers
                .iter()
                .enumerate()
                .filter(|(rel, _)| asserted[*rel])
                .flat_map(|(_, ts)| ts),
        )
        .collect();
    for (r, rule) in prog.rules.iter().enumerate() {
        let plan = &prog.plans[r];
        for (s, seed) in plan.seeds.iter().enumerate() {
            if !used.iter().any(|t| t.rule as usize == r && t.seed as usize == s) {
                continue;
            }
            let Cond::Pattern { args, .. } = &rule.conds[seed.cond as usize].cond else {
                continue;
            };
            // What the seed pattern binds (the join starts from an empty mask).
            let mut bound = 0u64;
            for a in args {
                if let PatArg::Var(v) = a {
                    bound |= bit(*v);
                }
            }
            let mut gen = Seed {
                prog,
                rest: &seed.rest,
                conds: &rule.conds,
                tables: &mut tables,
                written: 0,
            };
            // Leading tests may be checked ahead of the join (`Trigger::prefix_steps`): the
            // join then starts after them, so each is guarded by where the join starts.
            let leading = seed
                .rest
                .iter()
                .take_while(|&&(c, _)| matches!(rule.conds[c as usize].cond, Cond::Test(_)))
                .count();
            let mut body = String::new();
            let mark = gen.tables.fns.len();
            let marks = gen.tables.consts.len();
            gen.steps(0, 0, bound, leading, &mut body);
            if gen.written == 0 {
                tables.fns.truncate(mark);
                tables.consts.truncate(marks);
                continue;
            }
            joins += 1;
            let name = format!("j{r}_{s}");
            let _ = writeln!(table, "    ({r}, {s}, {name}),");
            let seed_text = prog.sources.text(rule.conds[seed.cond as usize].span);
            let _ = write!(
                fns,
                "\n/// `{}`, joined from a new `{}`.\nfn {name}(j: &mut Join<'_, '_>, start: usize) -> Flow {{\n\
                 if start > {leading} {{\nreturn interpret(j, start);\n}}\n\
                 let mask0 = j.frame.mask;\nlet depth0 = j.frame.facts.len();\n\
                 let flow: Flow = 'l0: {{\n{body}}};\n\
                 j.frame.mask = mask0;\nj.frame.facts.truncate(depth0);\nflow\n}}\n",
                rule.name,
                seed_text.split_whitespace().collect::<Vec<_>>().join(" ")
            );
        }
    }
    let rest = format!("\npub static JOINS: &[(u32, u16, JoinFn)] = &[\n{table}];\n{fns}");
    let digest = fnv(rest.as_bytes());
    let text = format!(
        "//! Generated by `kibitzer compile {name}` from the rule set `{name}`: its joins as Rust (see\n\
         //! `engine::codegen`). Do not edit: run `UPDATE_EXPECT=1 cargo test` after editing the rules.\n\
         #![allow(clippy::all, unused, unreachable_code)]\n\n\
         use crate::engine::compiled::prelude::*;\n\n\
         {DIGEST_LINE}{digest:#018x};\n{rest}",
        name = prog.name
    );
    Generated {
        text,
        digest,
        tables,
        joins,
    }
}

/// FNV-1a, 64 bits: a digest that stays the same across builds and toolchains.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn bit(s: Slot) -> u64 {
    1u64.checked_shl(u32::from(s)).unwrap_or(0)
}

/// One seed's plan being written out.
struct Seed<'a> {
    prog: &'a Program,
    rest: &'a [(u16, bool)],
    conds: &'a [super::program::CondAt],
    tables: &'a mut Tables,
    /// Steps written out (not handed to the matcher).
    written: usize,
}

impl Seed<'_> {
    /// Writes steps `k..` at loop depth `level` with the slots in `bound` bound; every path ends
    /// in a `break` out of the level's block with the search's flow. Steps before `leading` are
    /// guarded by `start`.
    fn steps(&mut self, k: usize, level: usize, bound: u64, leading: usize, out: &mut String) {
        let brk = format!("break 'l{level}");
        let Some(&(c, skip)) = self.rest.get(k) else {
            let _ = writeln!(out, "{brk} (j.sink)(j.ctx, j.frame);");
            return;
        };
        let at = &self.conds[c as usize];
        // Among the leading tests the matcher resumes where the join started, if that is later: the
        // tests between were checked ahead of the join (a test of another kind is not skipped).
        let hand_over = match k < leading && level == 0 {
            true => format!("{brk} interpret(j, start.max({k}))"),
            false => format!("{brk} interpret(j, {k})"),
        };
        let guard = |code: String| match k < leading && level == 0 {
            true => format!("if start <= {k} {{\n{code}}}\n"),
            false => code,
        };
        let _ = writeln!(
            out,
            "// {}",
            self.prog
                .sources
                .text(at.span)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        );
        if let Some(fast) = &at.fast {
            let e = fast.emit(self.tables);
            out.push_str(&guard(format!(
                "match {e} {{\nSome(true) => {{}}\nSome(false) => {brk} Flow::Continue,\nNone => {hand_over},\n}}\n"
            )));
            let binds = match at.cond {
                Cond::Bind { slot, .. } => bit(slot),
                _ => 0,
            };
            self.written += 1;
            return self.steps(k + 1, level, bound | binds, leading, out);
        }
        if let Some(num) = at
            .num
            .as_ref()
            .filter(|p| p.binds().is_none_or(|s| bound & bit(s) == 0))
        {
            let body = num.emit(self.tables);
            let calls = num.calls();
            let code = match num.binds() {
                Some(slot) => format!(
                    "let r = {{\nlet v = &j.frame.vars[..];\nlet p = j.ctx.params;\n(|| -> Option<Num> {{\n{body}\n}})()\n}};\n\
                     match r {{\nSome(n) => {{\nj.ctx.calls += {calls};\nj.frame.bind_num({slot}, n);\n}}\nNone => {hand_over},\n}}\n"
                ),
                None => format!(
                    "let r = {{\nlet v = &j.frame.vars[..];\nlet p = j.ctx.params;\n(|| -> Option<bool> {{\n{body}\n}})()\n}};\n\
                     match r {{\nSome(pass) => {{\nj.ctx.calls += {calls};\nif !pass {{\n{brk} Flow::Continue;\n}}\n}}\nNone => {hand_over},\n}}\n"
                ),
            };
            out.push_str(&guard(format!("{{\n{code}}}\n")));
            self.written += 1;
            let binds = num.binds().map_or(0, bit);
            return self.steps(k + 1, level, bound | binds, leading, out);
        }
        match &at.cond {
            Cond::Pattern { rel, args }
                if args
                    .iter()
                    .all(|a| !matches!(a, PatArg::Expr(e) if !matches!(e, Expr::Const(_)))) =>
            {
                let names: Vec<String> = (0..args.len()).map(|i| format!("a{i}")).collect();
                let mut code = format!(
                    "let mem = j.ctx.mem;\nlet &[f] = mem.of_relation({rel}) else {{\n{hand_over};\n}};\n\
                     if {}!mem.is_alive(f) {{\n{brk} Flow::Continue;\n}}\n\
                     let [{}] = mem.args_of(f) else {{\n{hand_over};\n}};\n",
                    if skip { "f == j.new_fact || " } else { "" },
                    names.join(", ")
                );
                let mut now = bound;
                for (i, a) in args.iter().enumerate() {
                    match a {
                        PatArg::Wild => {}
                        PatArg::Var(s) if now & bit(*s) == 0 => {
                            let _ = writeln!(code, "j.frame.bind_ref({s}, a{i});");
                            now |= bit(*s);
                        }
                        PatArg::Var(s) => {
                            let _ = writeln!(
                                code,
                                "if !j.frame.vars[{s}].loose_eq(a{i}) {{\n{brk} Flow::Continue;\n}}"
                            );
                        }
                        PatArg::Expr(e) => {
                            let Expr::Const(v) = e else {
                                unreachable!("guarded by the match arm")
                            };
                            let n = self.tables.constant(v);
                            let _ = writeln!(code, "if !j.consts[{n}].loose_eq(a{i}) {{\n{brk} Flow::Continue;\n}}");
                        }
                    }
                }
                let _ = writeln!(code, "j.frame.facts.push(({c}, f));");
                out.push_str(&guard(format!("{{\n{code}}}\n")));
                self.written += 1;
                self.steps(k + 1, level, now, leading, out)
            }
            Cond::CallOut { outputs, .. } => {
                let mut now = bound;
                for a in outputs {
                    if let PatArg::Var(s) = a {
                        now |= bit(*s);
                    }
                }
                let inner = level + 1;
                let _ = write!(
                    out,
                    "let made = j.made({c});\nlet mut own = Solutions::new(0);\n\
                     let sols = match made {{\nSome(sols) => sols,\nNone => {{\n\
                     if !call(j, {c}, &mut own) {{\n{hand_over};\n}}\n&own\n}}\n}};\n\
                     let saved = j.frame.mask;\nlet depth = j.frame.facts.len();\nlet mut flow = Flow::Continue;\n\
                     for row in 0..sols.len() {{\nmatch outputs_match(j, {c}, sols.row(row)) {{\n\
                     Ok(true) => {{}}\nOk(false) => {{\nj.frame.mask = saved;\ncontinue;\n}}\n\
                     Err(e) => {{\nflow = fail_at(j, {c}, e);\nbreak;\n}}\n}}\n\
                     let inner: Flow = 'l{inner}: {{\n"
                );
                self.written += 1;
                self.steps(k + 1, inner, now, 0, out);
                let _ = write!(
                    out,
                    "}};\nj.frame.mask = saved;\nj.frame.facts.truncate(depth);\n\
                     if inner != Flow::Continue {{\nflow = inner;\nbreak;\n}}\n}}\n{brk} flow;\n"
                );
            }
            Cond::In { slot, list } if bound & bit(*slot) == 0 => {
                let list = match list {
                    Expr::Var(s) if bound & bit(*s) != 0 => format!("&j.frame.vars[{s}]"),
                    Expr::Param(i) => format!("&j.ctx.params[{i}]"),
                    Expr::Const(v) => format!("&j.consts[{}]", self.tables.constant(v)),
                    _ => {
                        let _ = writeln!(out, "{hand_over};");
                        return;
                    }
                };
                let inner = level + 1;
                let _ = write!(
                    out,
                    "let Some(items) = Items::of({list}) else {{\n{hand_over};\n}};\n\
                     let saved = j.frame.mask;\nlet depth = j.frame.facts.len();\nlet mut flow = Flow::Continue;\n\
                     for i in 0..items.len() {{\nitems.bind(j.frame, {slot}, i);\nlet inner: Flow = 'l{inner}: {{\n"
                );
                self.written += 1;
                self.steps(k + 1, inner, bound | bit(*slot), 0, out);
                let _ = write!(
                    out,
                    "}};\nj.frame.mask = saved;\nj.frame.facts.truncate(depth);\n\
                     if inner != Flow::Continue {{\nflow = inner;\nbreak;\n}}\n}}\n{brk} flow;\n"
                );
            }
            _ => {
                let _ = writeln!(out, "{hand_over};");
            }
        }
    }
}
