//! The rule-based IR of jresa and the analyses over it.
pub mod amortised;
pub mod bounds;
pub mod cost_model;
pub mod hierarchy;
pub mod ir;
pub mod nontermination;
pub mod treegraph;
pub mod value;
