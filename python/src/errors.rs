//! The exception hierarchy: `KibitzerError` and its four kinds. A message is the line the CLI
//! prints for the same problem, without the CLI's `kibitzer: ` prefix (rendered rule-file
//! diagnostics are kept whole, as the CLI prints them), and with the keyword argument where the
//! CLI names its option (`max_firings=`, where the CLI says `--max-firings`).

use kibitzer::library::LoadError;
use kibitzer::RunError;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

create_exception!(
    kibitzer,
    KibitzerError,
    PyException,
    "Any problem kibitzer reports; the message is the CLI's line for it."
);
create_exception!(
    kibitzer,
    BadInput,
    KibitzerError,
    "A bad input, parameter, option or rule-set name: the query cannot be asked as given."
);
create_exception!(
    kibitzer,
    BadRules,
    KibitzerError,
    "A rule file that does not load (see `diagnostics`) or a rule that fails while it runs."
);
create_exception!(
    kibitzer,
    BudgetExceeded,
    KibitzerError,
    "A run stopped by its firing limit or by a budget of a what-if sub-query."
);

create_exception!(
    kibitzer,
    InternalError,
    KibitzerError,
    "A bug in kibitzer (a panic caught at the boundary): please report it with the call that caused it."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("KibitzerError", py.get_type::<KibitzerError>())?;
    m.add("BadInput", py.get_type::<BadInput>())?;
    m.add("BadRules", py.get_type::<BadRules>())?;
    m.add("BudgetExceeded", py.get_type::<BudgetExceeded>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    Ok(())
}

/// One diagnostic as a dict: file, line, col, severity, message, and the rendered text (the
/// sources are those of the load the diagnostic came from).
#[macro_export]
macro_rules! diagnostic_dict {
    ($py:expr, $d:expr, $sources:expr) => {{
        let loc = $sources.locate($d.span);
        $crate::errors::diagnostic_fields($py, $d, loc.file, loc.line, loc.col, loc.line_text, $d.render($sources))
    }};
}

/// The dict of `diagnostic_dict!`, from the located parts.
pub fn diagnostic_fields<'py>(
    py: Python<'py>,
    d: &kibitzer::Diagnostic,
    file: &str,
    line: usize,
    col: usize,
    line_text: &str,
    rendered: String,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("file", file)?;
    out.set_item("line", line)?;
    out.set_item("col", col)?;
    out.set_item(
        "severity",
        match d.severity {
            kibitzer::Severity::Error => "error",
            kibitzer::Severity::Warning => "warning",
        },
    )?;
    out.set_item("message", &d.message)?;
    out.set_item("source_line", line_text)?;
    out.set_item("rendered", rendered)?;
    Ok(out)
}

/// A load failure: bad rule files carry their diagnostics; anything else is a bad input (an
/// unknown name, an unreadable path, a file that is not a rule file).
pub fn load_error(py: Python<'_>, e: &LoadError) -> PyErr {
    match e {
        LoadError::Rules(d) => {
            let err = BadRules::new_err(pythonic(&e.to_string()));
            let list = PyList::empty(py);
            for item in &d.items {
                if let Ok(dict) = crate::diagnostic_dict!(py, item, &d.sources) {
                    let _ = list.append(dict);
                }
            }
            let _ = err.value(py).setattr("diagnostics", list);
            err
        }
        other => BadInput::new_err(pythonic(&other.to_string())),
    }
}

/// The settings the library's messages name, and the keyword arguments that set them in Python.
const OPTIONS: &[(&str, &str)] = &[
    ("`max_firings`", "max_firings="),
    ("`include_root`", "include_root="),
    ("`timeout`", "timeout="),
];

/// A message as Python says it: each setting it names given as the keyword argument.
pub fn pythonic(message: &str) -> String {
    OPTIONS
        .iter()
        .fold(message.to_string(), |m, (option, keyword)| m.replace(option, keyword))
}

/// A run failure, by kind. The message is the CLI's, with the keyword argument named where the
/// CLI names its option (`max_firings=` where the CLI says `--max-firings`).
pub fn run_error(e: &RunError) -> PyErr {
    let text = pythonic(&e.to_string());
    match e {
        RunError::FiringLimit { .. } | RunError::Budget(_) => BudgetExceeded::new_err(text),
        RunError::MissingInput(_)
        | RunError::BadInput { .. }
        | RunError::BadPosition { .. }
        | RunError::UnknownInput { .. }
        | RunError::InputType { .. }
        | RunError::InputDomain { .. }
        | RunError::Param(_)
        | RunError::UnknownRule(_) => BadInput::new_err(text),
        RunError::InRule { .. }
        | RunError::UnknownRuleSet(_)
        | RunError::WhatIfDepth(_)
        | RunError::TooDeep { .. }
        | RunError::Answers(_) => BadRules::new_err(text),
        #[allow(unreachable_patterns)]
        _ => KibitzerError::new_err(text),
    }
}

/// A bad argument of a native function, with the game module's own message.
pub fn bad_input(message: impl std::fmt::Display) -> PyErr {
    BadInput::new_err(message.to_string())
}
