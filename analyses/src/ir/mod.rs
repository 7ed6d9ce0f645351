//! The IR.
