//! The checker: resolves a parsed rule set against the built-in registry and collects every
//! semantic problem (docs/language.md lists them) instead of stopping at the first. Its product is the resolved
//! [`Program`] (without match plans; `engine::compile` adds those).

use super::ast::*;
use super::diagnostics::Diagnostic;
use super::ir::*;
use super::source::{SourceMap, Span};
use super::template::Template;
use crate::builtins::{Registry, TypeArgs};
use crate::value::{Constant, Value, ValueType};
use rustc_hash::{FxHashMap, FxHashSet};

/// Most variables one rule may use (bindings are tracked in a 64-bit mask).
pub const MAX_VARS: usize = 64;

/// Most patterns one rule may join (outside `not` and aggregates): each pattern starts a join
/// of the others, so a rule's match plans grow with the square of its patterns.
pub const MAX_PATTERNS: usize = 64;

/// Everything needed to check one rule set.
pub struct CheckInput<'a> {
    /// The main file first, then included files, each with its file id.
    pub files: Vec<AstFile>,
    pub sources: SourceMap,
    pub registry: &'a Registry,
    /// Names of other rule sets a `whatif` may call.
    pub known_rulesets: &'a [String],
}

/// A rule set's items by kind, from all its files.
#[derive(Default)]
struct Items {
    description: Option<String>,
    ruleset_span: Span,
    inputs: Vec<AstInput>,
    outputs: Vec<Ident>,
    /// Per output: how many facts a query may conclude, when the declaration says.
    answers: Vec<Option<Answers>>,
    rules: Vec<AstRule>,
    strategy: Strategy,
    /// `group NAME POLICY` declarations, from every file.
    groups: Vec<(Ident, Ident)>,
}

/// Checks and resolves; `Err` holds every problem found (errors and warnings) when any is an error.
pub fn check(input: CheckInput<'_>) -> Result<RuleSet, (Vec<Diagnostic>, SourceMap)> {
    let mut c = Checker {
        sources: &input.sources,
        reg: input.registry,
        known: input.known_rulesets,
        diags: Vec::new(),
        relations: Vec::new(),
        rel_spans: Vec::new(),
        params: Vec::new(),
        name: None,
        whatif_sites: 0,
        pending: Vec::new(),
        name_spans: Vec::new(),
    };
    let program = c.run(input.files);
    let diags = std::mem::take(&mut c.diags);
    drop(c);
    let has_errors = diags.iter().any(|d| d.severity == super::diagnostics::Severity::Error);
    match program {
        Some(mut p) if !has_errors => {
            p.sources = input.sources;
            p.warnings = diags;
            Ok(p)
        }
        _ => Err((diags, input.sources)),
    }
}

struct Checker<'a> {
    /// For positions inside messages ("first defined at file:line:col").
    sources: &'a SourceMap,
    reg: &'a Registry,
    known: &'a [String],
    diags: Vec<Diagnostic>,
    relations: Vec<Relation>,
    rel_spans: Vec<Span>,
    params: Vec<ParamDecl>,
    name: Option<String>,
    /// `whatif` conditions numbered so far (each gets its number: `Cond::WhatIf::site`).
    whatif_sites: u32,
    /// Tests a pattern's computed arguments became (see `split_computed`), to follow it.
    pending: Vec<Cond>,
    /// Per checked rule: where its name is written.
    name_spans: Vec<Span>,
}

/// Variables of one rule: their slots and which are bound at the current point.
#[derive(Clone, Default)]
struct Scope {
    slots: FxHashMap<String, Slot>,
    names: Vec<String>,
    bound: FxHashSet<Slot>,
    /// Variables known only when an activation is selected: an aggregate's result, and what is
    /// computed from one.
    late: FxHashSet<Slot>,
    /// Fact handles (`?f <- rel(…)`): the condition each names (its index among the rule's
    /// conditions) and its relation.
    handles: FxHashMap<String, (u16, RelId)>,
    /// Inside a `not` or an aggregate, where no handle may be taken.
    nested: bool,
    /// The types known for certain: a variable bound by an input's pattern, or to an expression
    /// whose type is known (see `Checker::type_of`).
    types: FxHashMap<Slot, ValueType>,
}

impl Scope {
    fn slot(&mut self, name: &str) -> Slot {
        if let Some(s) = self.slots.get(name) {
            return *s;
        }
        let s = self.names.len() as Slot;
        self.names.push(name.to_string());
        self.slots.insert(name.to_string(), s);
        s
    }

    fn is_bound(&self, name: &str) -> bool {
        self.slots.get(name).is_some_and(|s| self.bound.contains(s))
    }
}

impl<'a> Checker<'a> {
    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn run(&mut self, files: Vec<AstFile>) -> Option<RuleSet> {
        let items = self.items(files);
        let name = match &self.name {
            Some(n) => n.clone(),
            None => {
                self.error(
                    Span::default(),
                    "missing `ruleset NAME \"description\"` at the top of the file",
                );
                String::new()
            }
        };
        let mut inputs: Vec<InputDecl> = Vec::new();
        for inp in items.inputs {
            if inputs.iter().any(|i| i.name == inp.name.name) {
                self.error(inp.name.span, format!("input `{}` is declared twice", inp.name.name));
                continue;
            }
            inputs.extend(self.input(inp));
        }
        self.declare_asserted(&items.rules);
        let groups = self.groups(&items.groups);
        let (rules, asserted_by_failed) = self.rules(items.rules, &name, &inputs, &groups);
        self.empty_groups(&groups, &rules);
        let outputs = self.outputs(&items.outputs, &items.answers, items.ruleset_span);
        self.reachability(&rules, &inputs, &outputs, &items.outputs, &asserted_by_failed);
        let answers = items
            .outputs
            .iter()
            .zip(&items.answers)
            .filter_map(|(o, a)| Some((self.relations.iter().position(|r| r.name == o.name)? as RelId, (*a)?)))
            .collect::<Vec<_>>();
        self.overlapping_answers(&rules, &inputs, &answers);
        Some(RuleSet {
            name,
            description: items.description,
            inputs,
            outputs,
            answers,
            relations: std::mem::take(&mut self.relations),
            params: std::mem::take(&mut self.params),
            rules,
            strategy: items.strategy,
            groups,
            sources: SourceMap::default(),
            warnings: Vec::new(),
        })
    }

    /// The items of every file, sorted by kind; the header and parameters are declared on the way.
    fn items(&mut self, files: Vec<AstFile>) -> Items {
        let mut items = Items::default();
        for (i, f) in files.into_iter().enumerate() {
            for item in f.items {
                match item {
                    AstItem::RuleSet {
                        name,
                        description,
                        span,
                    } => {
                        if i > 0 {
                            self.error(span, "an included file cannot declare a `ruleset`");
                        } else if self.name.is_some() {
                            self.error(span, "a second `ruleset` declaration in one file");
                        } else {
                            self.name = Some(name.name);
                            items.description = description;
                            items.ruleset_span = span;
                        }
                    }
                    AstItem::Include { .. } => {}
                    AstItem::Input(inp) => items.inputs.push(inp),
                    AstItem::Output { names, answers, .. } => {
                        items.outputs.extend(names);
                        items.answers.extend(answers);
                    }
                    AstItem::Param(p) => {
                        let value = literal_value(&p.value);
                        let domain = (p.domain.as_ref()).and_then(|d| self.domain(&p.name.name, None, Some(&value), d));
                        self.declare_param(p.name, &p.value, domain, p.doc, false)
                    }
                    AstItem::Const { name, value, .. } => self.declare_param(name, &value, None, None, true),
                    AstItem::Strategy { name, span } => match Strategy::from_name(&name.name) {
                        Some(_) if i > 0 => self.error(span, "an included file cannot declare a `strategy`"),
                        Some(st) => items.strategy = st,
                        None => self.error(
                            name.span,
                            format!("unknown strategy `{}` (known: file_order, depth, breadth)", name.name),
                        ),
                    },
                    AstItem::Group { name, policy, .. } => items.groups.push((name, policy)),
                    AstItem::Rule(r) => items.rules.push(r),
                }
            }
        }
        items
    }

    /// An input, which becomes a unary relation: its type and options resolved, its default read.
    fn input(&mut self, inp: AstInput) -> Option<InputDecl> {
        let Some(ty) = self.reg.get_type(&inp.ty.name.name) else {
            let known: Vec<&str> = self.reg.input_types().map(|t| t.name).collect();
            self.error(
                inp.ty.name.span,
                format!(
                    "unknown input type `{}` (known: {})",
                    inp.ty.name.name,
                    known.join(", ")
                ),
            );
            return None;
        };
        let mut args = TypeArgs::default();
        for a in &inp.ty.args {
            match &a.key {
                Some(k) if !ty.keys.contains(&k.name.as_str()) => {
                    self.error(k.span, format!("type `{}` has no option `{}`", ty.name, k.name))
                }
                Some(k) => args.named.push((k.name.clone(), (a.min, a.max))),
                None if args.positional.len() >= ty.max_positional => self.error(
                    a.span,
                    format!("type `{}` takes {} size argument(s)", ty.name, ty.max_positional),
                ),
                None => args.positional.push((a.min, a.max)),
            }
            if a.min > a.max {
                self.error(a.span, format!("empty range {}..{}", a.min, a.max));
            }
        }
        let default = match &inp.default {
            Some(AstLiteral::Str(s)) => match (ty.parse)(s, &args, &inp.name.name) {
                Ok(v) => Some(v),
                Err(e) => {
                    self.error(inp.span, format!("default of `{}`: {e}", inp.name.name));
                    None
                }
            },
            Some(lit) => Some(literal_value(lit)),
            None => None,
        };
        let domain =
            (inp.domain.as_ref()).and_then(|d| self.domain(&inp.name.name, Some(ty.value_type), default.as_ref(), d));
        let rel = self.declare_relation(&inp.name.name, 1, inp.name.span);
        Some(InputDecl {
            domain,
            doc: inp.doc.clone(),
            name: inp.name.name.clone(),
            rel,
            type_name: ty.name.to_string(),
            type_args: args,
            value_type: ty.value_type,
            parse: ty.parse,
            default: default.map(Constant::new),
        })
    }

    /// Declares the relations rules assert (each by its first assert).
    fn declare_asserted(&mut self, rules: &[AstRule]) {
        for r in rules {
            for a in &r.actions {
                let (AstAction::Assert(call) | AstAction::AssertLogical(call)) = a else {
                    continue;
                };
                if self.reg.get(&call.name.name).is_some() {
                    self.error(
                        call.name.span,
                        format!(
                            "`{}` is a built-in; facts need a relation name of their own",
                            call.name.name
                        ),
                    );
                } else if call.name.name.contains('.') {
                    self.error(
                        call.name.span,
                        format!("relation names cannot contain `.`: `{}`", call.name.name),
                    );
                } else {
                    self.declare_relation(&call.name.name, call.args.len(), call.name.span);
                }
            }
        }
    }

    /// The rules checked, and what the rules with errors assert: reported once, at the errors,
    /// and not again as an output nothing produces or a rule nothing feeds.
    fn rules(
        &mut self,
        rules_ast: Vec<AstRule>,
        name: &str,
        inputs: &[InputDecl],
        groups: &[GroupDecl],
    ) -> (Vec<RuleIr>, Vec<RelId>) {
        let mut rules: Vec<RuleIr> = Vec::new();
        // Per group: its first rule (name and salience), which the others must match in salience.
        let mut first_of: Vec<Option<(String, i32)>> = vec![None; groups.len()];
        let mut seen_rules: FxHashMap<String, Span> = FxHashMap::default();
        let mut asserted_by_failed: Vec<RelId> = Vec::new();
        for r in rules_ast {
            // Loading counts against the deadline of the command that loads (`--timeout`).
            if crate::budget::expired() {
                self.error(r.name.span, "loading stopped here: the deadline (`timeout`) passed");
                break;
            }
            if let Some(prev) = seen_rules.get(&r.name.name) {
                let first = self.sources.locate(*prev);
                let first = format!("{}:{}:{}", first.file, first.line, first.col);
                self.error(
                    r.name.span,
                    format!("duplicate rule name `{}` (first defined at {first})", r.name.name),
                );
                asserted_by_failed.extend(self.asserted_relations(&r));
                continue;
            }
            seen_rules.insert(r.name.name.clone(), r.name.span);
            let group = self.rule_group(&r, groups, &mut first_of);
            match self.rule(&r, name, inputs) {
                Some(rule) => {
                    rules.push(RuleIr { group, ..rule });
                    self.name_spans.push(r.name.span);
                }
                None => asserted_by_failed.extend(self.asserted_relations(&r)),
            }
        }
        (rules, asserted_by_failed)
    }

    /// The `group` declarations: each name once, each with a policy this engine knows.
    fn groups(&mut self, decls: &[(Ident, Ident)]) -> Vec<GroupDecl> {
        let mut groups: Vec<GroupDecl> = Vec::new();
        for (name, policy) in decls {
            if let Some(prev) = groups.iter().find(|g| g.name == name.name) {
                let first = self.sources.locate(prev.span);
                self.error(
                    name.span,
                    format!(
                        "group `{}` is declared twice (first at {}:{}:{})",
                        name.name, first.file, first.line, first.col
                    ),
                );
                continue;
            }
            if policy.name != "first" {
                self.error(
                    policy.span,
                    format!(
                        "unknown group policy `{}`: write `group {} first` (the first rule whose conditions hold fires)",
                        policy.name, name.name
                    ),
                );
            }
            groups.push(GroupDecl {
                name: name.name.clone(),
                span: name.span,
            });
        }
        groups
    }

    /// The group a rule names with `in NAME`: declared, one per rule, and of the salience of the
    /// group's first rule (a group picks among its rules in file order, which salience would undo).
    fn rule_group(&mut self, r: &AstRule, groups: &[GroupDecl], first_of: &mut [Option<(String, i32)>]) -> Option<u32> {
        let g = r.groups.first()?;
        if let Some(second) = r.groups.get(1) {
            self.error(
                second.span,
                format!(
                    "rule `{}` is already in group `{}`; a rule belongs to one group",
                    r.name.name, g.name
                ),
            );
        }
        let Some(id) = groups.iter().position(|d| d.name == g.name) else {
            let near = groups
                .iter()
                .map(|d| d.name.as_str())
                .filter(|d| strsim::levenshtein(d, &g.name) <= 2)
                .min_by_key(|d| strsim::levenshtein(d, &g.name));
            let hint = match near {
                Some(n) => format!(" (did you mean `{n}`?)"),
                None => format!(" (declare it: `group {} first`)", g.name),
            };
            self.error(g.span, format!("unknown group `{}`{hint}", g.name));
            return None;
        };
        match &first_of[id] {
            Some((first, salience)) if *salience != r.salience => self.error(
                g.span,
                format!(
                    "rule `{}` has salience {}, but `{first}`, first in group `{}`, has {salience}: a group's rules share one salience (the group picks among them in file order)",
                    r.name.name, r.salience, g.name
                ),
            ),
            Some(_) => {}
            None => first_of[id] = Some((r.name.name.clone(), r.salience)),
        }
        Some(id as u32)
    }

    /// Warns where two rules can both conclude an output declared `one` for one input, when
    /// that is cheap to tell (see `overlap`).
    fn overlapping_answers(&mut self, rules: &[RuleIr], inputs: &[InputDecl], answers: &[(RelId, Answers)]) {
        for o in super::overlap::overlaps(rules, inputs, answers) {
            let (a, b) = (&rules[o.first], &rules[o.second]);
            let declared = match o.answers {
                Answers::One => "one",
                Answers::ExactlyOne => "exactly one",
            };
            let Some(&span) = self.name_spans.get(o.second) else {
                continue;
            };
            self.diags.push(Diagnostic::warning(
                span,
                format!(
                    "rules `{}` and `{}` both conclude `{}`, declared `{declared}`, for {}: a query there stops with an error; make them exclusive, or put them in one first-match group",
                    a.name, b.name, self.relations[o.rel as usize].name, o.witness
                ),
            ));
        }
    }

    /// Warns of a group no rule is in.
    fn empty_groups(&mut self, groups: &[GroupDecl], rules: &[RuleIr]) {
        for (i, g) in groups.iter().enumerate() {
            if !rules.iter().any(|r| r.group == Some(i as u32)) {
                self.diags.push(Diagnostic::warning(
                    g.span,
                    format!(
                        "group `{}` has no rule (put one in it with `rule NAME in {}`)",
                        g.name, g.name
                    ),
                ));
            }
        }
    }

    /// The declared outputs that some rule produces (the others are warned about).
    fn outputs(&mut self, outputs_ast: &[Ident], answers: &[Option<Answers>], ruleset_span: Span) -> Vec<RelId> {
        let mut outputs = Vec::new();
        for (k, o) in outputs_ast.iter().enumerate() {
            match self.relations.iter().position(|r| r.name == o.name) {
                Some(i) => outputs.push(i as RelId),
                // Every query would fail for want of the answer promised.
                None if answers.get(k) == Some(&Some(Answers::ExactlyOne)) => self.diags.push(Diagnostic::error(
                    o.span,
                    format!("no rule produces output `{}`, which is declared `exactly one`", o.name),
                )),
                None => self.diags.push(Diagnostic::warning(
                    o.span,
                    format!("no rule produces output `{}`", o.name),
                )),
            }
        }
        if outputs_ast.is_empty() && self.name.is_some() {
            self.diags.push(Diagnostic::warning(
                ruleset_span,
                "the rule set declares no `output`: queries will conclude nothing",
            ));
        }
        outputs
    }

    fn declare_param(
        &mut self,
        name: Ident,
        value: &AstLiteral,
        domain: Option<ParamDomain>,
        doc: Option<String>,
        constant: bool,
    ) {
        if self.params.iter().any(|p| p.name == name.name) {
            self.error(name.span, format!("`{}` is declared twice", name.name));
            return;
        }
        self.params.push(ParamDecl {
            name: name.name,
            value: Constant::new(literal_value(value)),
            domain,
            doc,
            constant,
        });
    }

    /// A parameter's domain, checked: numeric bounds in order for a numeric default, listed
    /// values of the default's type, and the default among the values allowed.
    /// The domain of a parameter (`input: None`, its default given) or of an input (its value
    /// type given, its default if it has one), refused where it does not fit the type.
    fn domain(
        &mut self,
        name: &str,
        input: Option<ValueType>,
        default: Option<&Value>,
        d: &AstDomain,
    ) -> Option<ParamDomain> {
        let ty = input.or(default.map(Value::ty)).unwrap_or(ValueType::Any);
        let kind = match input {
            Some(_) => "input",
            None => "parameter",
        };
        let (domain, at) = match d {
            AstDomain::Range(low, high, at) => {
                let (low, high) = (literal_value(low), literal_value(high));
                if !matches!(ty, ValueType::Int | ValueType::Num) {
                    let message = match input {
                        Some(ty) => format!(
                            "`{name}` is {} input, not a number: give its values as a list, `in [...]`",
                            article(ty.name())
                        ),
                        None => format!("`{name}` is not a number: give its values as a list, `in [...]`"),
                    };
                    self.error(*at, message);
                    return None;
                }
                if !low.compare(&high).is_some_and(|o| o.is_le()) {
                    self.error(*at, format!("the range of `{name}` is empty: {low} is above {high}"));
                    return None;
                }
                (ParamDomain::Range(Constant::new(low), Constant::new(high)), at)
            }
            AstDomain::OneOf(items, at) => {
                let items: Vec<Value> = items.iter().map(literal_value).collect();
                // A parameter's values are of its default's type (an int parameter may not list
                // 0.5); an input's are values its type reads to.
                let fits = |v: &Value| match input {
                    Some(_) => ty.accepts(v.ty()),
                    None => v.ty().accepts(ty),
                };
                if let Some(odd) = items.iter().find(|v| !fits(v)) {
                    let message = format!("`{name}` is {} {kind}, but its values list {odd}", article(ty.name()));
                    self.error(*at, message);
                    return None;
                }
                (ParamDomain::OneOf(items.into_iter().map(Constant::new).collect()), at)
            }
        };
        match default {
            Some(default) if !domain.admits(default) => {
                self.error(*at, format!("the default of `{name}`, {default}, is not in {domain}"));
                None
            }
            _ => Some(domain),
        }
    }

    fn declare_relation(&mut self, name: &str, arity: usize, span: Span) -> RelId {
        if let Some(i) = self.relations.iter().position(|r| r.name == name) {
            if self.relations[i].arity != arity {
                let prev = self.relations[i].arity;
                self.error(
                    span,
                    format!(
                        "arity mismatch: `{name}` has {arity} argument(s) here but {prev} where it was first declared"
                    ),
                );
            }
            return i as RelId;
        }
        self.relations.push(Relation {
            name: name.to_string(),
            arity,
        });
        self.rel_spans.push(span);
        (self.relations.len() - 1) as RelId
    }

    /// The relations a rule's `assert`s name (declared before any rule is checked).
    fn asserted_relations(&self, r: &AstRule) -> Vec<RelId> {
        r.actions
            .iter()
            .filter_map(|a| match a {
                AstAction::Assert(call) | AstAction::AssertLogical(call) => {
                    self.relations.iter().position(|rel| rel.name == call.name.name)
                }
                _ => None,
            })
            .map(|i| i as RelId)
            .collect()
    }

    fn rule(&mut self, r: &AstRule, set_name: &str, inputs: &[InputDecl]) -> Option<RuleIr> {
        let mut scope = Scope::default();
        let errors_before = self.error_count();
        let conds = self.conditions(&r.conditions, &mut scope, set_name, inputs);
        let mut actions = Vec::new();
        for a in &r.actions {
            match a {
                AstAction::Assert(call) | AstAction::AssertLogical(call) => {
                    let logical = matches!(a, AstAction::AssertLogical(_));
                    let Some(rel) = self.relations.iter().position(|x| x.name == call.name.name) else {
                        continue;
                    };
                    let args = call
                        .args
                        .iter()
                        .map(|e| {
                            if matches!(e.kind, AstExprKind::Wildcard) {
                                self.error(e.span, "`_` cannot be asserted: a fact needs every value");
                                None
                            } else {
                                self.expr(e, &scope, "used in `then`")
                            }
                        })
                        .collect::<Vec<_>>();
                    if args.iter().all(Option::is_some) {
                        actions.push(Action::Assert {
                            rel: rel as RelId,
                            args: args.into_iter().flatten().collect(),
                            logical,
                        });
                    }
                }
                AstAction::Retract(call) => {
                    if let Some((rel, args)) = self.pattern(call, &mut scope, false) {
                        actions.push(Action::Retract { rel, args });
                    }
                }
                AstAction::RetractHandle(h) => {
                    if let Some((cond, _)) = self.handle(h, &scope) {
                        actions.push(Action::RetractFact { cond });
                    }
                }
                AstAction::Modify { handle, args, span } => {
                    let Some((cond, rel)) = self.handle(handle, &scope) else {
                        continue;
                    };
                    let arity = self.relations[rel as usize].arity;
                    if args.len() != arity {
                        self.error(
                            *span,
                            format!(
                                "`modify {}` gives {} argument(s), but `{}` has {arity} (write `_` to keep one)",
                                handle.name,
                                args.len(),
                                self.relations[rel as usize].name
                            ),
                        );
                        continue;
                    }
                    let args: Vec<Option<Option<Expr>>> = args
                        .iter()
                        .map(|e| match e.kind {
                            AstExprKind::Wildcard => Some(None),
                            _ => self.expr(e, &scope, "used in `then`").map(Some),
                        })
                        .collect();
                    if args.iter().all(Option::is_some) {
                        actions.push(Action::Modify {
                            cond,
                            rel,
                            args: args.into_iter().flatten().collect(),
                        });
                    }
                }
                AstAction::Halt(_) => actions.push(Action::Halt),
            }
        }
        let because = r.because.as_ref().and_then(|(text, span)| {
            let params = &self.params;
            let scope_ref = &scope;
            let result = Template::parse(
                text,
                *span,
                &mut |v| scope_ref.slots.get(v).copied().filter(|s| scope_ref.bound.contains(s)),
                &|p| params.iter().position(|x| x.name == p).map(|i| i as u16),
            );
            match result {
                Ok(t) => Some(t),
                Err(errs) => {
                    for e in errs {
                        self.error(e.span, e.message);
                    }
                    None
                }
            }
        });
        let because = because.and_then(|t| self.template_exprs(t, &scope));
        if scope.names.len() > MAX_VARS {
            self.error(
                r.name.span,
                format!("rule `{}` uses more than {MAX_VARS} variables", r.name.name),
            );
        }
        let patterns = conds.iter().filter(|c| matches!(c.cond, Cond::Pattern { .. })).count();
        if patterns > MAX_PATTERNS {
            self.error(
                r.name.span,
                format!(
                    "rule `{}` joins {patterns} patterns, more than {MAX_PATTERNS}",
                    r.name.name
                ),
            );
        }
        if self.error_count() > errors_before {
            return None;
        }
        let handles = actions
            .iter()
            .any(|a| matches!(a, Action::RetractFact { .. } | Action::Modify { .. }));
        Some(RuleIr {
            name: r.name.name.clone(),
            title: r.title.clone(),
            salience: r.salience,
            conds,
            actions,
            because,
            var_names: scope.names,
            span: r.span,
            handles,
            group: None,
        })
    }

    /// A template's expression holes, parsed and checked in the rule's scope: `None` (errors
    /// reported) when one is not an expression or reads what the rule does not bind.
    fn template_exprs(&mut self, mut t: Template, scope: &Scope) -> Option<Template> {
        let before = self.error_count();
        for (text, span) in std::mem::take(&mut t.sources) {
            let ast = match super::syntax::parse_expr(span.file, &text, span.start as usize + 1) {
                Ok(ast) => ast,
                Err(d) => {
                    self.error(span, d.message);
                    continue;
                }
            };
            if let Some(e) = self.expr(&ast, scope, "used in the `because` text") {
                t.exprs.push(e);
            }
        }
        (self.error_count() == before).then_some(t)
    }

    fn error_count(&self) -> usize {
        self.diags
            .iter()
            .filter(|d| d.severity == super::diagnostics::Severity::Error)
            .count()
    }

    fn conditions(
        &mut self,
        conds: &[AstCondition],
        scope: &mut Scope,
        set_name: &str,
        inputs: &[InputDecl],
    ) -> Vec<CondAt> {
        let mut out = Vec::new();
        for c in conds {
            // Past the variable limit the rule is an error already: the rest is not looked at, so
            // that a rule of thousands of variables costs no square (each `not` copies the scope).
            if scope.names.len() > MAX_VARS {
                break;
            }
            // A variable bound before this condition stays as it was: `?x = …` and an output of
            // a call then only test it, and make nothing late (as the planner reads them).
            let bound_before = scope.bound.clone();
            let Some(cond) = self.condition(c, scope, set_name, inputs) else {
                continue;
            };
            if let (AstCondition::Handle { var, .. }, Cond::Pattern { rel, .. }) = (c, &cond) {
                if scope.nested {
                    let msg = format!(
                        "`{}`: a handle names a fact the rule matched, and inside `not` or an aggregate there is none",
                        var.name
                    );
                    self.error(var.span, msg);
                } else if scope.handles.contains_key(&var.name) || scope.slots.contains_key(&var.name) {
                    let msg = format!(
                        "`{}` is already used in this rule; a handle needs a name of its own",
                        var.name
                    );
                    self.error(var.span, msg);
                } else {
                    scope.handles.insert(var.name.clone(), (out.len() as u16, *rel));
                }
            }
            let cond = match cond {
                // A pattern that reads a late variable is matched at selection: what it binds is
                // late too, and its computed arguments stay in place.
                Cond::Pattern { rel, args } if args.iter().any(|a| pat_reads(a, &scope.late)) => {
                    for a in &args {
                        if let PatArg::Var(s) = a {
                            if !bound_before.contains(s) {
                                scope.late.insert(*s);
                            }
                        }
                    }
                    Cond::Pattern { rel, args }
                }
                Cond::Pattern { rel, args } => {
                    let args = self.split_computed(rel, args, scope);
                    Cond::Pattern { rel, args }
                }
                cond => {
                    note_late(&cond, &mut scope.late, &bound_before);
                    cond
                }
            };
            for cond in std::iter::once(cond).chain(std::mem::take(&mut self.pending)) {
                out.push(CondAt {
                    cond,
                    span: c.span(),
                    low: (),
                });
            }
        }
        out
    }

    fn condition(&mut self, c: &AstCondition, scope: &mut Scope, set_name: &str, inputs: &[InputDecl]) -> Option<Cond> {
        match c {
            AstCondition::Expr(e) => match &e.kind {
                AstExprKind::Call(call) if self.reg.get(&call.name.name).is_none() => {
                    let (rel, args) = self.pattern(call, scope, true)?;
                    if let (Some(input), [PatArg::Var(s)]) = (inputs.iter().find(|i| i.rel == rel), args.as_slice()) {
                        scope.types.entry(*s).or_insert(input.value_type);
                    }
                    Some(Cond::Pattern { rel, args })
                }
                AstExprKind::Call(call) => self.call_condition(e, call, scope),
                AstExprKind::Binary(BinaryOp::In, lhs, rhs) => {
                    if let AstExprKind::Var(v) = &lhs.kind {
                        if !scope.is_bound(v) {
                            let list = self.expr(rhs, scope, "used in `in`")?;
                            let slot = scope.slot(v);
                            scope.bound.insert(slot);
                            return Some(Cond::In { slot, list });
                        }
                    }
                    self.expr(e, scope, "compared").map(Cond::Test)
                }
                _ => self.expr(e, scope, "compared").map(Cond::Test),
            },
            AstCondition::Handle { pattern, .. } => {
                let (rel, args) = self.pattern(pattern, scope, true)?;
                Some(Cond::Pattern { rel, args })
            }
            AstCondition::Not { body, .. } => {
                let mut inner = scope.clone();
                inner.nested = true;
                let body = self.conditions(body, &mut inner, set_name, inputs);
                // Variables first bound inside `not` stay local to it, but keep their slots.
                for n in inner.names.iter().skip(scope.names.len()) {
                    scope.slot(n);
                }
                Some(Cond::Not { body })
            }
            AstCondition::Bind { var, value, span } => match value {
                AstBindValue::Expr(e) => self.bind_condition(var, e, scope),
                AstBindValue::Aggregate(agg) => self.aggregate_condition(var, agg, *span, scope, set_name, inputs),
            },
            AstCondition::WhatIf {
                ruleset,
                inputs: args,
                pattern,
                ..
            } => self.whatif_condition(ruleset, args, pattern, scope, set_name, inputs),
        }
    }

    /// A built-in named as a condition: a test (it answers true/false), or a call with output
    /// positions (`rank_held(?h, 3, ?r)`), each solution a match.
    fn call_condition(&mut self, e: &AstExpr, call: &AstCall, scope: &mut Scope) -> Option<Cond> {
        let b = self.reg.get(&call.name.name)?.clone();
        let sig = b.signature();
        let np = sig.params.len();
        if call.args.len() == np {
            if sig.multi {
                self.error(
                    call.span,
                    format!(
                        "`{}` may yield several values: bind them, `?x = {}(...)`",
                        sig.name, sig.name
                    ),
                );
                return None;
            }
            if !matches!(sig.outputs.as_slice(), [ValueType::Bool] | [ValueType::Any]) {
                self.error(
                    call.span,
                    format!(
                        "`{}` returns a {}, not true/false: compare it or bind it",
                        sig.name,
                        sig.outputs.first().map_or("nothing", |t| t.name())
                    ),
                );
                return None;
            }
            return self.expr(e, scope, "used in a test").map(Cond::Test);
        }
        if sig.outputs.is_empty() || call.args.len() != np + sig.outputs.len() {
            self.arity_error(call, np, sig.outputs.len());
            return None;
        }
        let inputs_e: Vec<Expr> = call.args[..np]
            .iter()
            .filter_map(|a| self.expr(a, scope, "passed to a built-in"))
            .collect();
        if inputs_e.len() != np {
            return None;
        }
        self.check_args(call, &inputs_e, scope);
        let outputs = call.args[np..]
            .iter()
            .map(|a| self.pat_arg(a, scope, true))
            .collect::<Option<Vec<_>>>()?;
        Some(Cond::CallOut {
            builtin: b,
            inputs: inputs_e,
            outputs,
        })
    }

    /// `?v = expr`, or `?v = f(...)` for a built-in with several solutions (each one a match).
    fn bind_condition(&mut self, var: &Ident, e: &AstExpr, scope: &mut Scope) -> Option<Cond> {
        if let AstExprKind::Call(call) = &e.kind {
            if let Some(b) = self.reg.get(&call.name.name).cloned() {
                let sig = b.signature();
                if sig.multi && call.args.len() == sig.params.len() {
                    if sig.outputs.len() != 1 {
                        self.error(
                            call.span,
                            format!(
                                "`{}` yields {} values per solution: list them as arguments",
                                sig.name,
                                sig.outputs.len()
                            ),
                        );
                        return None;
                    }
                    let inputs_e: Vec<Expr> = call
                        .args
                        .iter()
                        .filter_map(|a| self.expr(a, scope, "passed to a built-in"))
                        .collect();
                    if inputs_e.len() != call.args.len() {
                        return None;
                    }
                    self.check_args(call, &inputs_e, scope);
                    let slot = scope.slot(&var.name);
                    scope.bound.insert(slot);
                    return Some(Cond::CallOut {
                        builtin: b,
                        inputs: inputs_e,
                        outputs: vec![PatArg::Var(slot)],
                    });
                }
            }
        }
        let expr = self.expr(e, scope, "used in a binding")?;
        let fresh = !scope.is_bound(&var.name);
        let slot = scope.slot(&var.name);
        scope.bound.insert(slot);
        if let (true, Some(t)) = (fresh, self.type_of(&expr, scope)) {
            scope.types.insert(slot, t);
        }
        Some(Cond::Bind { slot, expr })
    }

    /// `?v = count { ... }` and the other aggregates: the body's variables stay local to it.
    fn aggregate_condition(
        &mut self,
        var: &Ident,
        agg: &AstAggregate,
        span: Span,
        scope: &mut Scope,
        set_name: &str,
        inputs: &[InputDecl],
    ) -> Option<Cond> {
        if scope.is_bound(&var.name) {
            self.error(
                var.span,
                format!("`{}` is already bound; an aggregate needs a fresh variable", var.name),
            );
            return None;
        }
        let mut inner = scope.clone();
        inner.nested = true;
        let body = self.conditions(&agg.body, &mut inner, set_name, inputs);
        let value = match (&agg.value, agg.op) {
            (None, AggregateOp::Count) => None,
            (Some(v), AggregateOp::Count) => {
                self.error(v.span, "`count` takes no value: write `count { ... }`");
                None
            }
            (None, op) => {
                self.error(
                    span,
                    format!("`{}` needs a value: `{} ?x {{ ... }}`", op.keyword(), op.keyword()),
                );
                None
            }
            (Some(v), _) => self.expr(v, &inner, "aggregated"),
        };
        for n in inner.names.iter().skip(scope.names.len()) {
            scope.slot(n);
        }
        let slot = scope.slot(&var.name);
        scope.bound.insert(slot);
        Some(Cond::Aggregate {
            op: agg.op,
            slot,
            value,
            body,
        })
    }

    /// `whatif RULESET(inputs) => pattern`: the rule set named, the inputs it is given, the
    /// pattern matched against its conclusions.
    fn whatif_condition(
        &mut self,
        ruleset: &Ident,
        args: &[(Ident, AstExpr)],
        pattern: &AstCall,
        scope: &mut Scope,
        set_name: &str,
        inputs: &[InputDecl],
    ) -> Option<Cond> {
        let target = if ruleset.name == set_name || ruleset.name == "self" {
            WhatIfTarget::SelfSet
        } else if self.known.iter().any(|k| k == &ruleset.name) {
            WhatIfTarget::Named(ruleset.name.clone())
        } else {
            self.error(ruleset.span, format!("unknown rule set `{}` in `whatif`", ruleset.name));
            return None;
        };
        let mut lowered = Vec::new();
        for (k, v) in args {
            if target == WhatIfTarget::SelfSet && !inputs.iter().any(|i| i.name == k.name) {
                self.error(k.span, format!("`{}` is not an input of `{}`", k.name, set_name));
                continue;
            }
            lowered.push((k.name.clone(), self.expr(v, scope, "passed to `whatif`")?));
        }
        if target == WhatIfTarget::SelfSet && !self.relations.iter().any(|r| r.name == pattern.name.name) {
            self.error(pattern.name.span, format!("unknown relation `{}`", pattern.name.name));
            return None;
        }
        let args = pattern
            .args
            .iter()
            .map(|a| self.pat_arg(a, scope, true))
            .collect::<Option<Vec<_>>>()?;
        let site = self.whatif_sites;
        self.whatif_sites += 1;
        Some(Cond::WhatIf {
            target,
            inputs: lowered,
            rel_name: pattern.name.name.clone(),
            args,
            site,
        })
    }

    fn arity_error(&mut self, call: &AstCall, params: usize, outputs: usize) {
        let expect = if outputs > 0 && params > 0 {
            format!("{params} argument(s), or {} with output variables", params + outputs)
        } else {
            format!("{params} argument(s)")
        };
        self.error(
            call.span,
            format!(
                "arity mismatch: `{}` takes {expect}, got {}",
                call.name.name,
                call.args.len()
            ),
        );
    }

    /// The condition and relation a handle names in an action (`retract ?f`, `modify ?f`).
    fn handle(&mut self, h: &Ident, scope: &Scope) -> Option<(u16, RelId)> {
        let found = scope.handles.get(&h.name).copied();
        if found.is_none() {
            let msg = match scope.slots.contains_key(&h.name) {
                true => format!(
                    "`{}` is a variable, not a fact handle: take one with `{} <- relation(…)`",
                    h.name, h.name
                ),
                false => format!(
                    "unknown fact handle `{}`: take it with `{} <- relation(…)` in `when`",
                    h.name, h.name
                ),
            };
            self.error(h.span, msg);
        }
        found
    }

    fn pattern(&mut self, call: &AstCall, scope: &mut Scope, binds: bool) -> Option<(RelId, Vec<PatArg>)> {
        let name = &call.name.name;
        let Some(rel) = self.relations.iter().position(|r| &r.name == name) else {
            let near = self.near_name(name, |_| true).or_else(|| self.near_builtin(name));
            let hint = match (near, name.contains('.')) {
                (Some(near), _) => format!(" (did you mean `{near}`?)"),
                (None, true) => " (no such built-in)".to_string(),
                (None, false) => " (no input declares it and no rule asserts it)".to_string(),
            };
            self.error(call.name.span, format!("unknown relation or built-in `{name}`{hint}"));
            return None;
        };
        let arity = self.relations[rel].arity;
        if call.args.len() != arity {
            self.error(
                call.span,
                format!(
                    "arity mismatch: `{name}` has {arity} argument(s), got {}",
                    call.args.len()
                ),
            );
            return None;
        }
        let args = call
            .args
            .iter()
            .map(|a| self.pat_arg(a, scope, binds))
            .collect::<Option<Vec<_>>>()?;
        Some((rel as RelId, args))
    }

    /// A pattern argument computed from variables (`r(?a - 1)`) becomes a variable of its own and
    /// a test that follows the pattern (`r(?t)`, `?t == ?a - 1`): a join may start at this pattern
    /// before `?a` has a value, and the test then waits until it has one.
    fn split_computed(&mut self, rel: RelId, args: Vec<PatArg>, scope: &mut Scope) -> Vec<PatArg> {
        let rel = self.relations[rel as usize].name.clone();
        args.into_iter()
            .enumerate()
            .map(|(i, a)| match a {
                PatArg::Expr(e) if reads_variables(&e, None) => {
                    // A name no rule can write, once per pattern (`?r#2`, `?r#2'` for the next).
                    let mut name = format!("?{rel}#{}", i + 1);
                    while scope.slots.contains_key(&name) {
                        name.push('\'');
                    }
                    let slot = scope.slot(&name);
                    scope.bound.insert(slot);
                    let test = Expr::Binary(BinaryOp::Eq, Box::new(Expr::Var(slot)), Box::new(e));
                    self.pending.push(Cond::Test(test));
                    PatArg::Var(slot)
                }
                a => a,
            })
            .collect()
    }

    fn pat_arg(&mut self, a: &AstExpr, scope: &mut Scope, binds: bool) -> Option<PatArg> {
        match &a.kind {
            AstExprKind::Wildcard => Some(PatArg::Wild),
            AstExprKind::Var(v) if binds || scope.is_bound(v) => {
                let s = scope.slot(v);
                scope.bound.insert(s);
                Some(PatArg::Var(s))
            }
            AstExprKind::Var(v) => {
                self.error(a.span, format!("variable `{v}` is never bound before this retract"));
                None
            }
            _ => self.expr(a, scope, "used in a pattern").map(PatArg::Expr),
        }
    }

    fn expr(&mut self, e: &AstExpr, scope: &Scope, role: &str) -> Option<Expr> {
        Some(match &e.kind {
            AstExprKind::Literal(l) => Expr::Const(Constant::new(literal_value(l))),
            AstExprKind::Var(v) if scope.handles.contains_key(v) => {
                self.error(
                    e.span,
                    format!("`{v}` is a fact handle, not a value: only `retract {v}` and `modify {v} (…)` take it"),
                );
                return None;
            }
            AstExprKind::Var(v) => {
                if !scope.is_bound(v) {
                    self.error(
                        e.span,
                        format!(
                            "variable `{v}` is {role} but never bound (bind it with a pattern or `{v} = ...` first)"
                        ),
                    );
                    return None;
                }
                Expr::Var(scope.slots[v.as_str()])
            }
            AstExprKind::Wildcard => {
                self.error(e.span, "`_` matches anything in a pattern; it has no value here");
                return None;
            }
            AstExprKind::Name(n) => match self.params.iter().position(|p| &p.name == n) {
                Some(i) => Expr::Param(i as u16),
                None => {
                    self.error(
                        e.span,
                        format!("unknown name `{n}` (not a parameter or constant; variables start with `?`)"),
                    );
                    return None;
                }
            },
            AstExprKind::List(items) => Expr::List(
                items
                    .iter()
                    .map(|i| self.expr(i, scope, role))
                    .collect::<Option<Vec<_>>>()?,
            ),
            AstExprKind::Call(call) => {
                let Some(b) = self.reg.get(&call.name.name).cloned() else {
                    if self.relations.iter().any(|r| r.name == call.name.name) {
                        self.error(
                            call.span,
                            format!(
                                "`{}` is a relation: match it as a condition of its own, not inside an expression",
                                call.name.name
                            ),
                        );
                    } else {
                        let hint = self
                            .near_builtin(&call.name.name)
                            .map(|near| format!(" (did you mean `{near}`?)"))
                            .unwrap_or_default();
                        self.error(call.name.span, format!("unknown built-in `{}`{hint}", call.name.name));
                    }
                    return None;
                };
                let sig = b.signature();
                let repeats = sig.variadic && call.args.len() + 1 >= sig.params.len();
                if call.args.len() != sig.params.len() && !repeats {
                    self.arity_error(call, sig.params.len(), sig.outputs.len());
                    return None;
                }
                if sig.multi || sig.outputs.len() != 1 {
                    self.error(
                        call.span,
                        format!(
                            "`{}` may yield several values: bind it on its own line, `?x = {}(...)`",
                            sig.name, sig.name
                        ),
                    );
                    return None;
                }
                let args = call
                    .args
                    .iter()
                    .map(|a| self.expr(a, scope, role))
                    .collect::<Option<Vec<_>>>()?;
                // A template written in the rule is checked against the values given, at load.
                if let (true, Some(Expr::Const(t))) = (sig.variadic && sig.name == "format", args.first()) {
                    if let Value::Str(t) = t.value() {
                        let probes = vec![Value::Int(0); args.len() - 1];
                        if let Err(e) = crate::value::format::format_template(t, &probes) {
                            self.error(call.args[0].span, format!("`format`: {e}"));
                        }
                    }
                }
                self.check_args(call, &args, scope);
                Expr::Call {
                    direct: b.direct(),
                    builtin: b,
                    args,
                }
            }
            AstExprKind::Unary(op, inner) => Expr::Unary(*op, Box::new(self.expr(inner, scope, role)?)),
            AstExprKind::Binary(op, l, r) => {
                let (l, r) = (self.expr(l, scope, role), self.expr(r, scope, role));
                let (l, r) = (l?, r?);
                let (lt, rt) = (self.type_of(&l, scope), self.type_of(&r, scope));
                if let (Some(lt), Some(rt)) = (lt, rt) {
                    self.check_operands(*op, lt, rt, e.span);
                }
                Expr::Binary(*op, Box::new(l), Box::new(r))
            }
            AstExprKind::Index(l, i) => Expr::Index(
                Box::new(self.expr(l, scope, role)?),
                Box::new(self.expr(i, scope, role)?),
            ),
            AstExprKind::If(c, a, b) => {
                let c = self.expr(c, scope, role);
                if let Some(Expr::Const(k)) = &c {
                    if !matches!(k.value(), Value::Bool(_)) {
                        self.error(e.span, format!("`if` needs true or false, got {}", k.ty().name()));
                    }
                }
                let a = self.expr(a, scope, role);
                let b = self.expr(b, scope, role);
                Expr::If(Box::new(c?), Box::new(a?), Box::new(b?))
            }
        })
    }

    /// A built-in's arguments against its signature: one whose type is certain (`type_of`) and
    /// that the parameter does not accept fails on every run, an error at the argument.
    fn check_args(&mut self, call: &AstCall, args: &[Expr], scope: &Scope) {
        let Some(b) = self.reg.get(&call.name.name) else {
            return;
        };
        let sig = b.signature();
        for (i, (a, (pname, pty))) in args.iter().zip(sig.params.iter()).enumerate() {
            match self.type_of(a, scope) {
                Some(t) if !pty.accepts(t) => self.error(
                    call.args[i].span,
                    format!(
                        "`{}` expects {} `{pname}` to be {}, got {}",
                        sig.name,
                        ordinal(i + 1),
                        article(pty.name()),
                        article(t.name())
                    ),
                ),
                _ => {}
            }
        }
    }

    /// The type an expression has on every run, when that is certain: a literal's, a parameter's
    /// (an override keeps its type), a variable's that `Scope::types` knows, a single-valued
    /// built-in's declared result, and what arithmetic, comparison and logic make of those.
    fn type_of(&self, e: &Expr, scope: &Scope) -> Option<ValueType> {
        let number = |t: ValueType| matches!(t, ValueType::Int | ValueType::Num);
        match e {
            Expr::Const(c) => Some(c.ty()),
            Expr::Param(i) => self.params.get(*i as usize).map(|p| p.value.ty()),
            Expr::Var(s) => scope.types.get(s).copied(),
            Expr::Call { builtin, .. } => builtin
                .signature()
                .outputs
                .first()
                .copied()
                .filter(|t| !matches!(t, ValueType::Any | ValueType::Num)),
            Expr::Unary(UnaryOp::Not, _) => Some(ValueType::Bool),
            Expr::Unary(UnaryOp::Neg, x) => self.type_of(x, scope).filter(|t| number(*t)),
            Expr::Binary(op, a, b) => match op {
                BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
                | BinaryOp::In
                | BinaryOp::And
                | BinaryOp::Or => Some(ValueType::Bool),
                _ => match (self.type_of(a, scope)?, self.type_of(b, scope)?) {
                    (ValueType::Int, ValueType::Int) => Some(ValueType::Int),
                    (ValueType::Str, ValueType::Str) if *op == BinaryOp::Add => Some(ValueType::Str),
                    _ => None,
                },
            },
            _ => None,
        }
    }

    /// A comparison or arithmetic whose operands' types make it fail on every run: a number
    /// ordered against text or a boolean, text in arithmetic with a number, a boolean in any.
    fn check_operands(&mut self, op: BinaryOp, l: ValueType, r: ValueType, span: Span) {
        use ValueType::{Bool, Int, Num, Str};
        let plain = |t: ValueType| matches!(t, Int | Num | Str | Bool);
        let number = |t: ValueType| matches!(t, Int | Num);
        if !plain(l) || !plain(r) {
            return;
        }
        let wrong = match op {
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => number(l) != number(r) || l == Bool,
            BinaryOp::Add => !(number(l) && number(r) || l == Str && r == Str),
            BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => !(number(l) && number(r)),
            _ => false,
        };
        if !wrong {
            return;
        }
        let hint = match (op, l, r) {
            (BinaryOp::Add, Str, _) | (BinaryOp::Add, _, Str) => {
                " (text is joined only with text: `format(\"{} {}\", a, b)` or `str(x)` makes text of a value)"
            }
            _ => "",
        };
        self.error(
            span,
            format!(
                "`{}` cannot take {} and {}: this fails on every run{hint}",
                op.symbol(),
                article(l.name()),
                article(r.name())
            ),
        );
    }

    /// Rules that can never fire (a positive pattern on a relation nothing live produces) are
    /// warnings; an output only such rules produce is an error. What a rule with errors asserts
    /// counts as produced (its errors are the problem to report, not their consequences).
    fn reachability(
        &mut self,
        rules: &[RuleIr],
        inputs: &[InputDecl],
        outputs: &[RelId],
        outputs_ast: &[Ident],
        asserted_by_failed: &[RelId],
    ) {
        let n = self.relations.len();
        let mut produced = vec![false; n];
        for i in inputs {
            produced[i.rel as usize] = true;
        }
        for &rel in asserted_by_failed {
            produced[rel as usize] = true;
        }
        let mut live = vec![false; rules.len()];
        loop {
            let mut changed = false;
            for (ri, r) in rules.iter().enumerate() {
                if live[ri] {
                    continue;
                }
                let ok = r.conds.iter().all(|c| match &c.cond {
                    Cond::Pattern { rel, .. } => produced[*rel as usize],
                    _ => true,
                });
                if ok {
                    live[ri] = true;
                    changed = true;
                    for a in &r.actions {
                        if let Action::Assert { rel, .. } | Action::Modify { rel, .. } = a {
                            produced[*rel as usize] = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for (ri, r) in rules.iter().enumerate() {
            if !live[ri] {
                let missing: Vec<String> = r
                    .conds
                    .iter()
                    .filter_map(|c| match &c.cond {
                        Cond::Pattern { rel, .. } if !produced[*rel as usize] => {
                            Some(format!("`{}`", self.relations[*rel as usize].name))
                        }
                        _ => None,
                    })
                    .collect();
                let hint = r
                    .conds
                    .iter()
                    .find_map(|c| match &c.cond {
                        Cond::Pattern { rel, .. } if !produced[*rel as usize] => {
                            let name = &self.relations[*rel as usize].name;
                            self.near_name(name, |i| produced[i])
                        }
                        _ => None,
                    })
                    .map(|near| format!(" (did you mean `{near}`?)"))
                    .unwrap_or_default();
                self.diags.push(Diagnostic::warning(
                    r.span,
                    format!(
                        "rule `{}` can never fire: nothing produces {}{hint}",
                        r.name,
                        missing.join(", ")
                    ),
                ));
            }
        }
        self.unread_relations(rules, inputs, outputs);
        self.cross_products(rules, outputs);
        let present: Vec<Ident> = outputs_ast
            .iter()
            .filter(|i| self.relations.iter().any(|r| r.name == i.name))
            .cloned()
            .collect();
        for (o, ident) in outputs.iter().zip(present.iter()) {
            let asserted_by_any = rules.iter().any(|r| {
                r.actions
                    .iter()
                    .any(|a| matches!(a, Action::Assert { rel, .. } | Action::Modify { rel, .. } if rel == o))
            });
            let is_input = inputs.iter().any(|i| i.rel == *o) || asserted_by_failed.contains(o);
            if !produced[*o as usize] && asserted_by_any {
                self.error(
                    ident.span,
                    format!(
                        "unreachable output `{}`: every rule that asserts it can never fire",
                        ident.name
                    ),
                );
            } else if !asserted_by_any && !is_input {
                self.diags.push(Diagnostic::warning(
                    ident.span,
                    format!("no rule produces output `{}`", ident.name),
                ));
            }
        }
    }
}

impl Checker<'_> {
    /// A pattern joined with the rule's other patterns by no variable, directly or through
    /// bindings, is matched against every combination of theirs (a cross product). Only
    /// relations that can hold many facts count: one a rule asserts more than twice (data), or
    /// one asserted by a rule that can fire for many matches (an `in`, a built-in with several
    /// solutions, or a pattern of such a relation). Inputs, outputs (a query's answer), state
    /// facts and facts asserted only after a `not` of their relation are not counted.
    fn cross_products(&mut self, rules: &[RuleIr], outputs: &[RelId]) {
        let mut many = vec![false; self.relations.len()];
        for r in rules {
            let mut actions = std::collections::HashMap::new();
            for a in &r.actions {
                if let Action::Assert { rel, .. } = a {
                    *actions.entry(*rel).or_insert(0) += 1;
                }
            }
            for (rel, n) in actions {
                many[rel as usize] |= n > 2;
            }
        }
        loop {
            let mut changed = false;
            for r in rules {
                let late = late_conditions(r);
                let fans_out = r.conds.iter().zip(&late).any(|(at, &late)| {
                    !late
                        && match &at.cond {
                            Cond::In { .. } => true,
                            Cond::CallOut { builtin, .. } => builtin.signature().multi,
                            Cond::Pattern { rel, .. } => many[*rel as usize],
                            _ => false,
                        }
                });
                if !fans_out {
                    continue;
                }
                for a in &r.actions {
                    if let Action::Assert { rel, .. } = a {
                        if !many[*rel as usize] {
                            many[*rel as usize] = true;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        // Asserted only by rules that first check there is none yet (`not play(_, _)`): one fact.
        let mut guarded = vec![true; self.relations.len()];
        for r in rules {
            for a in &r.actions {
                let Action::Assert { rel, .. } = a else { continue };
                let checks_none = r.conds.iter().any(|at| match &at.cond {
                    Cond::Not { body } => matches!(body.as_slice(), [only] if matches!(&only.cond,
                        Cond::Pattern { rel: b, args } if b == rel && args.iter().all(|a| matches!(a, PatArg::Wild)))),
                    _ => false,
                });
                guarded[*rel as usize] &= checks_none;
            }
        }
        // An output is the query's answer: a decision, a total, one or a few facts.
        let one_fact = |rel: RelId| !many[rel as usize] || guarded[rel as usize] || outputs.contains(&rel);
        for r in rules {
            // Slots joined into groups by the conditions that bind them together.
            let mut group: Vec<usize> = (0..r.var_names.len()).collect();
            fn root(group: &mut [usize], s: usize) -> usize {
                let mut s = s;
                while group[s] != s {
                    group[s] = group[group[s]];
                    s = group[s];
                }
                s
            }
            let mut slots_of = Vec::new();
            for at in &r.conds {
                let mut slots = Vec::new();
                match &at.cond {
                    Cond::Pattern { args, .. } => args.iter().for_each(|a| pat_arg_slots(a, &mut slots)),
                    Cond::Bind { slot, expr } => {
                        slots.push(*slot);
                        expr_slots(expr, &mut slots);
                    }
                    Cond::In { slot, list } => {
                        slots.push(*slot);
                        expr_slots(list, &mut slots);
                    }
                    Cond::CallOut { inputs, outputs, .. } => {
                        inputs.iter().for_each(|e| expr_slots(e, &mut slots));
                        outputs.iter().for_each(|a| pat_arg_slots(a, &mut slots));
                    }
                    _ => {}
                }
                slots.retain(|&s| (s as usize) < group.len());
                for w in slots.windows(2) {
                    let (a, b) = (root(&mut group, w[0] as usize), root(&mut group, w[1] as usize));
                    group[a] = b;
                }
                slots_of.push(slots);
            }
            let late = late_conditions(r);
            let joined: Vec<(usize, Option<usize>)> = r
                .conds
                .iter()
                .enumerate()
                .filter_map(|(i, at)| match &at.cond {
                    Cond::Pattern { rel, .. } if !one_fact(*rel) && !late[i] => Some(i),
                    _ => None,
                })
                .filter(|&i| !slots_of[i].is_empty())
                .map(|i| (i, slots_of[i].first().map(|&s| root(&mut group, s as usize))))
                .collect();
            if joined.len() < 2 {
                continue;
            }
            for &(i, g) in &joined {
                let alone = joined.iter().all(|&(j, h)| j == i || g.is_none() || h != g);
                if alone {
                    let Cond::Pattern { rel, .. } = &r.conds[i].cond else {
                        continue;
                    };
                    let name = &self.relations[*rel as usize].name;
                    self.diags.push(Diagnostic::warning(
                        r.conds[i].span,
                        format!(
                            "`{name}(…)` shares no variable with the rule's other patterns: every `{name}` fact \
                             is matched with every combination of theirs (a cross product); join it by a \
                             variable, or check the rule is meant so"
                        ),
                    ));
                    break;
                }
            }
        }
    }

    /// A relation that rules assert but no rule matches, retracts or asks a what-if for, and
    /// that is no output, is a conclusion nobody sees: most often a misspelt name.
    fn unread_relations(&mut self, rules: &[RuleIr], inputs: &[InputDecl], outputs: &[RelId]) {
        let mut used = vec![false; self.relations.len()];
        for &o in outputs {
            used[o as usize] = true;
        }
        for i in inputs {
            used[i.rel as usize] = true;
        }
        for r in rules {
            self.mark_read(&r.conds, &mut used);
            for a in &r.actions {
                if let Action::Retract { rel, .. } = a {
                    used[*rel as usize] = true;
                }
            }
        }
        let mut warned = vec![false; self.relations.len()];
        for r in rules {
            for a in &r.actions {
                let Action::Assert { rel, .. } = a else { continue };
                let i = *rel as usize;
                // `_name`: a fact kept for the explanation only (a check's verdict), by choice.
                if used[i] || warned[i] || self.relations[i].name.starts_with('_') {
                    continue;
                }
                warned[i] = true;
                let name = &self.relations[i].name;
                let hint = self
                    .near_name(name, |j| used[j])
                    .map(|near| format!(" (did you mean `{near}`?)"))
                    .unwrap_or_default();
                let message = format!("`{name}` is asserted but no rule matches it and it is not an output{hint}");
                self.diags.push(Diagnostic::warning(self.rel_spans[i], message));
            }
        }
    }

    /// Marks every relation the conditions match, negated and aggregated bodies included.
    fn mark_read(&self, conds: &[CondAt], used: &mut [bool]) {
        for c in conds {
            match &c.cond {
                Cond::Pattern { rel, .. } => used[*rel as usize] = true,
                Cond::Not { body } | Cond::Aggregate { body, .. } => self.mark_read(body, used),
                Cond::WhatIf {
                    target: WhatIfTarget::SelfSet,
                    rel_name,
                    ..
                } => {
                    if let Some(i) = self.relations.iter().position(|r| &r.name == rel_name) {
                        used[i] = true;
                    }
                }
                _ => {}
            }
        }
    }

    /// The built-in whose name is nearest `name` (at most a third of its letters apart), for a
    /// "did you mean" hint.
    fn near_builtin(&self, name: &str) -> Option<String> {
        let most = (name.chars().count() / 3).max(1);
        self.reg
            .builtins()
            .map(|b| b.signature().name.as_str())
            .filter(|b| *b != name)
            .map(|b| (strsim::damerau_levenshtein(name, b), b))
            .filter(|&(d, _)| d <= most)
            .min()
            .map(|(_, b)| b.to_string())
    }

    /// The relation among those `keep` accepts whose name is nearest `name` (at most a third of
    /// its letters apart), for a "did you mean" hint.
    fn near_name(&self, name: &str, keep: impl Fn(usize) -> bool) -> Option<String> {
        let most = (name.chars().count() / 3).max(1);
        self.relations
            .iter()
            .enumerate()
            .filter(|&(i, r)| keep(i) && r.name != name)
            .map(|(_, r)| (strsim::damerau_levenshtein(name, &r.name), &r.name))
            .filter(|&(d, _)| d <= most)
            .min()
            .map(|(_, n)| n.clone())
    }
}

/// True when the expression reads a rule variable (one of `among`, if given), not only
/// constants and parameters.
fn reads_variables(e: &Expr, among: Option<&FxHashSet<Slot>>) -> bool {
    let reads = |x: &Expr| reads_variables(x, among);
    match e {
        Expr::Var(s) => among.is_none_or(|set| set.contains(s)),
        Expr::Const(_) | Expr::Param(_) => false,
        Expr::List(items) => items.iter().any(reads),
        Expr::Call { args, .. } => args.iter().any(reads),
        Expr::Unary(_, a) => reads(a),
        Expr::Binary(_, a, b) | Expr::Index(a, b) => reads(a) || reads(b),
        Expr::If(c, a, b) => reads(c) || reads(a) || reads(b),
    }
}

/// True when a pattern argument reads one of `late`.
fn pat_reads(a: &PatArg, late: &FxHashSet<Slot>) -> bool {
    match a {
        PatArg::Var(s) => late.contains(s),
        PatArg::Expr(e) => reads_variables(e, Some(late)),
        PatArg::Wild => false,
    }
}

/// Adds to `late` the variables a condition newly binds (not in `before`) from an aggregate or
/// from what is late.
fn note_late(cond: &Cond, late: &mut FxHashSet<Slot>, before: &FxHashSet<Slot>) {
    let from_late = |e: &Expr, late: &FxHashSet<Slot>| reads_variables(e, Some(late));
    match cond {
        Cond::Aggregate { slot, .. } => {
            late.insert(*slot);
        }
        Cond::Bind { slot, expr } | Cond::In { slot, list: expr }
            if from_late(expr, late) && !before.contains(slot) =>
        {
            late.insert(*slot);
        }
        Cond::CallOut { inputs, outputs, .. } if inputs.iter().any(|e| from_late(e, late)) => {
            for o in outputs {
                if let PatArg::Var(s) = o {
                    if !before.contains(s) {
                        late.insert(*s);
                    }
                }
            }
        }
        _ => {}
    }
}

/// `an int`, `a string`, `cards`.
fn article(name: &str) -> String {
    match name {
        "cards" => name.to_string(),
        _ if name.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {name}"),
        _ => format!("a {name}"),
    }
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "its first argument".into(),
        2 => "its second argument".into(),
        3 => "its third argument".into(),
        n => format!("argument {n}"),
    }
}

/// The value of a literal.
pub fn literal_value(l: &AstLiteral) -> Value {
    match l {
        AstLiteral::Int(i) => Value::Int(*i),
        AstLiteral::Num(n) => Value::Num(*n),
        AstLiteral::Str(s) => Value::Str(crate::value::Text::interned(s)),
        AstLiteral::Bool(b) => Value::Bool(*b),
        // Frozen: a literal is kept by the program, which threads share (`Shared`).
        AstLiteral::List(items) => Value::list(items.iter().map(literal_value)).frozen(),
    }
}

fn pat_arg_slots(a: &PatArg, out: &mut Vec<Slot>) {
    match a {
        PatArg::Var(s) => out.push(*s),
        PatArg::Expr(e) => expr_slots(e, out),
        PatArg::Wild => {}
    }
}

fn expr_slots(e: &Expr, out: &mut Vec<Slot>) {
    match e {
        Expr::Var(s) => out.push(*s),
        Expr::Const(_) | Expr::Param(_) => {}
        Expr::List(items) | Expr::Call { args: items, .. } => items.iter().for_each(|i| expr_slots(i, out)),
        Expr::Unary(_, x) => expr_slots(x, out),
        Expr::Binary(_, a, b) | Expr::Index(a, b) => {
            expr_slots(a, out);
            expr_slots(b, out);
        }
        Expr::If(c, a, b) => [c, a, b].into_iter().for_each(|e| expr_slots(e, out)),
    }
}

/// Per condition: whether it is matched when the rule is selected rather than as facts arrive
/// (a negation, an aggregate, or a condition reading what one binds): an extreme picked by an
/// aggregate is one fact, not a join.
fn late_conditions(r: &RuleIr) -> Vec<bool> {
    let mut late_slots = vec![false; r.var_names.len()];
    let mut early_slots = vec![false; r.var_names.len()];
    let mut out = Vec::with_capacity(r.conds.len());
    for at in &r.conds {
        let mut slots = Vec::new();
        let late = match &at.cond {
            Cond::Not { .. } => true,
            Cond::Aggregate { slot, .. } => {
                slots.push(*slot);
                true
            }
            Cond::Pattern { args, .. } => {
                args.iter().for_each(|a| pat_arg_slots(a, &mut slots));
                slots.iter().any(|&s| late_slots.get(s as usize) == Some(&true))
            }
            Cond::Test(e) => {
                expr_slots(e, &mut slots);
                slots.iter().any(|&s| late_slots.get(s as usize) == Some(&true))
            }
            Cond::Bind { slot, expr } | Cond::In { slot, list: expr } => {
                expr_slots(expr, &mut slots);
                let late = slots.iter().any(|&s| late_slots.get(s as usize) == Some(&true));
                slots.push(*slot);
                late
            }
            Cond::CallOut { inputs, outputs, .. } => {
                inputs.iter().for_each(|e| expr_slots(e, &mut slots));
                let late = slots.iter().any(|&s| late_slots.get(s as usize) == Some(&true));
                outputs.iter().for_each(|a| pat_arg_slots(a, &mut slots));
                late
            }
            Cond::WhatIf { .. } => false,
        };
        for s in slots {
            let s = s as usize;
            if s < late_slots.len() && !early_slots[s] {
                match late {
                    true => late_slots[s] = true,
                    false => early_slots[s] = true,
                }
            }
        }
        out.push(late);
    }
    out
}
