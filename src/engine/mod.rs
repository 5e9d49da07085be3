//! The inference engine: compiled programs, working memory, matching, the agenda, the
//! recognise–act loop, what-if sub-queries and explanations.

pub mod agenda;
pub mod args;
pub mod compile;
pub mod eval;
pub mod explain;
pub mod fast;
pub mod lower;
pub mod matcher;
pub mod memory;
pub mod numprog;
pub mod program;
pub mod session;
pub mod whatif;
