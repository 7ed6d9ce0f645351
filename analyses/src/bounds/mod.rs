//! Cost bounds: closed-form cost expressions, ranking functions, and the cost of procedures.
pub mod cases;
pub mod compare;
pub mod cost;
mod divide;
pub mod expr;
mod lexicographic;
pub mod parse;
pub mod phases;
pub mod ranking;
pub mod refine;
pub mod summary;
