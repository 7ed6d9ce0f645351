//! Classfile front end: the only module that imports noak.
//!
//! [`parse_class`] turns one classfile into the owned [`model`]; [`read_inputs`] reads class
//! files, directories, jars and jmods in parallel; [`ClassPath`] resolves classes lazily by name.
//! No input, however malformed, makes this module panic: every read is bounds-checked and every
//! problem becomes an [`InputError`] or a method's [`CodeError`].
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::unreachable
)]

mod annotations;
mod archive;
mod bytecode;
mod bytes;
mod classpath;
mod error;
mod inputs;
pub mod model;
mod parse;
mod pool;

pub use archive::MAX_ENTRY_SIZE;
pub use classpath::{find_java_base_jmod, ClassPath};
pub use error::InputError;
pub use inputs::{read_inputs, Loaded};
pub use model::*;
pub use parse::{parse_class, MAX_MAJOR_VERSION, MIN_MAJOR_VERSION};
