//! The engine from Python: `ask`, `check`, `Session`, `batch`. Answers have the structure of
//! `kibitzer ask --json` (and `batch`'s lines), built here from the public session and
//! explanation API.

use crate::convert::{json_to_py, py_input_text, py_to_json, value_to_py};
use crate::errors::{self, bad_input};
use crate::guard::{guard, ThreadBound};
use kibitzer::library::{shipped_text, LoadError, Loader};
use kibitzer::query::JsonParts;
use kibitzer::Query;
use kibitzer::{answer_texts, Explainer, WhyNotError};
use kibitzer::{Conclusion, ExplainLimits, Program, RunError, RunOptions, RunResult, Session, StopReason};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use rayon::prelude::*;
use serde_json::{json, Value as Json};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ask, m)?)?;
    m.add_function(wrap_pyfunction!(batch, m)?)?;
    m.add_function(wrap_pyfunction!(check_file, m)?)?;
    m.add_function(wrap_pyfunction!(rulesets, m)?)?;
    m.add_function(wrap_pyfunction!(rust_ask_seconds, m)?)?;
    m.add_class::<PySession>()?;
    Ok(())
}

// ---- loading ----------------------------------------------------------------------------------

/// The shipped rule sets, each compiled once per process (a query then costs no load).
fn shipped_cache() -> &'static Mutex<HashMap<String, Arc<Program>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Program>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn is_shipped(name: &str) -> bool {
    shipped_text(&format!("{}.rules", name.replace('-', "_"))).is_some()
}

/// A rule set by shipped name or path, or, with `rules`, that file in its place (which must
/// declare the same rule set), as the CLI loads it. Shipped ones are cached; files are read
/// every time, so an edit is seen at the next call.
pub fn load(ruleset: &str, rules: Option<&str>, include_root: Option<&str>) -> Result<Arc<Program>, LoadError> {
    let mut loader = Loader::new();
    if let Some(root) = include_root {
        loader = loader.include_root(root);
    }
    if rules.is_none() && is_shipped(ruleset) {
        if let Ok(cache) = shipped_cache().lock() {
            if let Some(p) = cache.get(ruleset) {
                return Ok(p.clone());
            }
        }
        let program = loader.ruleset(ruleset, None)?;
        if let Ok(mut cache) = shipped_cache().lock() {
            cache.insert(ruleset.to_string(), program.clone());
        }
        return Ok(program);
    }
    loader.ruleset(ruleset, rules.map(Path::new))
}

pub fn load_py(
    py: Python<'_>,
    ruleset: &str,
    rules: Option<&str>,
    include_root: Option<&str>,
) -> PyResult<Arc<Program>> {
    load(ruleset, rules, include_root).map_err(|e| errors::load_error(py, &e))
}

fn new_session(program: &Arc<Program>, options: RunOptions) -> Session {
    let mut s = kibitzer::query::session(program);
    s.set_options(options);
    s
}

pub(crate) fn timeout_of(secs: Option<f64>) -> PyResult<Option<Duration>> {
    match secs {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 => Duration::try_from_secs_f64(s)
            .map(Some)
            .map_err(|_| bad_input(format!("`{s}`: too long a timeout"))),
        Some(s) => Err(bad_input(format!("`{s}`: the timeout must be more than 0 seconds"))),
    }
}

// ---- answers ----------------------------------------------------------------------------------

/// What an answer says about how each conclusion was reached.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Explain {
    /// No explanation.
    Off,
    /// The player's view: the answer in game terms, the concluding rule, title, because and the
    /// ranked options (as `ask --json` writes it under `answers`).
    Short,
    /// The whole derivation tree, as `ask --json` writes it (subtrees once, referred to after).
    Full,
    /// The text `ask` prints for the conclusion.
    Text,
}

/// The `explain` argument: "short" when not given, `None` for none.
pub struct ExplainArg(pub Explain);

impl<'a, 'py> FromPyObject<'a, 'py> for ExplainArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        explain_mode(Some(&obj.to_owned())).map(ExplainArg)
    }
}

pub fn explain_mode(v: Option<&Bound<'_, PyAny>>) -> PyResult<Explain> {
    let Some(v) = v else {
        return Ok(Explain::Short);
    };
    if v.is_none() {
        return Ok(Explain::Off);
    }
    if let Ok(b) = v.extract::<bool>() {
        return Ok(if b { Explain::Full } else { Explain::Off });
    }
    let text: String = v
        .extract()
        .map_err(|_| bad_input("explain must be \"short\", \"full\", \"text\" or None"))?;
    match text.as_str() {
        "short" => Ok(Explain::Short),
        "full" => Ok(Explain::Full),
        "text" => Ok(Explain::Text),
        "none" | "off" => Ok(Explain::Off),
        other => Err(bad_input(format!(
            "explain `{other}`: expected \"short\", \"full\", \"text\" or None"
        ))),
    }
}

/// The explanation of each conclusion (in `conclusions()` order) in the asked form, as JSON:
/// the conclusions of one answer are explained together, so a subtree is given once.
fn explanations_json(
    s: &Session,
    conclusions: &[Conclusion],
    mode: Explain,
    limits: ExplainLimits,
) -> Vec<Option<Json>> {
    match mode {
        Explain::Off => vec![None; conclusions.len()],
        Explain::Full => {
            let facts: Vec<_> = conclusions.iter().map(|c| c.fact).collect();
            Explainer::new(s)
                .explain_all(&facts, limits)
                .into_iter()
                .map(|e| Some(serde_json::to_value(e).unwrap_or(Json::Null)))
                .collect()
        }
        Explain::Short | Explain::Text => {
            let answers = Explainer::new(s).answers();
            let texts = answer_texts(&answers);
            conclusions
                .iter()
                .map(|c| {
                    let at = answers.iter().position(|a| a.fact == Some(c.fact));
                    match (mode, at) {
                        (Explain::Short, Some(i)) => Some(serde_json::to_value(&answers[i]).unwrap_or(Json::Null)),
                        // An option is shown under its decision's answer.
                        (Explain::Short, None) => None,
                        (_, Some(i)) => Some(Json::String(texts[i].clone())),
                        (_, None) => Some(Json::String(String::new())),
                    }
                })
                .collect()
        }
    }
}

/// A run's answer in `ask --json`'s structure, as JSON (the Rust side of the overhead figure,
/// and `batch`).
fn answer_json(s: &Session, result: &RunResult, mode: Explain, limits: ExplainLimits) -> Json {
    let all = s.conclusions();
    let parts = JsonParts {
        answers: true,
        explanations: explanations_json(s, &all, mode, limits),
        all_stats: true,
    };
    kibitzer::query::answer_json(s, result, &parts)
}

/// A why-not question that names nothing is bad input; a run that failed, as any run error.
fn why_not_error(e: &WhyNotError) -> PyErr {
    match e {
        WhyNotError::Run(e) => errors::run_error(e),
        other => bad_input(other.to_string()),
    }
}

fn stop_text(stop: StopReason) -> String {
    match serde_json::to_value(stop) {
        Ok(Json::String(s)) => s,
        _ => stop.to_string(),
    }
}

/// A run's answer as Python objects, built directly (no JSON text in between).
#[allow(clippy::too_many_arguments)]
fn answer_py<'py>(
    py: Python<'py>,
    s: &Session,
    program: &Program,
    result: &RunResult,
    mode: Explain,
    limits: ExplainLimits,
    trace: bool,
    why_not: &[String],
) -> PyResult<Bound<'py, PyDict>> {
    let mut explainer = Explainer::new(s);
    let mut why_nots = Vec::new();
    for q in why_not {
        why_nots.extend(explainer.why_not_query(q).map_err(|e| why_not_error(&e))?);
    }
    let out = PyDict::new(py);
    out.set_item("ruleset", program.name())?;
    out.set_item(
        "answers",
        json_to_py(py, &serde_json::to_value(explainer.answers()).unwrap_or(Json::Null))?,
    )?;
    out.set_item("conclusions", conclusions_py(py, s, mode, limits)?)?;
    out.set_item(
        "stats",
        json_to_py(py, &serde_json::to_value(&result.stats).unwrap_or(Json::Null))?,
    )?;
    out.set_item("stop", stop_text(result.stop))?;
    if trace {
        out.set_item("trace", explainer.trace_text())?;
    }
    if !why_nots.is_empty() {
        out.set_item(
            "why_not",
            json_to_py(py, &serde_json::to_value(&why_nots).unwrap_or(Json::Null))?,
        )?;
    }
    Ok(out)
}

fn conclusions_py<'py>(
    py: Python<'py>,
    s: &Session,
    mode: Explain,
    limits: ExplainLimits,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    let all = s.conclusions();
    let explained = explanations_json(s, &all, mode, limits);
    for (c, e) in all.into_iter().zip(explained) {
        let item = PyDict::new(py);
        item.set_item("relation", PyString::new(py, &c.relation))?;
        let args = PyList::empty(py);
        for a in &c.args {
            args.append(value_to_py(py, a)?)?;
        }
        item.set_item("args", args)?;
        if let Some(e) = e {
            item.set_item("explanation", json_to_py(py, &e)?)?;
        }
        list.append(item)?;
    }
    Ok(list)
}

fn limits_of(whatif_depth: usize) -> ExplainLimits {
    ExplainLimits {
        whatif_depth,
        ..ExplainLimits::default()
    }
}

// ---- ask --------------------------------------------------------------------------------------

thread_local! {
    /// One reused session per cached rule set and thread, for `ask` calls with no parameter
    /// override (so their parameters are always the defaults).
    static ASK_SESSIONS: RefCell<HashMap<usize, Session>> = RefCell::new(HashMap::new());
}

/// Inputs given as keyword arguments and as the `inputs` dict, as (name, text).
fn gather_inputs(
    inputs: Option<&Bound<'_, PyDict>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    for d in [inputs, kwargs].into_iter().flatten() {
        for (k, v) in d.iter() {
            out.push((k.extract::<String>()?, py_input_text(&v)?));
        }
    }
    Ok(out)
}

fn gather_params(params: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    if let Some(d) = params {
        for (k, v) in d.iter() {
            out.push((k.extract::<String>()?, py_input_text(&v)?));
        }
    }
    Ok(out)
}

/// Gives parameters and inputs to a session, failing on the first bad one as the CLI does.
fn give(s: &mut Session, params: &[(String, String)], inputs: &[(String, String)]) -> Result<(), RunError> {
    for (k, v) in params {
        s.set_param(k, v)?;
    }
    for (k, v) in inputs {
        s.set_input_text(k, v)?;
    }
    Ok(())
}

/// Asks a rule set about one position and answers as `kibitzer ask --json` does: a dict with
/// `ruleset`, `conclusions` (each `relation`, `args`, `explanation`), `stats` and `stop`.
///
/// `explain`: "short" (the player's view: the answer in game terms, its rule, title, `because`
/// and ranked options), "full" (the derivation tree, exactly as `--json`), "text" (the text
/// `ask` prints for each conclusion) or None. `why_not` takes a rule name, title or move, or a
/// list of them.
#[pyfunction]
#[pyo3(signature = (ruleset, rules=None, params=None, explain=ExplainArg(Explain::Short), *, inputs=None, timeout=None, max_firings=100_000, trace=false, why_not=None, whatif_depth=1, include_root=None, **kwargs))]
#[allow(clippy::too_many_arguments)]
fn ask<'py>(
    py: Python<'py>,
    ruleset: &str,
    rules: Option<&str>,
    params: Option<&Bound<'py, PyDict>>,
    explain: ExplainArg,
    inputs: Option<&Bound<'py, PyDict>>,
    timeout: Option<f64>,
    max_firings: u64,
    trace: bool,
    why_not: Option<&Bound<'py, PyAny>>,
    whatif_depth: usize,
    include_root: Option<&str>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(|| {
        let why_not = why_not.map(names_of).transpose()?;
        let mode = explain.0;
        let timeout = timeout_of(timeout)?;
        let program = load_py(py, ruleset, rules, include_root)?;
        let params = gather_params(params)?;
        let inputs = gather_inputs(inputs, kwargs)?;
        let options = RunOptions {
            firing_limit: max_firings,
            trace,
            why_not: why_not.as_ref().is_some_and(|w| !w.is_empty()),
            timeout,
            ..RunOptions::default()
        };
        let limits = limits_of(whatif_depth);
        let why_not = why_not.unwrap_or_default();
        let query = Query {
            inputs,
            params,
            options: options.clone(),
        };
        let go = |s: &mut Session| -> PyResult<Bound<'py, PyDict>> {
            let result = query.run_in(s).map_err(|e| errors::run_error(&e))?;
            answer_py(py, s, &program, &result, mode, limits, trace, &why_not)
        };
        let cached = query.params.is_empty() && rules.is_none() && is_shipped(ruleset);
        if !cached {
            return crate::interrupt::interruptible(|| go(&mut new_session(&program, options.clone())));
        }
        let key = Arc::as_ptr(&program) as usize;
        let taken = ASK_SESSIONS.with(|m| m.borrow_mut().remove(&key));
        let mut s = taken.unwrap_or_else(|| new_session(&program, options.clone()));
        let answer = crate::interrupt::interruptible(|| go(&mut s));
        ASK_SESSIONS.with(|m| m.borrow_mut().insert(key, s));
        answer
    })
}

/// One name or a list of names: `why_not="Rule1"` or `why_not=["Rule1", "pong"]`.
fn names_of(v: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(vec![s.to_cow()?.into_owned()]);
    }
    v.extract::<Vec<String>>().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "why_not takes a rule name, title or move, or a list of them, not {}",
            v.get_type()
                .name()
                .map_or_else(|_| "this".to_string(), |n| n.to_string())
        ))
    })
}

/// The Rust side of the `ask` overhead figure: the same query through a reused session, the
/// answer built as `ask --json` builds it (JSON, no Python objects); seconds per query.
#[pyfunction]
#[pyo3(signature = (ruleset, inputs, n=1000, explain=ExplainArg(Explain::Short)))]
fn rust_ask_seconds(
    py: Python<'_>,
    ruleset: &str,
    inputs: &Bound<'_, PyDict>,
    n: u32,
    explain: ExplainArg,
) -> PyResult<f64> {
    guard(|| {
        let mode = explain.0;
        let program = load_py(py, ruleset, None, None)?;
        let inputs = gather_inputs(Some(inputs), None)?;
        let mut s = new_session(&program, RunOptions::default());
        let limits = ExplainLimits::default();
        let mut sink = 0usize;
        let start = Instant::now();
        for _ in 0..n.max(1) {
            s.reset();
            give(&mut s, &[], &inputs).map_err(|e| errors::run_error(&e))?;
            let result = s.run().map_err(|e| errors::run_error(&e))?;
            let answer = answer_json(&s, &result, mode, limits);
            sink += answer["conclusions"].as_array().map_or(0, Vec::len);
        }
        let secs = start.elapsed().as_secs_f64() / f64::from(n.max(1));
        std::hint::black_box(sink);
        Ok(secs)
    })
}

// ---- check ------------------------------------------------------------------------------------

/// Loads one rule file and reports: (rule-set name or None, number of rules, diagnostics). A
/// file that cannot be read gives one diagnostic at line 0.
#[pyfunction]
#[pyo3(signature = (path, include_root=None))]
fn check_file<'py>(
    py: Python<'py>,
    path: &str,
    include_root: Option<&str>,
) -> PyResult<(Option<String>, usize, Bound<'py, PyList>)> {
    guard(|| {
        let mut loader = Loader::new();
        if let Some(root) = include_root {
            loader = loader.include_root(root);
        }
        let list = PyList::empty(py);
        match loader.file(Path::new(path)) {
            Ok(p) => {
                for w in p.warnings() {
                    list.append(crate::diagnostic_dict!(py, w, p.sources())?)?;
                }
                Ok((Some(p.name().to_string()), p.rules().len(), list))
            }
            Err(LoadError::Rules(d)) => {
                let mut sorted: Vec<&kibitzer::Diagnostic> = d.items.iter().collect();
                sorted.sort_by_key(|x| (x.severity, x.span.file, x.span.start));
                for item in sorted {
                    list.append(crate::diagnostic_dict!(py, item, &d.sources)?)?;
                }
                Ok((None, 0, list))
            }
            Err(other) => {
                let item = PyDict::new(py);
                item.set_item("file", path)?;
                item.set_item("line", 0)?;
                item.set_item("col", 0)?;
                item.set_item("severity", "error")?;
                item.set_item("message", other.to_string())?;
                item.set_item("source_line", "")?;
                item.set_item("rendered", other.to_string())?;
                list.append(item)?;
                Ok((None, 0, list))
            }
        }
    })
}

/// The shipped rule sets' names.
#[pyfunction]
fn rulesets() -> Vec<String> {
    kibitzer::library::shipped_names()
}

// ---- Session ----------------------------------------------------------------------------------

/// One rule set loaded once, for hot loops: give inputs, run, read conclusions and
/// explanations. Parameters and options hold until changed; inputs until `reset` (or until
/// given again).
///
/// The engine session stays on the thread that made the object (see `guard::ThreadBound`).
#[pyclass(name = "Session", module = "kibitzer")]
pub struct PySession {
    state: ThreadBound<SessionState>,
    program: Arc<Program>,
}

/// What a `Session` object keeps on its thread.
struct SessionState {
    inner: Session,
    last: Option<RunResult>,
}

#[pymethods]
impl PySession {
    #[new]
    #[pyo3(signature = (ruleset, rules=None, params=None, *, timeout=None, max_firings=100_000, trace=false, include_root=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        ruleset: &str,
        rules: Option<&str>,
        params: Option<&Bound<'_, PyDict>>,
        timeout: Option<f64>,
        max_firings: u64,
        trace: bool,
        include_root: Option<&str>,
    ) -> PyResult<PySession> {
        guard(|| {
            let timeout = timeout_of(timeout)?;
            let program = load_py(py, ruleset, rules, include_root)?;
            let mut inner = new_session(
                &program,
                RunOptions {
                    firing_limit: max_firings,
                    trace,
                    timeout,
                    ..RunOptions::default()
                },
            );
            give(&mut inner, &gather_params(params)?, &[]).map_err(|e| errors::run_error(&e))?;
            Ok(PySession {
                state: ThreadBound::new(SessionState { inner, last: None }, "Session"),
                program,
            })
        })
    }

    /// The rule set's name.
    #[getter]
    fn ruleset(&self) -> String {
        self.program.name().to_string()
    }

    /// The declared inputs, in order.
    #[getter]
    fn inputs(&self) -> Vec<String> {
        self.program.input_names().map(String::from).collect()
    }

    /// The output relations, in order.
    #[getter]
    fn outputs(&self) -> Vec<String> {
        self.program
            .outputs()
            .into_iter()
            .map(|(name, _)| name.to_string())
            .collect()
    }

    /// The parameters (constants left out) with their current values.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.state.with(|st| {
            let out = PyDict::new(py);
            for (decl, v) in self.program.params().iter().zip(st.inner.params()) {
                if !decl.constant {
                    out.set_item(decl.name, value_to_py(py, v)?)?;
                }
            }
            Ok(out)
        })
    }

    /// Gives inputs by name: `s.set(hand="8S TD TS 8H 8C")`; strings, lists of strings,
    /// numbers and booleans are read as the CLI reads them.
    #[pyo3(signature = (**inputs))]
    fn set(&mut self, inputs: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
        self.state.with(|st| {
            let inputs = gather_inputs(inputs, None)?;
            give(&mut st.inner, &[], &inputs).map_err(|e| errors::run_error(&e))
        })
    }

    /// Overrides one parameter.
    fn set_param(&mut self, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.state.with(|st| {
            let text = py_input_text(value)?;
            st.inner.set_param(name, &text).map_err(|e| errors::run_error(&e))
        })
    }

    /// Forgets the inputs given so far (parameters stay).
    fn reset(&mut self) -> PyResult<()> {
        self.state.with(|st| {
            st.inner.reset();
            Ok(())
        })
    }

    /// Runs the rules on the inputs; returns why the run ended (`"quiescent"`, `"halted"`,
    /// `"timeout"`, `"memory_limit"`).
    fn run(&mut self) -> PyResult<String> {
        crate::interrupt::interruptible(|| {
            self.state.with(|st| {
                let result = st.inner.run().map_err(|e| errors::run_error(&e))?;
                let stop = stop_text(result.stop);
                st.last = Some(result);
                Ok(stop)
            })
        })
    }

    /// The last run's statistics (firings, activations, facts, µs, what-if counts).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.state.with(|st| match &st.last {
            Some(r) => json_to_py(py, &serde_json::to_value(&r.stats).unwrap_or(Json::Null)),
            None => Ok(py.None().into_bound(py)),
        })
    }

    /// The last run's conclusions: dicts with `relation`, `args` and (unless `explain` is None)
    /// `explanation`.
    #[pyo3(signature = (explain=None, whatif_depth=1))]
    fn conclusions<'py>(
        &mut self,
        py: Python<'py>,
        explain: Option<&Bound<'py, PyAny>>,
        whatif_depth: usize,
    ) -> PyResult<Bound<'py, PyList>> {
        crate::interrupt::interruptible(|| {
            self.state.with(|st| {
                let mode = match explain {
                    None => Explain::Off,
                    Some(e) => explain_mode(Some(e))?,
                };
                conclusions_py(py, &st.inner, mode, limits_of(whatif_depth))
            })
        })
    }

    /// The arguments of the first live fact of `relation` (any relation, not only outputs), or
    /// None: the cheapest read for a loop that wants one answer.
    fn first<'py>(&self, py: Python<'py>, relation: &str) -> PyResult<Option<Bound<'py, PyList>>> {
        self.state.with(|st| match st.inner.first_fact_of(relation) {
            None => Ok(None),
            Some(args) => {
                let list = PyList::empty(py);
                for a in args {
                    list.append(value_to_py(py, a)?)?;
                }
                Ok(Some(list))
            }
        })
    }

    /// Every live fact of `relation`, as lists of arguments.
    fn facts<'py>(&self, py: Python<'py>, relation: &str) -> PyResult<Bound<'py, PyList>> {
        self.state.with(|st| {
            let out = PyList::empty(py);
            for args in st.inner.facts_of(relation) {
                let list = PyList::empty(py);
                for a in &args {
                    list.append(value_to_py(py, a)?)?;
                }
                out.append(list)?;
            }
            Ok(out)
        })
    }

    /// The explanation of conclusion number `index` of the last run (in `conclusions()` order),
    /// or of the first conclusion of `relation`.
    #[pyo3(signature = (index=0, relation=None, mode="full", whatif_depth=1))]
    fn explain<'py>(
        &mut self,
        py: Python<'py>,
        index: usize,
        relation: Option<&str>,
        mode: &str,
        whatif_depth: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::interrupt::interruptible(|| {
            self.state.with(|st| {
                let m = explain_mode(Some(&PyString::new(py, mode).into_any()))?;
                let all = st.inner.conclusions();
                let chosen = match relation {
                    Some(r) => all.iter().filter(|c| c.relation == r).nth(index),
                    None => all.get(index),
                };
                let Some(c) = chosen else {
                    return Err(bad_input(match relation {
                        Some(r) => format!("no conclusion `{r}` number {index} in the last run"),
                        None => format!("no conclusion number {index} in the last run"),
                    }));
                };
                let fact = c.fact;
                let explained = match m {
                    // One conclusion's derivation on its own, numbered from 1.
                    Explain::Full => {
                        vec![
                            explanations_json(&st.inner, std::slice::from_ref(c), m, limits_of(whatif_depth))
                                .pop()
                                .flatten(),
                        ]
                    }
                    _ => explanations_json(&st.inner, &all, m, limits_of(whatif_depth)),
                };
                let at = match m {
                    Explain::Full => 0,
                    _ => all.iter().position(|x| x.fact == fact).unwrap_or(0),
                };
                match explained.into_iter().nth(at).flatten() {
                    Some(e) => json_to_py(py, &e),
                    None => Ok(py.None().into_bound(py)),
                }
            })
        })
    }

    /// Why `rule` (a rule's name or title, or a move a rule could conclude) did not fire in the
    /// last run, as `ask --why-not --json` reports it: a dict when it names one rule, a list of
    /// them when it names several.
    fn why_not<'py>(&mut self, py: Python<'py>, rule: &str) -> PyResult<Bound<'py, PyAny>> {
        crate::interrupt::interruptible(|| {
            self.state.with(|st| {
                let mut w = Explainer::new(&st.inner)
                    .why_not_query(rule)
                    .map_err(|e| why_not_error(&e))?;
                let json = match w.len() {
                    1 => serde_json::to_value(w.pop()),
                    _ => serde_json::to_value(&w),
                };
                json_to_py(py, &json.unwrap_or(Json::Null))
            })
        })
    }

    /// The trace of the last run (with `trace=True`), one line per firing.
    fn trace(&self) -> PyResult<Vec<String>> {
        self.state.with(|st| Ok(Explainer::new(&st.inner).trace_text()))
    }

    /// The last run's whole answer, as `ask` returns it.
    #[pyo3(signature = (explain=ExplainArg(Explain::Short), whatif_depth=1))]
    fn answer<'py>(
        &mut self,
        py: Python<'py>,
        explain: ExplainArg,
        whatif_depth: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        crate::interrupt::interruptible(|| {
            self.state.with(|st| {
                let mode = explain.0;
                let Some(result) = st.last.clone() else {
                    return Err(bad_input("no run yet: call run() first"));
                };
                answer_py(
                    py,
                    &st.inner,
                    &self.program,
                    &result,
                    mode,
                    limits_of(whatif_depth),
                    false,
                    &[],
                )
            })
        })
    }

    fn __repr__(&self) -> String {
        format!("Session({:?})", self.program.name())
    }
}

// ---- batch ------------------------------------------------------------------------------------

thread_local! {
    /// The session a batch worker thread keeps for its rows (with the program it runs).
    static BATCH_SESSION: RefCell<Option<(usize, Session)>> = const { RefCell::new(None) };
    /// The stop flag of the `batch` call this worker answers a row of.
    static BATCH_STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// One answer of a batch, as JSON text or as JSON to turn into Python objects.
enum Answer {
    Text(String),
    Json(Json),
}

/// One row of a batch: a JSON line as `kibitzer batch` reads it, or a dict already read.
enum Row {
    Line(String),
    Parsed(Json),
}

/// How often at most `batch` calls its progress callback.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// How often `batch` looks at Python's signals while it waits for its rows.
const SIGNAL_LOOK: Duration = Duration::from_millis(20);

/// A `batch` worker's cancel hook: whether its call was interrupted.
fn batch_stopped() -> bool {
    BATCH_STOP.with(|b| b.borrow().as_ref().is_some_and(|f| f.load(Ordering::Relaxed)))
}

#[derive(Clone, Copy)]
struct BatchSettings {
    explain: bool,
    timeout: Option<Duration>,
    max_firings: u64,
}

fn s_options(settings: BatchSettings) -> RunOptions {
    RunOptions {
        timeout: settings.timeout,
        firing_limit: settings.max_firings,
        ..RunOptions::default()
    }
}

/// Answers many positions on all cores, the GIL released while they run; answers come back in
/// row order, a bad row as `{"error": ...}` in its place, exactly as `kibitzer batch` answers
/// the same lines. Rows are dicts of inputs (with an optional `params` dict) or JSON lines.
/// With `as_json=True` each answer is the JSON text `batch` would print. `progress`, if given,
/// is called as `progress(done, total)` as answers come in (at most every 0.1 s, and once at
/// the end); an exception it raises stops the batch and is raised.
#[pyfunction]
#[pyo3(signature = (ruleset, rows, rules=None, explain=true, *, timeout=None, max_firings=100_000, include_root=None, as_json=false, progress=None))]
#[allow(clippy::too_many_arguments)]
fn batch<'py>(
    py: Python<'py>,
    ruleset: &str,
    rows: &Bound<'py, PyAny>,
    rules: Option<&str>,
    explain: bool,
    timeout: Option<f64>,
    max_firings: u64,
    include_root: Option<&str>,
    as_json: bool,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let settings = BatchSettings {
            explain,
            timeout: timeout_of(timeout)?,
            max_firings,
        };
        let program = load_py(py, ruleset, rules, include_root)?;
        let mut items = Vec::new();
        for row in rows.try_iter()? {
            let row = row?;
            items.push(match row.cast::<PyString>() {
                Ok(s) => Row::Line(s.to_cow()?.into_owned()),
                Err(_) => Row::Parsed(py_to_json(&row)?),
            });
        }
        let key = Arc::as_ptr(&program) as usize;
        // Set on Ctrl-C: the rows running stop at their next look at the deadline, the rest are
        // not started.
        let stop = Arc::new(AtomicBool::new(false));
        let answer_row = |row: &Row| -> Answer {
            if stop.load(Ordering::Relaxed) {
                return Answer::Json(json!({"error": "interrupted"}));
            }
            BATCH_STOP.with(|b| *b.borrow_mut() = Some(Arc::clone(&stop)));
            let _cancel = kibitzer::with_cancel(batch_stopped);
            // Each worker answers its rows with the session it keeps (as the CLI's workers do, so a
            // session's what-if memo serves all its rows); answers are written as text there too.
            BATCH_SESSION.with(|cell| {
                let mut slot = cell.borrow_mut();
                let s = match &mut *slot {
                    Some((k, s)) if *k == key => s,
                    other => &mut other.insert((key, new_session(&program, s_options(settings)))).1,
                };
                s.set_options(s_options(settings));
                let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match row {
                    Row::Line(line) => kibitzer::batch::answer_line(s, line, settings.explain),
                    Row::Parsed(row) => kibitzer::batch::answer_row(s, row, settings.explain),
                }));
                let json = answered.unwrap_or_else(|_| {
                    *s = new_session(&program, s_options(settings));
                    json!({"error": "internal error (a bug: please report this line)"})
                });
                if as_json {
                    Answer::Text(json.to_string())
                } else {
                    Answer::Json(json)
                }
            })
        };
        let mut done: Vec<Option<Bound<'py, PyAny>>> = (0..items.len()).map(|_| None).collect();
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Answer)>();
        // Behind a lock only so that waiting can let go of the GIL (a receiver is not `Sync`).
        let rx = Mutex::new(rx);
        let items = &items;
        let mut interrupted: Option<PyErr> = None;
        // The progress callback's count, when it was last called, and what it raised.
        let (total, mut answered, mut told) = (items.len(), 0usize, std::time::Instant::now());
        let mut failed: Option<PyErr> = None;
        if let Some(report) = &progress {
            report.call1((0, total))?;
        }
        let converted: PyResult<()> = std::thread::scope(|scope| {
            // The rows run on all cores while this thread turns finished answers into Python
            // objects (holding the GIL only for that), so the conversion overlaps the work.
            scope.spawn(move || {
                items.par_iter().enumerate().for_each_with(tx, |tx, (i, row)| {
                    let _ = tx.send((i, answer_row(row)));
                });
            });
            loop {
                let ready = rx.lock().map(|r| r.try_recv());
                let next = match ready {
                    Ok(Ok(x)) => Some(x),
                    Ok(Err(std::sync::mpsc::TryRecvError::Empty)) => {
                        let waited = py.detach(|| rx.lock().ok().map(|r| r.recv_timeout(SIGNAL_LOOK)));
                        match waited {
                            Some(Ok(x)) => Some(x),
                            Some(Err(std::sync::mpsc::RecvTimeoutError::Timeout)) => {
                                if let Err(e) = py.check_signals() {
                                    stop.store(true, Ordering::Relaxed);
                                    interrupted.get_or_insert(e);
                                }
                                continue;
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let Some((i, answer)) = next else { break };
                let obj = match &answer {
                    Answer::Text(t) => PyString::new(py, t).into_any(),
                    Answer::Json(j) => json_to_py(py, j)?,
                };
                if let Some(slot) = done.get_mut(i) {
                    *slot = Some(obj);
                }
                answered += 1;
                if let Some(report) = &progress {
                    let last = answered == total;
                    if last || told.elapsed() >= PROGRESS_EVERY {
                        told = std::time::Instant::now();
                        if let Err(e) = report.call1((answered, total)) {
                            stop.store(true, Ordering::Relaxed);
                            failed.get_or_insert(e);
                        }
                    }
                }
            }
            Ok(())
        });
        if let Some(e) = failed {
            return Err(e);
        }
        converted?;
        if let Some(e) = interrupted {
            return Err(e);
        }
        let out = PyList::empty(py);
        for obj in done {
            match obj {
                Some(o) => out.append(o)?,
                None => out.append(json_to_py(
                    py,
                    &json!({"error": "internal error (a bug: please report this line)"}),
                )?)?,
            }
        }
        Ok(out)
    })
}

/// The explanation of the first conclusion of `relation` of a session's last run, in the asked
/// form (None when there is none): how the agents explain their decisions.
pub fn explain_relation<'py>(
    py: Python<'py>,
    s: &mut Session,
    relation: &str,
    mode: Explain,
    limits: ExplainLimits,
) -> PyResult<Bound<'py, PyAny>> {
    let all = s.conclusions();
    let Some(at) = all.iter().position(|c| c.relation == relation) else {
        return Ok(py.None().into_bound(py));
    };
    let explained = match mode {
        Explain::Full => explanations_json(s, &all[at..=at], mode, limits).pop().flatten(),
        _ => explanations_json(s, &all, mode, limits).into_iter().nth(at).flatten(),
    };
    match explained {
        Some(e) => json_to_py(py, &e),
        None => Ok(py.None().into_bound(py)),
    }
}
