//! jresa: static resource analysis for JVM bytecode (front end, lifting, reports, CLI).
pub mod analyze;
pub mod baseline;
pub mod cache;
pub mod check;
pub mod classfile;
pub mod cli;
pub mod lift;
pub mod profile;
pub mod program;
pub mod report;
pub mod spec;
pub mod validate;
pub mod vm_source;
