//! The value analysis and the abstract domains it computes with.
pub mod auxiliary;
pub mod compile;
pub mod domain;
pub mod fixpoint;
pub mod heap;
pub mod limits;
pub mod overflow;
pub mod polyhedra;
pub mod print;
pub mod program;
