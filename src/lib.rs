//! # kibitzer
//!
//! A rule-driven expert-system engine for card and tile games. Rule files (a pest grammar) hold
//! the game knowledge; a forward-chaining engine applies them to a hand; native searches are
//! built-in predicates the rules call; every conclusion comes with its explanation.
//!
//! ```
//! use kibitzer::{load_shipped, Session};
//!
//! let stud = load_shipped("stud").unwrap();
//! let mut session = Session::new(stud);
//! session.set_input_text("hand", "8S TD TS 8H 8C").unwrap();
//! session.run().unwrap();
//! let c = &session.conclusions()[0];
//! assert_eq!(c.relation, "category");
//! assert_eq!(c.args[1].to_string(), "\"full house\"");
//! ```

#![warn(missing_docs)]

pub mod batch;
mod budget;
pub mod builtins;
pub mod cards;
pub mod cases;
mod engine;
pub mod games;
pub mod harness;
pub mod lang;
pub mod library;
pub mod value;

pub use budget::{expired, with_deadline, DeadlineGuard};
pub use builtins::{Builtin, BuiltinError, Registry, Signature, Solutions};
pub use cards::{parse_card, parse_cards, Card, Cards, NotationError, Suit};
pub use engine::describe::{InputInfo, ParamInfo, RuleInfo};
pub use engine::explain::{
    answer_texts, render_answer, render_answers, render_derivation, render_full, render_tree, AggregateGroup, Answer,
    Choice, ExplainLimits, Explanation, FailedCondition, WhatIfExplanation, WhyNot, WhyNotError, OPTION_RELATION,
};
pub use engine::program::Program;
pub use engine::session::{
    Conclusion, Firing, RunError, RunOptions, RunResult, Session, Stats, StopReason, TraceEvent,
};
pub use lang::diagnostics::{Diagnostic, Diagnostics, Severity};
pub use library::{load_any, load_file, load_shipped, load_text, LoadError};
pub use value::{Shared, Value};
