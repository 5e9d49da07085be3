//! One trait, one registry: every native capability a rule file can call enters here, namespaced
//! and typed, so the checker can validate a rule file before anything runs.

use crate::cards::NotationError;
use crate::value::{Value, ValueType};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::sync::Arc;
use thiserror::Error;

/// A run-time failure inside a built-in (bad argument values the checker could not see). Boxed,
/// so that a built-in's result stays as small as its value on the hot path.
#[derive(Debug, Clone, PartialEq, Error)]
#[error(transparent)]
pub struct BuiltinError(pub Box<BuiltinFailure>);

/// What went wrong in a built-in.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum BuiltinFailure {
    /// An argument of the wrong kind.
    #[error("{builtin}: argument {position} should be {expected}, got {got}")]
    BadArgument {
        /// The built-in's name.
        builtin: String,
        /// The argument's 1-based position.
        position: usize,
        /// The kind of value the argument should be.
        expected: &'static str,
        /// The value given, as text.
        got: String,
    },
    /// Anything else the built-in refuses, in its own words.
    #[error("{builtin}: {message}")]
    Failed {
        /// The built-in's name.
        builtin: String,
        /// What it refused and why.
        message: String,
    },
    /// The query's inputs describe an impossible position (a hand larger than the stated hand
    /// size, one player): reported as a bad input naming `input`, not as a fault of the rule.
    #[error("input `{input}`: {message}")]
    Input {
        /// The name of the query input to blame.
        input: String,
        /// What is impossible about it.
        message: String,
    },
}

impl BuiltinError {
    /// A failure with a message.
    #[cold]
    pub fn failed(builtin: &str, message: impl Into<String>) -> BuiltinError {
        BuiltinError(Box::new(BuiltinFailure::Failed {
            builtin: builtin.to_string(),
            message: message.into(),
        }))
    }

    /// The inputs describe an impossible position; `input` names the query input to blame.
    #[cold]
    pub fn input(input: &str, message: impl Into<String>) -> BuiltinError {
        BuiltinError(Box::new(BuiltinFailure::Input {
            input: input.to_string(),
            message: message.into(),
        }))
    }

    /// An argument of the wrong kind.
    #[cold]
    pub fn bad_argument(
        builtin: &str,
        position: usize,
        expected: &'static str,
        got: &impl std::fmt::Display,
    ) -> BuiltinError {
        BuiltinError(Box::new(BuiltinFailure::BadArgument {
            builtin: builtin.to_string(),
            position,
            expected,
            got: got.to_string(),
        }))
    }
}

/// What a built-in takes and gives.
#[derive(Debug, Clone)]
pub struct Signature {
    /// As rules spell it: `rank_held`, `rummy.evaluate`.
    pub name: String,
    /// Input parameters, each named for documentation.
    pub params: Vec<(&'static str, ValueType)>,
    /// Output values of one solution. A function has one; a predicate used with extra `?vars`
    /// binds them; a test returns one bool.
    pub outputs: Vec<ValueType>,
    /// True if the built-in may yield several solutions (each a separate match).
    pub multi: bool,
    /// True if the last parameter may be given any number of times, none included
    /// (`format(template, values…)`).
    pub variadic: bool,
    /// One line for `kibitzer rules` and the README.
    pub doc: &'static str,
}

/// The solutions a call yields: rows of `arity` values, stored flat and inline for the common
/// single-solution case.
#[derive(Debug, Default)]
pub struct Solutions {
    values: SmallVec<[Value; 4]>,
    arity: usize,
}

impl Solutions {
    /// Empty, for rows of `arity` values.
    pub fn new(arity: usize) -> Solutions {
        Solutions {
            values: SmallVec::new(),
            arity,
        }
    }

    /// Empties it for a new call with rows of `arity` values, keeping its storage.
    pub fn reset(&mut self, arity: usize) {
        self.values.clear();
        self.arity = arity;
    }

    /// Adds one solution; `row` must have the declared arity.
    pub fn push(&mut self, row: &[Value]) {
        debug_assert_eq!(row.len(), self.arity);
        for v in row {
            self.push1(v.fresh_copy());
        }
    }

    /// Adds a one-value solution.
    ///
    /// The slot is made first and the value written into it: pushing the value itself had the
    /// compiler build it on the stack and copy it as a block, and a block read of bytes written
    /// piecewise moments before stalls on store forwarding (~30 ns a value on this machine).
    #[inline(always)]
    pub fn push1(&mut self, v: Value) {
        if self.values.spilled() || self.values.len() == self.values.inline_size() {
            self.values.push(v);
        } else {
            // (The two paths are kept apart on purpose: merged, the compiler builds the value
            // on the stack again.)
            self.values.push(Value::Int(0));
            if let Some(slot) = self.values.last_mut() {
                *slot = v;
            }
        }
    }

    /// Number of solutions.
    pub fn len(&self) -> usize {
        self.values
            .len()
            .checked_div(self.arity)
            .unwrap_or(usize::from(!self.values.is_empty()))
    }

    /// True when the call yielded nothing (a failed predicate).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Solution `i`.
    pub fn row(&self, i: usize) -> &[Value] {
        &self.values[i * self.arity..(i + 1) * self.arity]
    }

    /// Values per solution.
    pub fn arity(&self) -> usize {
        self.arity
    }
}

/// A native capability callable from rules. Implementations must be pure: the same arguments give
/// the same solutions (the explanation re-derives call results from recorded bindings).
///
/// The arguments are borrowed (`&[&Value]`): a built-in reads each where the engine holds it (a
/// bound variable, a fact's argument, a constant, a value computed for the call).
pub trait Builtin: Send + Sync {
    /// Name, parameters, outputs, documentation.
    fn signature(&self) -> &Signature;
    /// Computes the solutions for these arguments (already checked for count, not for type).
    fn call(&self, args: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError>;

    /// The value of a single-valued built-in used in an expression. The default goes through
    /// [`Builtin::call`]; plain functions answer directly.
    fn call_one(&self, args: &[&Value]) -> Result<Value, BuiltinError> {
        let mut out = Solutions::new(1);
        self.call(args, &mut out)?;
        if out.is_empty() {
            return Err(BuiltinError::failed(
                &self.signature().name,
                "gave no value for these arguments",
            ));
        }
        Ok(out.row(0)[0].clone())
    }

    /// The plain function behind a single-valued built-in, if it is one: the compiler stores it
    /// in the call so that evaluation calls it directly (no dynamic dispatch per call).
    fn direct(&self) -> Option<OneFn> {
        None
    }

    /// What the engine may compute in place of calling this built-in, which then promises to
    /// answer exactly so (and to fail exactly where that computation fails).
    fn intrinsic(&self) -> Option<Intrinsic> {
        None
    }
}

/// A computation the engine knows and may do itself, without calling the built-in that declares
/// it: numbers kept in registers, a card's suit compared without making its letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Intrinsic {
    /// The absolute value of a number (failing on the least integer).
    Abs,
    /// A number's integer part, rounding toward zero (failing outside the integers).
    Trunc,
    /// The larger of two numbers.
    Greater,
    /// The smaller of two numbers.
    Lesser,
    /// A card's suit as its letter `S`, `H`, `D` or `C`.
    SuitLetter,
}

/// A single-valued built-in as a plain function.
pub type OneFn = fn(&[&Value]) -> Result<Value, BuiltinError>;

/// How a [`FnBuiltin`] computes.
#[derive(Clone, Copy)]
enum FnKind {
    /// One value per call.
    One(fn(&[&Value]) -> Result<Value, BuiltinError>),
    /// Any number of solutions.
    Many(fn(&[&Value], &mut Solutions) -> Result<(), BuiltinError>),
}

/// A built-in made from a plain function.
pub struct FnBuiltin {
    sig: Signature,
    f: FnKind,
    intrinsic: Option<Intrinsic>,
}

impl FnBuiltin {
    /// A single-valued built-in.
    fn one(
        name: &str,
        params: &[(&'static str, ValueType)],
        output: ValueType,
        doc: &'static str,
        f: fn(&[&Value]) -> Result<Value, BuiltinError>,
        intrinsic: Option<Intrinsic>,
    ) -> FnBuiltin {
        FnBuiltin {
            sig: Signature {
                name: name.to_string(),
                params: params.to_vec(),
                outputs: vec![output],
                multi: false,
                variadic: false,
                doc,
            },
            f: FnKind::One(f),
            intrinsic,
        }
    }
}

impl Builtin for FnBuiltin {
    fn signature(&self) -> &Signature {
        &self.sig
    }

    fn call(&self, args: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
        match self.f {
            FnKind::One(f) => {
                out.push1(f(args)?);
                Ok(())
            }
            FnKind::Many(f) => f(args, out),
        }
    }

    fn direct(&self) -> Option<OneFn> {
        match self.f {
            FnKind::One(f) => Some(f),
            FnKind::Many(_) => None,
        }
    }

    fn intrinsic(&self) -> Option<Intrinsic> {
        self.intrinsic
    }

    #[inline]
    fn call_one(&self, args: &[&Value]) -> Result<Value, BuiltinError> {
        match self.f {
            FnKind::One(f) => f(args),
            FnKind::Many(f) => {
                let mut out = Solutions::new(1);
                f(args, &mut out)?;
                if out.is_empty() {
                    return Err(BuiltinError::failed(
                        &self.sig.name,
                        "gave no value for these arguments",
                    ));
                }
                Ok(out.row(0)[0].clone())
            }
        }
    }
}

/// Reads an input value given as text (`hand="8S TD"`) for a declared input type.
pub type InputParser = fn(&str, &TypeArgs, &str) -> Result<Value, NotationError>;

/// The arguments of an input type: positional ranges and named ranges (`cards(1..5, hidden: 1)`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TypeArgs {
    /// The positional ranges (low, high), in order; a single number `n` is `(n, n)`.
    pub positional: Vec<(i64, i64)>,
    /// The named ranges: (key, (low, high)), in the order written.
    pub named: Vec<(String, (i64, i64))>,
}

impl TypeArgs {
    /// The named range, if given.
    pub fn named(&self, key: &str) -> Option<(i64, i64)> {
        self.named.iter().find(|(k, _)| k == key).map(|(_, r)| *r)
    }
}

/// An input type a rule file may declare.
#[derive(Clone)]
pub struct InputType {
    /// The type's name as rule files write it (`cards`).
    pub name: &'static str,
    /// The keys allowed as named type arguments.
    pub keys: &'static [&'static str],
    /// How many positional arguments at most.
    pub max_positional: usize,
    /// The value type facts of this input carry.
    pub value_type: ValueType,
    /// Reads an input of this type given as text.
    pub parse: InputParser,
    /// One line on what the type accepts, shown by `kibitzer rules`.
    pub doc: &'static str,
}

/// Every built-in and input type, by name. Shared read-only by all sessions.
#[derive(Clone, Default)]
pub struct Registry {
    builtins: FxHashMap<String, Arc<dyn Builtin>>,
    order: Vec<String>,
    types: FxHashMap<&'static str, InputType>,
    type_order: Vec<&'static str>,
}

impl Registry {
    /// An empty registry (no built-ins at all).
    pub fn empty() -> Registry {
        Registry::default()
    }

    /// The general built-ins (lists, arithmetic, cards), for any game; each game adds its own.
    pub fn general() -> Registry {
        let mut r = Registry::empty();
        super::core::register(&mut r);
        super::cards::register(&mut r);
        r
    }

    /// Adds (or replaces) a built-in.
    pub fn register(&mut self, builtin: Arc<dyn Builtin>) {
        let name = builtin.signature().name.clone();
        if self.builtins.insert(name.clone(), builtin).is_none() {
            self.order.push(name);
        }
    }

    /// Adds a built-in made from a function.
    pub fn function(
        &mut self,
        name: &str,
        params: &[(&'static str, ValueType)],
        outputs: &[ValueType],
        multi: bool,
        doc: &'static str,
        f: fn(&[&Value], &mut Solutions) -> Result<(), BuiltinError>,
    ) {
        self.register(Arc::new(FnBuiltin {
            sig: Signature {
                name: name.to_string(),
                params: params.to_vec(),
                outputs: outputs.to_vec(),
                multi,
                variadic: false,
                doc,
            },
            f: FnKind::Many(f),
            intrinsic: None,
        }));
    }

    /// Adds a single-valued built-in (a function of its arguments).
    pub fn func(
        &mut self,
        name: &str,
        params: &[(&'static str, ValueType)],
        output: ValueType,
        doc: &'static str,
        f: fn(&[&Value]) -> Result<Value, BuiltinError>,
    ) {
        self.register(Arc::new(FnBuiltin::one(name, params, output, doc, f, None)));
    }

    /// Adds a single-valued built-in whose last parameter may repeat (see `Signature::variadic`).
    pub fn variadic_func(
        &mut self,
        name: &str,
        params: &[(&'static str, ValueType)],
        output: ValueType,
        doc: &'static str,
        f: fn(&[&Value]) -> Result<Value, BuiltinError>,
    ) {
        let mut b = FnBuiltin::one(name, params, output, doc, f, None);
        b.sig.variadic = true;
        self.register(Arc::new(b));
    }

    /// Adds a single-valued built-in that computes `intrinsic`, which the engine may then
    /// compute in its place.
    pub fn intrinsic_func(
        &mut self,
        name: &str,
        params: &[(&'static str, ValueType)],
        output: ValueType,
        doc: &'static str,
        f: fn(&[&Value]) -> Result<Value, BuiltinError>,
        intrinsic: Intrinsic,
    ) {
        self.register(Arc::new(FnBuiltin::one(name, params, output, doc, f, Some(intrinsic))));
    }

    /// Adds an input type.
    pub fn input_type(&mut self, t: InputType) {
        if self.types.insert(t.name, t.clone()).is_none() {
            self.type_order.push(t.name);
        }
    }

    /// The built-in of this name.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Builtin>> {
        self.builtins.get(name)
    }

    /// The input type of this name.
    pub fn get_type(&self, name: &str) -> Option<&InputType> {
        self.types.get(name)
    }

    /// Every built-in in registration order.
    pub fn builtins(&self) -> impl Iterator<Item = &Arc<dyn Builtin>> {
        self.order.iter().filter_map(|n| self.builtins.get(n))
    }

    /// Every input type in registration order.
    pub fn input_types(&self) -> impl Iterator<Item = &InputType> {
        self.type_order.iter().filter_map(|n| self.types.get(n))
    }
}
