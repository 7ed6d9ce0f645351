//! Cost bounds: closed-form cost expressions (and, on top of the value analysis, ranking functions
//! and cost relations).
pub mod expr;
