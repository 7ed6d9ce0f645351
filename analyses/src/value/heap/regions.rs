//! Which references hold objects made during the current run of a method (**fresh**) and which
//! hold objects that existed when it was entered (**old**), and whether the run keeps the two
//! apart: whether no old object is ever made to point to a fresh one (**separated**).
//!
//! A write into a fresh object then changes the path length of no old object (none reaches it),
//! and a method whose writes all go into objects it made changes no object its caller holds.
//! Copying a list or mirroring a tree while walking the original are the common cases: the walk
//! keeps its ranking function through the writes into the copy.
//!
//! Sources: `new` is fresh, and so is a constructor's receiver (whoever runs the constructor has
//! just made it); the method's parameters are old; a field read from an old object is old while
//! the run is separated (the induction: an old object's fields pointed to old objects up to the
//! first write that breaks separation, and the check below rules such a write out); a field read
//! right after a write of the same field through the same variable is the written value. Static
//! fields, array elements and call results are of unknown origin.
//!
//! The run is separated when no statement of any of its procedures may store a reference that
//! may be fresh into a reference field of an object that may be old, and no method it calls may
//! write a reference field of an object that existed when that method was entered
//! (`HeapEffects::writes_existing`): such a callee may link anything to anything.

use crate::ir::*;
use std::collections::HashMap;

/// Where a reference's object comes from. `Null` is the bottom (no object), `Unknown` the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Null,
    Fresh,
    Old,
    Unknown,
}

impl Region {
    fn join(self, other: Region) -> Region {
        match (self, other) {
            (Region::Null, r) | (r, Region::Null) => r,
            (a, b) if a == b => a,
            _ => Region::Unknown,
        }
    }

    /// Whether storing a reference of this region into an old object keeps the run separated.
    fn old_or_null(self) -> bool {
        matches!(self, Region::Old | Region::Null)
    }
}

/// The regions of one rule's references, statement by statement.
#[derive(Clone, Debug, Default)]
pub struct RuleRegions {
    region: HashMap<VarId, Region>,
    /// The region of the value last written to a reference field through a variable, by variable
    /// and field name, while no call and no write of that field through another variable followed.
    stored: HashMap<(VarId, String), Region>,
}

impl RuleRegions {
    /// The state at the start of a rule of a procedure whose inputs have these regions.
    pub fn start(inputs: &[VarId], regions: &[Region]) -> RuleRegions {
        let region = inputs
            .iter()
            .zip(regions.iter().copied().chain(std::iter::repeat(Region::Unknown)))
            .map(|(v, r)| (*v, r))
            .collect();
        RuleRegions {
            region,
            stored: HashMap::new(),
        }
    }

    /// The region of an operand (`Unknown` for a variable not defined as a reference yet).
    pub fn of(&self, operand: &Operand) -> Region {
        match operand {
            Operand::Var(v) => self.of_var(*v),
            Operand::Null => Region::Null,
            _ => Region::Unknown,
        }
    }

    pub fn of_var(&self, v: VarId) -> Region {
        self.region.get(&v).copied().unwrap_or(Region::Unknown)
    }

    /// Moves past a statement.
    pub fn step(&mut self, kind: &StmtKind) {
        match kind {
            StmtKind::New { dst, .. } => {
                self.region.insert(*dst, Region::Fresh);
            }
            StmtKind::Assign { dst, src } => {
                let r = self.of(src);
                self.region.insert(*dst, r);
            }
            StmtKind::GetField { dst, object, field } => {
                let written = match object {
                    Operand::Var(o) => self.stored.get(&(*o, field.name.clone())).copied(),
                    _ => None,
                };
                // A read through null throws: it gives no value (nor does one from a procedure
                // input no call has reached yet).
                let r = written.unwrap_or(match self.of(object) {
                    Region::Old => Region::Old,
                    Region::Null => Region::Null,
                    _ => Region::Unknown,
                });
                self.region.insert(*dst, r);
            }
            StmtKind::PutField { object, field, value } => {
                self.stored.retain(|(_, name), _| *name != field.name);
                if let Operand::Var(o) = object {
                    let r = self.of(value);
                    self.stored.insert((*o, field.name.clone()), r);
                }
            }
            StmtKind::Invoke { .. } | StmtKind::InvokeDynamic { .. } | StmtKind::Call { .. } => {
                self.stored.clear();
                for d in kind.defs() {
                    self.region.insert(d, Region::Unknown);
                }
            }
            other => {
                for d in other.defs() {
                    self.region.insert(d, Region::Unknown);
                }
            }
        }
    }
}

/// The regions of a method's procedures' inputs and whether its runs are separated.
#[derive(Clone, Debug)]
pub struct MethodRegions {
    /// Per procedure, per input.
    pub inputs: Vec<Vec<Region>>,
    pub separated: bool,
}

/// The most passes over a method's procedures before the inputs' regions are given up (`Unknown`).
const MAX_PASSES: usize = 16;

/// Computes a method's regions; `writes_existing` tells, for an `invoke`, whether the called method
/// may write a reference field of an object that existed when it was entered.
pub fn method_regions(
    method: &MethodIr,
    writes_existing: &mut dyn FnMut(CallKind, &MethodRef) -> bool,
) -> MethodRegions {
    let mut inputs: Vec<Vec<Region>> = method
        .procs
        .iter()
        .map(|p| vec![Region::Null; p.inputs.len()])
        .collect();
    let entry = method.entry.index();
    let constructor = method.name == "<init>";
    for (k, r) in inputs[entry].iter_mut().enumerate() {
        *r = if constructor && k == 0 {
            Region::Fresh
        } else {
            Region::Old
        };
    }
    let mut settled = false;
    for _ in 0..MAX_PASSES {
        if !propagate(method, &mut inputs) {
            settled = true;
            break;
        }
    }
    if !settled {
        for (p, regions) in inputs.iter_mut().enumerate() {
            if p != entry {
                regions.fill(Region::Unknown);
            }
        }
    }
    let separated = separated(method, &inputs, writes_existing);
    MethodRegions { inputs, separated }
}

/// One pass: joins every call's arguments into its callee's inputs; whether any grew.
fn propagate(method: &MethodIr, inputs: &mut [Vec<Region>]) -> bool {
    let mut grown = false;
    for (p, proc) in method.procs.iter().enumerate() {
        for rule in &proc.rules {
            let mut regions = RuleRegions::start(&proc.inputs, &inputs[p]);
            for stmt in &rule.body {
                if let Some(edge) = &stmt.handler {
                    // The handler's first input is the exception.
                    let args = std::iter::once(Region::Unknown).chain(edge.args.iter().map(|a| regions.of(a)));
                    grown |= join_into(&mut inputs[edge.proc.index()], args);
                }
                if let StmtKind::Call { proc: callee, args, .. } = &stmt.kind {
                    let args: Vec<Region> = args.iter().map(|a| regions.of(a)).collect();
                    grown |= join_into(&mut inputs[callee.index()], args.into_iter());
                }
                regions.step(&stmt.kind);
            }
        }
    }
    grown
}

fn join_into(inputs: &mut [Region], args: impl Iterator<Item = Region>) -> bool {
    let mut grown = false;
    for (input, arg) in inputs.iter_mut().zip(args) {
        let joined = input.join(arg);
        grown |= joined != *input;
        *input = joined;
    }
    grown
}

/// Whether no statement may make an old object point to a fresh one.
fn separated(
    method: &MethodIr,
    inputs: &[Vec<Region>],
    writes_existing: &mut dyn FnMut(CallKind, &MethodRef) -> bool,
) -> bool {
    for (p, proc) in method.procs.iter().enumerate() {
        for rule in &proc.rules {
            let mut regions = RuleRegions::start(&proc.inputs, &inputs[p]);
            for stmt in &rule.body {
                let breaks = match &stmt.kind {
                    StmtKind::PutField { object, field, value } if is_reference(&field.descriptor) => {
                        !matches!(regions.of(object), Region::Fresh | Region::Null) && !regions.of(value).old_or_null()
                    }
                    StmtKind::Invoke { kind, method, .. } => writes_existing(*kind, method),
                    StmtKind::InvokeDynamic { .. } => true,
                    _ => false,
                };
                if breaks {
                    return false;
                }
                regions.step(&stmt.kind);
            }
        }
    }
    true
}

fn is_reference(descriptor: &str) -> bool {
    descriptor.starts_with('L') || descriptor.starts_with('[')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_is_the_bottom_and_mixed_origins_are_unknown() {
        use Region::*;
        assert_eq!(Null.join(Fresh), Fresh);
        assert_eq!(Old.join(Null), Old);
        assert_eq!(Fresh.join(Fresh), Fresh);
        assert_eq!(Fresh.join(Old), Unknown);
        assert_eq!(Unknown.join(Null), Unknown);
    }
}
