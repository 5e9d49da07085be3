//! The inference engine: compiled programs, working memory, matching, the agenda, the
//! recognise–act loop, what-if sub-queries and explanations.

pub(crate) mod agenda;
pub(crate) mod compile;
pub mod describe;
pub(crate) mod eval;
pub mod explain;
pub(crate) mod fast;
pub(crate) mod lower;
pub(crate) mod matcher;
pub(crate) mod memory;
pub(crate) mod numprog;
pub mod program;
pub mod run;
pub mod session;
pub mod whatif;
pub(crate) mod wording;
