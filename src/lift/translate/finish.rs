//! The finishing passes over a translated method: procedures in offset order, unused variables
//! dropped, so the printed IR is deterministic.

use jresa_analyses::ir::*;

/// Orders procedures by bytecode offset (the entry first) and renumbers every reference.
pub(super) fn sort_procedures(ir: &mut MethodIr) {
    let rank = |p: &Procedure| match p.kind {
        ProcKind::Entry => 0,
        ProcKind::Block | ProcKind::Loop => 1,
        ProcKind::Branch => 2,
        ProcKind::Exit => 3,
        ProcKind::Handler => 4,
    };
    let mut order: Vec<usize> = (0..ir.procs.len()).collect();
    order.sort_by(|&a, &b| {
        let (pa, pb) = (&ir.procs[a], &ir.procs[b]);
        let entry_a = ProcId::from_index(a) != ir.entry;
        let entry_b = ProcId::from_index(b) != ir.entry;
        (entry_a, pa.pc, rank(pa), &pa.name).cmp(&(entry_b, pb.pc, rank(pb), &pb.name))
    });
    let mut new_id = vec![ProcId(0); ir.procs.len()];
    for (new, &old) in order.iter().enumerate() {
        new_id[old] = ProcId::from_index(new);
    }
    let mut old_procs: Vec<Option<Procedure>> = std::mem::take(&mut ir.procs).into_iter().map(Some).collect();
    ir.procs = order.iter().filter_map(|&old| old_procs[old].take()).collect();
    ir.entry = new_id[ir.entry.index()];
    for proc in &mut ir.procs {
        for rule in &mut proc.rules {
            for stmt in &mut rule.body {
                if let StmtKind::Call { proc, .. } = &mut stmt.kind {
                    *proc = new_id[proc.index()];
                }
                if let Some(edge) = &mut stmt.handler {
                    edge.proc = new_id[edge.proc.index()];
                }
            }
        }
    }
}

/// Removes variables no procedure mentions (temporaries renamed away) and renumbers the rest.
pub(super) fn drop_unused_vars(ir: &mut MethodIr) {
    let mut used = vec![false; ir.vars.len()];
    let mut mark = |operand: &Operand| {
        if let Operand::Var(v) = operand {
            used[v.index()] = true;
        }
    };
    for proc in &ir.procs {
        for v in proc.inputs.iter().chain(&proc.outputs) {
            mark(&Operand::Var(*v));
        }
        for rule in &proc.rules {
            for cond in &rule.guard {
                match cond {
                    Cond::Cmp { lhs, rhs, .. } => {
                        mark(lhs);
                        mark(rhs);
                    }
                    Cond::InstanceOf { value, .. } => mark(value),
                }
            }
            for stmt in &rule.body {
                stmt.kind.uses().into_iter().for_each(&mut mark);
                stmt.kind.defs().into_iter().for_each(|v| mark(&Operand::Var(v)));
                if let Some(edge) = &stmt.handler {
                    edge.args.iter().for_each(&mut mark);
                }
            }
        }
    }
    let mut new_id = vec![None; ir.vars.len()];
    let mut kept = Vec::new();
    for (old, decl) in std::mem::take(&mut ir.vars).into_iter().enumerate() {
        if used[old] {
            new_id[old] = Some(VarId::from_index(kept.len()));
            kept.push(decl);
        }
    }
    ir.vars = kept;
    let remap = |v: &mut VarId| {
        if let Some(new) = new_id[v.index()] {
            *v = new;
        }
    };
    visit_vars_mut(ir, remap);
}
