//! The built-in registry and the general built-ins every rule set may call.

pub mod cards;
pub mod core;
pub mod registry;

pub use registry::{Builtin, BuiltinError, InputType, Intrinsic, Registry, Signature, Solutions, TypeArgs};
