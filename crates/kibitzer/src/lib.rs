//! # kibitzer
//!
//! A rule-driven expert-system engine for card and tile games. Rule files (a pest grammar) hold
//! the game knowledge; a forward-chaining engine applies them to a hand; native searches are
//! built-in predicates the rules call; every conclusion comes with its explanation.
//!
//! ## Ask a shipped rule set
//!
//! [`load_shipped`] compiles one of the rule sets in the binary (`stud`, `durak`, `mahjong`,
//! `mahjong_reference`, `rummy`, `doudizhu`); a [`Session`] takes the inputs as text, runs, and gives
//! the [`Conclusion`]s of the output relations.
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
//!
//! ## Explain an answer
//!
//! An [`Explainer`] reads a finished run from its session. [`Explainer::answers`] gives the
//! player's view: each answer in game terms with the rule that decided it and its `because` text,
//! the ranked alternatives of a decision under it; [`render_answers`] prints it as `kibitzer ask`
//! does. [`Explainer::explain_all`] gives the full derivation as [`Explanation`] trees
//! ([`render_full`] prints them), and [`Explainer::why_not`] names the condition that kept a rule
//! from firing.
//!
//! ```
//! use kibitzer::{load_shipped, render_answers, render_full, ExplainLimits, Explainer, Session};
//!
//! let mut session = Session::new(load_shipped("stud").unwrap());
//! session.set_input_text("hand", "8S TD TS 8H 8C").unwrap();
//! session.set_input_text("opponent", "XX 3C 5D 4H 6H").unwrap();
//! session.run().unwrap();
//!
//! let mut explainer = Explainer::new(&session);
//! let view = render_answers(&explainer.answers());
//! assert!(view.starts_with("category: 3, full house\n  why: full house — three eights and two tens (Rule3)"));
//!
//! let facts: Vec<_> = session.conclusions().iter().map(|c| c.fact).collect();
//! let trees = explainer.explain_all(&facts, ExplainLimits::default());
//! assert_eq!(trees[0].rule.as_deref(), Some("Rule3"));
//! assert!(render_full(&trees).contains("rank_held(8♠ 10♦ 10♠ 8♥ 8♣, 3) → ?trips = 8"));
//!
//! // Why not a straight flush? The condition that failed, with its values.
//! let why_not = explainer.why_not("Rule1").unwrap();
//! assert!(why_not.summary.ends_with("same_suit(8♠ 10♦ 10♠ 8♥ 8♣) is false"));
//!
//! // What if a big bet needed an equity above 1.0? Change the parameter and run again.
//! session.set_param("bet_big_above", "1.0").unwrap();
//! session.run().unwrap();
//! assert_eq!(session.first_fact_of("advice").unwrap()[0].to_string(), "\"bet\"");
//! ```
//!
//! ## Rules from text
//!
//! [`load_text`] compiles rule text as if it were a file (and [`load_file`] a file on disk);
//! a problem comes back as [`LoadError::Rules`], every diagnostic with its position.
//!
//! ```
//! use kibitzer::{load_text, Session};
//!
//! let rules = r#"
//! ruleset pairs "Pairs in a hand"
//! input  hand: cards(2..7)
//! output pair
//! rule Pair "a pair"
//! when
//!     hand(?h)
//!     ?r = rank_held(?h, 2)
//! then
//!     assert pair(?r)
//! because "a pair of {?r:ranks}"
//! end
//! "#;
//! let mut session = Session::new(load_text("pairs.rules", rules).unwrap());
//! session.set_input_text("hand", "5S 5H KD").unwrap();
//! session.run().unwrap();
//! assert_eq!(session.conclusions()[0].to_string(), "pair(5)");
//!
//! let typo = load_text("typo.rules", &rules.replace("rank_held", "rank_hold"));
//! assert!(typo.unwrap_err().to_string().contains("rank_hold"));
//! ```
//!
//! ## Built-ins
//!
//! The native code the rules call is a [`Builtin`]: a [`Signature`] and a function from argument
//! values, borrowed (`&[&Value]`), to [`Solutions`]. A [`Registry`] holds them by name. The loaders check and compile rule
//! files against [`library::registry`], which holds every built-in kibitzer ships;
//! [`library::Loader::registry`] checks rules against a registry of your own, so they can call
//! your built-ins.
//!
//! ```
//! use kibitzer::builtins::{Builtin, BuiltinError, Registry, Signature, Solutions};
//! use kibitzer::value::ValueType;
//! use kibitzer::Value;
//!
//! struct Double(Signature); // `double(n)`: twice a number
//!
//! impl Builtin for Double {
//!     fn signature(&self) -> &Signature {
//!         &self.0
//!     }
//!     fn call(&self, args: &[&Value], out: &mut Solutions) -> Result<(), BuiltinError> {
//!         let n = args[0].as_int().ok_or_else(|| BuiltinError::failed("double", "not an int"))?;
//!         out.push1(Value::Int(2 * n));
//!         Ok(())
//!     }
//! }
//!
//! let mut registry = Registry::general();
//! registry.register(std::sync::Arc::new(Double(Signature {
//!     name: "double".into(),
//!     params: vec![("n", ValueType::Int)],
//!     outputs: vec![ValueType::Int],
//!     multi: false,
//!     variadic: false,
//!     doc: "twice a number",
//! })));
//! let double = registry.get("double").unwrap();
//! assert_eq!(double.call_one(&[&Value::Int(21)]).unwrap().as_int(), Some(42));
//!
//! // Rules that call it.
//! let rules = "ruleset twice \"Twice\"\ninput n: int\noutput twice\n\
//!              rule Twice \"twice n\"\nwhen\n    n(?n)\n    ?d = double(?n)\n\
//!              then\n    assert twice(?d)\nbecause \"{?d}\"\nend\n";
//! let program = kibitzer::library::Loader::new().registry(&registry).text("twice.rules", rules).unwrap();
//! let mut session = kibitzer::Session::new(program);
//! session.set_input_text("n", "21").unwrap();
//! session.run().unwrap();
//! assert_eq!(session.conclusions()[0].to_string(), "twice(42)");
//!
//! let shipped = kibitzer::library::registry();
//! assert!(shipped.get("rank_held").is_some() && shipped.get("rummy.evaluate").is_some());
//! ```

#![warn(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod batch;
pub mod cases;
pub mod library;
pub mod query;

/// Values and cards, and the registry of built-ins and input types (the core crate's modules; the
/// engine's API is re-exported below).
pub use kibitzer_core::{builtins, cards, value};

/// The rule language as an author's tools see it: the syntax tree and its parser, the formatter and
/// the diagnostics. The checker and the checked rule set stay inside the load pipeline.
pub mod lang {
    pub use kibitzer_core::lang::{
        ast, diagnostics, format, format_rules, literal_value, source, syntax, IncludeReader,
    };
}
use kibitzer_core::{budget, engine};
/// Each game's native API: its searches, players and sample positions.
pub use kibitzer_games as games;

pub use budget::{expired, with_cancel, with_deadline, CancelGuard, DeadlineGuard};
pub use builtins::{Builtin, BuiltinError, Registry, Signature, Solutions};
pub use cards::{parse_card, parse_cards, Card, Cards, NotationError, Suit};
pub use engine::describe::{InputInfo, ParamInfo, RuleInfo};
pub use engine::explain::{
    answer_texts, render_answer, render_answers, render_derivation, render_full, render_tree, AggregateGroup, Answer,
    Choice, ExplainLimits, Explainer, Explanation, FailedCondition, MoveVerdict, WhatIfExplanation, WhyNot,
    WhyNotError, OPTION_RELATION,
};
pub use engine::program::Program;
pub use engine::session::{
    Conclusion, EvalError, EvalFailure, Firing, MemoryBound, RuleFailure, RunError, RunOptions, RunResult, Session,
    Stats, StopReason, TraceEvent,
};
pub use lang::diagnostics::{Diagnostic, Diagnostics, Severity};
pub use library::{load_any, load_file, load_shipped, load_text, LoadError};
pub use query::{ask, Query};
pub use value::{Shared, Value};
