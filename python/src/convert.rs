//! Values across the boundary: JSON trees and engine values to Python objects (cards and tiles
//! as strings, numbers as numbers, lists as lists), Python input values to the text the CLI
//! would be given.

use crate::errors::bad_input;
use kibitzer::Value;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::Value as Json;

/// A JSON tree as Python objects (objects as dicts, arrays as lists).
pub fn json_to_py<'py>(py: Python<'py>, v: &Json) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Json::String(s) => PyString::new(py, s).into_any(),
        Json::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Json::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                let value = json_to_py(py, item)?;
                match known_key(py, k) {
                    Some(key) => dict.set_item(key, value)?,
                    None => dict.set_item(k, value)?,
                }
            }
            dict.into_any()
        }
    })
}

/// The keys of answers and explanations as interned strings: made and hashed once, not once per
/// dict (a batch of explained answers holds hundreds of thousands of them).
fn known_key<'py>(py: Python<'py>, k: &str) -> Option<&'py Bound<'py, PyString>> {
    use pyo3::intern;
    Some(match k {
        "fact" => intern!(py, "fact"),
        "source" => intern!(py, "source"),
        "input" => intern!(py, "input"),
        "rule" => intern!(py, "rule"),
        "title" => intern!(py, "title"),
        "because" => intern!(py, "because"),
        "checks" => intern!(py, "checks"),
        "premises" => intern!(py, "premises"),
        "aggregated" => intern!(py, "aggregated"),
        "count" => intern!(py, "count"),
        "example" => intern!(py, "example"),
        "whatifs" => intern!(py, "whatifs"),
        "query" => intern!(py, "query"),
        "concluded" => intern!(py, "concluded"),
        "relation" => intern!(py, "relation"),
        "args" => intern!(py, "args"),
        "explanation" => intern!(py, "explanation"),
        "ruleset" => intern!(py, "ruleset"),
        "conclusions" => intern!(py, "conclusions"),
        "stats" => intern!(py, "stats"),
        "stop" => intern!(py, "stop"),
        "fired" => intern!(py, "fired"),
        "micros" => intern!(py, "micros"),
        _ => return None,
    })
}

/// An engine value as a Python object, as `ask --json` writes it.
pub fn value_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        // JSON has no infinities: the CLI writes null for them, and so does this.
        Value::Num(n) if n.is_finite() => n.into_pyobject(py)?.into_any(),
        Value::Num(_) => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::List(_) | Value::Cards(_) | Value::Card(_) | Value::Str(_) => json_to_py(py, &v.to_json())?,
    })
}

/// Gives a session the parameters of a `params={...}` argument, each as its text.
pub fn set_params(session: &mut kibitzer::Session, params: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
    for (k, v) in params.into_iter().flat_map(|p| p.iter()) {
        let name: String = k.extract()?;
        let text = py_input_text(&v)?;
        session
            .set_param(&name, &text)
            .map_err(|e| crate::errors::run_error(&e))?;
    }
    Ok(())
}

/// A Python value as an input's text, read the way `batch` reads the same value in JSON.
pub fn py_input_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        let mut parts = Vec::new();
        for item in v.try_iter()? {
            let item = item?;
            if let Ok(s) = item.cast::<PyString>() {
                parts.push(s.to_cow()?.into_owned());
            } else {
                parts.push(py_scalar_text(&item)?);
            }
        }
        return Ok(parts.join(" "));
    }
    py_scalar_text(v)
}

/// A Python scalar as JSON text: `true`, `3`, `0.25`, `null`.
fn py_scalar_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if v.is_none() {
        return Ok("null".to_string());
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    if v.is_instance_of::<PyInt>() {
        return Ok(v.str()?.to_cow()?.into_owned());
    }
    if v.is_instance_of::<PyFloat>() {
        let f: f64 = v.extract()?;
        return Ok(serde_json::Number::from_f64(f).map_or_else(|| f.to_string(), |n| n.to_string()));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    Ok(v.str()?.to_cow()?.into_owned())
}

/// How deep a row may nest dicts and lists: the row itself and its `params`, then values as
/// deep as the library's values may nest.
const MAX_ROW_DEPTH: usize = kibitzer::value::MAX_VALUE_DEPTH + 2;

/// A Python value as JSON (for rows given as dicts): what `batch` would have parsed. A value
/// that contains itself, or nests deeper than any value may, is a `BadInput`, checked as it is
/// read (not by recursing until the stack runs out).
pub fn py_to_json(v: &Bound<'_, PyAny>) -> PyResult<Json> {
    py_to_json_in(v, &mut Vec::new())
}

/// `py_to_json` with the containers being read, outermost first (their addresses: a cycle
/// shows as one seen again).
fn py_to_json_in(v: &Bound<'_, PyAny>, open: &mut Vec<usize>) -> PyResult<Json> {
    if v.is_none() {
        return Ok(Json::Null);
    }
    if let Ok(b) = v.cast::<PyBool>() {
        return Ok(Json::Bool(b.is_true()));
    }
    if v.is_instance_of::<PyInt>() {
        if let Ok(i) = v.extract::<i64>() {
            return Ok(Json::from(i));
        }
        return Ok(Json::String(v.str()?.to_cow()?.into_owned()));
    }
    if v.is_instance_of::<PyFloat>() {
        let f: f64 = v.extract()?;
        return Ok(serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number));
    }
    if let Ok(s) = v.cast::<PyString>() {
        return Ok(Json::String(s.to_cow()?.into_owned()));
    }
    let is_dict = v.is_instance_of::<PyDict>();
    if !is_dict && !v.is_instance_of::<PyList>() && !v.is_instance_of::<PyTuple>() {
        return Ok(Json::String(v.str()?.to_cow()?.into_owned()));
    }
    let address = v.as_ptr() as usize;
    if open.contains(&address) {
        return Err(bad_input("a row contains itself (a dict or list inside its own value)"));
    }
    if open.len() >= MAX_ROW_DEPTH {
        return Err(bad_input(format!(
            "a row nests dicts and lists more than {MAX_ROW_DEPTH} deep (values nest at most {})",
            kibitzer::value::MAX_VALUE_DEPTH
        )));
    }
    open.push(address);
    let json = match v.cast::<PyDict>() {
        Ok(d) => {
            let mut map = serde_json::Map::new();
            for (k, item) in d.iter() {
                map.insert(k.str()?.to_cow()?.into_owned(), py_to_json_in(&item, open)?);
            }
            Json::Object(map)
        }
        Err(_) => {
            let mut items = Vec::new();
            for item in v.try_iter()? {
                items.push(py_to_json_in(&item?, open)?);
            }
            Json::Array(items)
        }
    };
    open.pop();
    Ok(json)
}
