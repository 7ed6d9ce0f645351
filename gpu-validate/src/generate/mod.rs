//! Bounded-exhaustive generation of instances: Tempo's `_choice`/`_ignoreIf` model with its two
//! exploration strategies (`choice`), parameter domains from method signatures (`domain`), and
//! Korat's search for heap structures (`korat`). Generation is pure except for running a class's
//! `repOK()` on the VM.

pub mod choice;
pub mod domain;
pub mod korat;

pub use choice::{decode, explore, Choices, Generated, Stop, Strategy, TooMany};
pub use domain::{instance, instance_count, Domain, Settings};
pub use korat::{Finitization, KoratError, MethodReads, RepOk, StructurePredicate, Structures};
