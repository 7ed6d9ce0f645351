//! The rule-based IR (COSTA style): types, the textual printer and parser, and the verifier.
//!
//! Invariants every producer of IR must keep (checked by `verify`): each rule is in SSA form; guards
//! mention only their procedure's inputs and constants; every rule that does not end in `throw`
//! defines each output of its procedure exactly once; handler edges and tail calls go to procedures
//! with the same outputs; operand types match the statements that use them.
pub mod constructors;
pub mod entry_fields;
pub mod exceptions;
pub mod ghosts;
pub mod lambdas;
pub mod monitors;
mod parse;
mod print;
pub mod reloads;
pub mod scalars;
mod types;
mod verify;

pub use parse::{parse_program, ParseError};
pub use print::{
    binary_mnemonic, call_mnemonic, is_bare_name, is_identifier, is_reserved_word, print_method, print_program,
    type_prefix, unary_mnemonic, write_name, write_string,
};
pub use types::*;
pub use verify::{verify_method, VerifyError};
