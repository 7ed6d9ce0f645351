//! Lifting: JVM bytecode of one method → the rule-based IR of `jresa_analyses::ir`.
//!
//! The pipeline is `cfg` (blocks, dominators, loops) → `frames` (types of slots and stack entries,
//! liveness) → `translate` (procedures and rules). Lifting never panics: any bytecode it cannot
//! handle (`jsr`/`ret`, unverifiable code, irreducible loops) is a `LiftError` naming the offset.
mod cfg;
mod frames;
mod names;
mod translate;

use crate::classfile::{ArrayKind, ClassFile, Method};
use jresa_analyses::ir::{ElemTy, MethodIr};
use std::fmt;

/// Why a method could not be lifted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiftError {
    /// The bytecode offset the problem was found at, when there is one.
    pub pc: Option<u32>,
    pub message: String,
}

impl LiftError {
    pub fn at(pc: u32, message: impl Into<String>) -> Self {
        LiftError {
            pc: Some(pc),
            message: message.into(),
        }
    }

    pub fn general(message: impl Into<String>) -> Self {
        LiftError {
            pc: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for LiftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pc {
            Some(pc) => write!(f, "at offset {pc}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for LiftError {}

/// The IR element type of an array instruction.
pub(crate) fn array_elem(kind: ArrayKind) -> ElemTy {
    match kind {
        ArrayKind::Int => ElemTy::Int,
        ArrayKind::Long => ElemTy::Long,
        ArrayKind::Float => ElemTy::Float,
        ArrayKind::Double => ElemTy::Double,
        ArrayKind::Reference => ElemTy::Ref,
        ArrayKind::ByteOrBoolean => ElemTy::Byte,
        ArrayKind::Char => ElemTy::Char,
        ArrayKind::Short => ElemTy::Short,
    }
}

/// Lifts one method with bytecode. Methods without code (abstract, native) and methods whose code
/// could not be decoded are errors too; callers usually skip the former.
pub fn lift_method(class: &ClassFile, method: &Method) -> Result<MethodIr, LiftError> {
    let code = match &method.code {
        None => return Err(LiftError::general("the method has no code")),
        Some(Err(error)) => {
            return Err(LiftError {
                pc: error.offset,
                message: error.message.clone(),
            })
        }
        Some(Ok(code)) => code,
    };
    let cfg = cfg::Cfg::build(code)?;
    let is_static = method.access & 0x0008 != 0;
    let entry = frames::entry_frame(&method.descriptor, is_static, code.max_locals)?;
    let frames = frames::infer_frames(code, &cfg, entry)?;
    let live = frames::live_in(code, &cfg);
    translate::Translator::new(class, method, code, &cfg, frames, live)?.run(method)
}

/// The result of lifting one method of a batch.
pub struct Lifted<'a> {
    pub class: &'a ClassFile,
    pub method: &'a Method,
    pub result: Result<MethodIr, LiftError>,
}

/// Lifts every method with code of `classes` that `select` accepts, in parallel, in class and
/// method order. Abstract and native methods are skipped.
pub fn lift_all<'a>(classes: &'a [ClassFile], select: impl Fn(&ClassFile, &Method) -> bool + Sync) -> Vec<Lifted<'a>> {
    use rayon::prelude::*;
    let jobs: Vec<(&ClassFile, &Method)> = classes
        .iter()
        .flat_map(|class| class.methods.iter().map(move |method| (class, method)))
        .filter(|(class, method)| method.code.is_some() && select(class, method))
        .collect();
    jobs.into_par_iter()
        .map(|(class, method)| Lifted {
            class,
            method,
            result: lift_method(class, method),
        })
        .collect()
}
