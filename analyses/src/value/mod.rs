//! The value analysis and the abstract domains it computes with.
pub mod aux;
pub mod compile;
pub mod fixpoint;
pub mod limits;
pub mod overflow;
pub mod polyhedra;
