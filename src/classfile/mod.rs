//! Classfile front end: the only module that imports noak.
pub mod model;
pub use model::*;
