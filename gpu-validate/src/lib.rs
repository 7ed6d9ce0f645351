//! Validation by execution: packaging of lifted methods into flat, handle-based arrays (GVM),
//! an interpreter of the treegraph-scheduled stack code that counts JVM bytecodes, invocations,
//! allocations and `consume` units per calling context (JP2), a CPU backend that runs many
//! instances in parallel with rayon, bounded-exhaustive generation of instances (Tempo's choice
//! model, Korat, call sequences with state matching), the analysis' size measures of inputs, and
//! the check of measured costs against bounds.
//!
//! The crate depends only on `jresa-analyses`: classes and lifted methods come through the
//! [`source::ClassSource`] trait, which the root crate implements on its classfile reader and
//! lifter.

pub mod backend;
pub mod check;
pub mod cpu;
pub mod generate;
pub mod isa;
pub mod kernel;
pub mod measure;
pub mod metrics;
pub mod natives;
pub mod package;
mod preinit;
pub mod requires;
pub mod sequence;
pub mod source;
pub mod value;
pub mod vm;

pub use backend::{make_backend, Backend, BackendKind, Backends, MethodRef};
pub use cpu::CpuBackend;
pub use metrics::{CallingContextTree, ContextMethod, ContextNode, Metrics};
pub use package::{Package, PackageError};
pub use source::{ClassInfo, ClassSource, ConstantValue, FieldInfo, MethodInfo};
pub use value::{Ending, Outcome, Rendered, Value};
pub use vm::{FieldRead, Limits, Machine, RunConfig};
