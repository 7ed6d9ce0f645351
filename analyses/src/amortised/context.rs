//! What the proof search knows of one method it runs: its lifted code, parameters, return type,
//! the classes its annotations may talk about, and which loop each `Loop.invariant(id)` marker
//! names.
//!
//! A marker names the first loop entered after it in the same rule, or along a chain of
//! single-rule procedures the rule ends in (the marker stands just before the loop in the
//! source, as the paper places it).

use super::program::{MethodKey, ProgramView};
use super::resolve::{base_name, descriptor_class, Param, Scope};
use super::spec::Role;
use crate::ir::{split_method_descriptor, CallKind, MethodIr, Operand, ProcId, ProcKind, StmtKind, Ty};
use std::collections::HashMap;
use std::sync::Arc;

/// The class of the loop-invariant markers.
pub const LOOP_CLASS: &str = "jresa/spec/Loop";

/// A method whose code the proof search runs.
#[derive(Clone, Debug)]
pub struct MethodCtx {
    pub key: MethodKey,
    pub ir: Arc<MethodIr>,
    pub params: Vec<Param>,
    pub ret: Option<(Ty, Option<String>)>,
    pub locals: Vec<String>,
    pub context_classes: Vec<String>,
    /// The declared class of each named local variable declared with exactly one class (empty
    /// until [`MethodCtx::in_program`] asks the program).
    pub local_classes: Vec<(String, String)>,
    /// The invariant identifier each marked loop procedure has.
    pub markers: HashMap<ProcId, i32>,
    /// Every marker: its identifier and bytecode offset.
    pub marker_sites: Vec<(i32, u32)>,
}

/// A problem with the markers of a method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerError {
    pub id: Option<i32>,
    pub pc: u32,
    pub message: String,
}

impl MethodCtx {
    /// The context of a lifted method, and the problems with its markers.
    pub fn new(key: MethodKey, ir: Arc<MethodIr>) -> (MethodCtx, Vec<MarkerError>) {
        let (param_descriptors, ret_descriptor) = split_method_descriptor(&ir.descriptor).unwrap_or((Vec::new(), "V"));
        let param_descriptors: Vec<String> = param_descriptors.into_iter().map(str::to_owned).collect();
        let ret_descriptor = ret_descriptor.to_owned();
        let entry = ir.proc(ir.entry);
        let mut params = Vec::new();
        let offset = usize::from(!ir.is_static);
        for (k, var) in entry.inputs.iter().enumerate() {
            let decl = ir.var(*var);
            let class = if k < offset {
                Some(ir.class.clone())
            } else {
                param_descriptors.get(k - offset).and_then(|d| descriptor_class(d))
            };
            params.push(Param {
                name: base_name(&decl.name).to_owned(),
                ty: decl.ty,
                class,
            });
        }
        let ret = Ty::from_descriptor(&ret_descriptor).map(|ty| (ty, descriptor_class(&ret_descriptor)));
        let mut locals: Vec<String> = ir.vars.iter().map(|v| base_name(&v.name).to_owned()).collect();
        locals.sort();
        locals.dedup();
        let mut context_classes = vec![ir.class.clone()];
        for class in params
            .iter()
            .filter_map(|p| p.class.clone())
            .chain(ret.as_ref().and_then(|(_, c)| c.clone()))
        {
            if !context_classes.contains(&class) {
                context_classes.push(class);
            }
        }
        let (markers, marker_sites, errors) = find_markers(&ir);
        (
            MethodCtx {
                key,
                ir,
                params,
                ret,
                locals,
                context_classes,
                local_classes: Vec::new(),
                markers,
                marker_sites,
            },
            errors,
        )
    }

    /// The context of a lifted method of the program: [`MethodCtx::new`] with the declared
    /// classes of its local variables, which type `@var x` terms for `lseg`, `tree` and field
    /// assertions.
    pub fn in_program(key: MethodKey, ir: Arc<MethodIr>, view: &dyn ProgramView) -> (MethodCtx, Vec<MarkerError>) {
        let (mut ctx, errors) = MethodCtx::new(key, ir);
        let declared = view.local_classes(&ctx.key);
        let mut classes: Vec<(String, String)> = Vec::new();
        let mut several: Vec<String> = Vec::new();
        for (name, class) in declared {
            match classes.iter().find(|(n, _)| *n == name) {
                Some((_, known)) if *known != class => several.push(name),
                Some(_) => {}
                None => classes.push((name, class)),
            }
        }
        classes.retain(|(name, _)| !several.contains(name));
        ctx.local_classes = classes;
        (ctx, errors)
    }

    /// The scope names in an annotation of `role` resolve in; `loop_inputs` for invariants.
    pub fn scope<'a>(&'a self, role: Role, loop_inputs: Option<&'a [(String, Ty)]>) -> Scope<'a> {
        Scope {
            method: &self.key,
            role,
            params: &self.params,
            ret: self.ret.clone(),
            loop_inputs,
            locals: &self.locals,
            context_classes: &self.context_classes,
            local_classes: &self.local_classes,
        }
    }

    /// The inputs of a loop procedure by base name and type.
    pub fn loop_inputs(&self, proc: ProcId) -> Vec<(String, Ty)> {
        self.ir
            .proc(proc)
            .inputs
            .iter()
            .map(|v| {
                let decl = self.ir.var(*v);
                (base_name(&decl.name).to_owned(), decl.ty)
            })
            .collect()
    }

    pub fn line_of(&self, pc: u32) -> Option<u32> {
        self.ir.line_of(pc)
    }
}

/// Whether a statement is a `Loop.invariant(id)` marker; returns the identifier operand.
pub fn marker_id(kind: &StmtKind) -> Option<&Operand> {
    match kind {
        StmtKind::Invoke {
            kind: CallKind::Static,
            method,
            args,
            ..
        } if method.class == LOOP_CLASS && method.name == "invariant" => args.first(),
        _ => None,
    }
}

type Markers = (HashMap<ProcId, i32>, Vec<(i32, u32)>, Vec<MarkerError>);

fn find_markers(ir: &MethodIr) -> Markers {
    let mut markers: HashMap<ProcId, i32> = HashMap::new();
    let mut sites = Vec::new();
    let mut errors = Vec::new();
    for proc in &ir.procs {
        for rule in &proc.rules {
            for (k, stmt) in rule.body.iter().enumerate() {
                let Some(operand) = marker_id(&stmt.kind) else {
                    continue;
                };
                let Operand::Int(id) = operand else {
                    errors.push(MarkerError {
                        id: None,
                        pc: stmt.pc,
                        message: "the argument of Loop.invariant must be an integer constant".to_owned(),
                    });
                    continue;
                };
                sites.push((*id, stmt.pc));
                match following_loop(ir, &rule.body[k + 1..]) {
                    Some(target) => match markers.get(&target) {
                        Some(other) if other != id => errors.push(MarkerError {
                            id: Some(*id),
                            pc: stmt.pc,
                            message: format!(
                                "the loop at offset {} is marked both Loop.invariant({other}) and Loop.invariant({id})",
                                ir.proc(target).pc
                            ),
                        }),
                        _ => {
                            markers.insert(target, *id);
                        }
                    },
                    None => errors.push(MarkerError {
                        id: Some(*id),
                        pc: stmt.pc,
                        message: format!(
                            "Loop.invariant({id}) is not followed by a loop (place it just before the loop)"
                        ),
                    }),
                }
            }
        }
    }
    sites.sort();
    sites.dedup();
    (markers, sites, errors)
}

/// The first loop procedure called in `body`, or in the single-rule procedures it ends in.
fn following_loop(ir: &MethodIr, body: &[crate::ir::Stmt]) -> Option<ProcId> {
    let mut body = body;
    for _ in 0..ir.procs.len() + 1 {
        let mut tail = None;
        for stmt in body {
            if let StmtKind::Call { proc, .. } = &stmt.kind {
                let callee = ir.procs.get(proc.index())?;
                if callee.kind == ProcKind::Loop {
                    return Some(*proc);
                }
                tail = Some(*proc);
            }
        }
        let next = ir.procs.get(tail?.index())?;
        match next.rules.as_slice() {
            [only] => body = &only.body,
            _ => return None,
        }
    }
    None
}
