//! `monitorexit`s that cannot throw: their handler edges are removed.
//!
//! javac compiles `synchronized (lock) { body }` with a catch-all handler that exits the monitor
//! and rethrows, and the handler's own range covers its `monitorexit`: in the IR the handler is a
//! loop (`monitorexit lock catch` back to itself) that no ranking function bounds, and every method
//! with a `synchronized` block was reported unknown. A `monitorexit` raises an exception only when
//! its operand is null or the thread does not own the monitor; one that exits a monitor the same
//! run entered through an equal operand, and has not exited since, does neither (the operand was
//! not null at its `monitorenter`).
//!
//! The pass is a must-analysis over the method's procedures (a greatest fixpoint, as available
//! expressions): per procedure input, how many entries of its monitor the run holds (`TOP` before
//! any call reaches it); inside a rule, operands known equal (an `Assign` joins its destination to
//! its source's class; rules are in SSA form) share one count, `monitorenter` adds one and a
//! proven `monitorexit` takes one. A call passes each class's count to the first input it gives a
//! member of the class (a monitor is never counted twice); after a call of a procedure that may
//! exit a monitor and return normally, nothing is known held. An exception edge that is removed
//! passes nothing, so a handler reached only from proven exits is never entered.
//!
//! **Assumption: structured locking (JVMS §2.11.10)**: a method call leaves the caller's monitors
//! as it found them. Every compiler of Java source keeps it; the JVM may enforce it.

use super::{HandlerEdge, MethodIr, Operand, Procedure, StmtKind, VarId};
use std::collections::HashMap;

/// More entries than any run makes: an input no call has reached yet.
const TOP: u32 = u32::MAX;

/// An operand that denotes one object while a rule runs: a variable or a class or string literal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Var(VarId),
    Class(String),
    Str(String),
}

fn key(operand: &Operand) -> Option<Key> {
    match operand {
        Operand::Var(v) => Some(Key::Var(*v)),
        Operand::Class(c) => Some(Key::Class(c.clone())),
        Operand::Str(s) => Some(Key::Str(s.clone())),
        _ => None,
    }
}

/// What is known at a procedure's entry: which inputs are equal (each input's representative, the
/// first input equal to it) and, per representative, the entries held.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    rep: Vec<usize>,
    count: Vec<u32>,
}

impl Entry {
    /// Before any call reaches the procedure: all inputs one object, entered without end.
    fn top(inputs: usize) -> Entry {
        Entry {
            rep: vec![0; inputs],
            count: vec![TOP; inputs],
        }
    }

    /// The method's entry: distinct inputs, no monitor held.
    fn none(inputs: usize) -> Entry {
        Entry {
            rep: (0..inputs).collect(),
            count: vec![0; inputs],
        }
    }

    /// What holds on both: inputs equal in both, the smaller count.
    fn meet(&mut self, other: &Entry) {
        if other.rep.len() != self.rep.len() {
            // A call that does not pass one argument per input (the verifier refuses it): nothing
            // is known of the inputs.
            *self = Entry::none(self.rep.len());
            return;
        }
        let pairs: Vec<(usize, usize)> = self.rep.iter().copied().zip(other.rep.iter().copied()).collect();
        let mut rep = Vec::with_capacity(pairs.len());
        let mut count = vec![0; pairs.len()];
        for (k, pair) in pairs.iter().enumerate() {
            let first = pairs.iter().position(|p| p == pair).unwrap_or(k);
            rep.push(first);
            if first == k {
                count[k] = self.count[pair.0].min(other.count[pair.1]);
            }
        }
        *self = Entry { rep, count };
    }
}

/// Classes of equal operands and the entries each holds.
#[derive(Default)]
struct Held {
    class_of: HashMap<Key, usize>,
    counts: Vec<u32>,
}

impl Held {
    fn start(proc: &Procedure, entry: &Entry) -> Held {
        let mut held = Held::default();
        let mut class_of_rep: HashMap<usize, usize> = HashMap::new();
        for (k, v) in proc.inputs.iter().enumerate() {
            let rep = entry.rep[k];
            let class = *class_of_rep.entry(rep).or_insert_with(|| {
                held.counts.push(entry.count[rep]);
                held.counts.len() - 1
            });
            held.class_of.insert(Key::Var(*v), class);
        }
        held
    }

    fn class(&mut self, operand: &Operand) -> Option<usize> {
        let key = key(operand)?;
        let fresh = self.counts.len();
        let class = *self.class_of.entry(key).or_insert(fresh);
        if class == fresh {
            self.counts.push(0);
        }
        Some(class)
    }

    fn count(&mut self, operand: &Operand) -> u32 {
        self.class(operand).map_or(0, |c| self.counts[c])
    }

    /// What a call passes to its callee's inputs: which are equal, and the entries held.
    fn passed(&mut self, args: impl Iterator<Item = Option<Operand>>) -> Entry {
        let classes: Vec<Option<usize>> = args.map(|a| a.as_ref().and_then(|a| self.class(a))).collect();
        let rep = (0..classes.len())
            .map(|k| match classes[k] {
                Some(c) => classes.iter().position(|d| *d == Some(c)).unwrap_or(k),
                None => k,
            })
            .collect();
        let count = classes.iter().map(|c| c.map_or(0, |c| self.counts[c])).collect();
        Entry { rep, count }
    }

    fn forget_all(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = 0);
    }
}

/// Removes the handler edges of the `monitorexit`s of `ir` that cannot throw; returns how many.
pub fn drop_impossible_monitor_exits(ir: &mut MethodIr) -> usize {
    let has_exit = ir.procs.iter().any(|p| {
        p.rules
            .iter()
            .flat_map(|r| &r.body)
            .any(|s| matches!(s.kind, StmtKind::MonitorExit { .. }) && s.handler.is_some())
    });
    if !has_exit {
        return 0;
    }
    let returns_after_exit = returns_after_exit(ir);
    let mut inputs = starting(ir);
    // The counts only decrease; a loop that exits a monitor on every iteration lowers them by one
    // per pass, so the passes are bounded (past the bound nothing is removed).
    for _ in 0..MAX_PASSES {
        let (stable, (next, safe)) = pass(ir, &inputs, &returns_after_exit);
        if !stable {
            inputs = next;
            continue;
        }
        let mut removed = 0;
        for (p, r, s) in safe {
            if ir.procs[p].rules[r].body[s].handler.take().is_some() {
                removed += 1;
            }
        }
        return removed;
    }
    0
}

/// The most passes of the fixpoint.
const MAX_PASSES: usize = 64;

type Pass = (Vec<Entry>, Vec<(usize, usize, usize)>);

/// Every procedure's entry before the calls are read: the method's entry holds nothing, the others
/// are not reached yet.
fn starting(ir: &MethodIr) -> Vec<Entry> {
    let mut entries: Vec<Entry> = ir.procs.iter().map(|p| Entry::top(p.inputs.len())).collect();
    entries[ir.entry.index()] = Entry::none(ir.procs[ir.entry.index()].inputs.len());
    entries
}

/// One pass over every rule from the inputs' counts: whether they are stable, the counts the calls
/// pass (joined with the entry's), and the proven exits (procedure, rule, statement).
fn pass(ir: &MethodIr, inputs: &[Entry], returns_after_exit: &[bool]) -> (bool, Pass) {
    let mut next = starting(ir);
    let mut safe = Vec::new();
    let mut join = |target: usize, passed: Entry| next[target].meet(&passed);
    for (p, proc) in ir.procs.iter().enumerate() {
        for (r, rule) in proc.rules.iter().enumerate() {
            let mut held = Held::start(proc, &inputs[p]);
            for (s, stmt) in rule.body.iter().enumerate() {
                let proven = match &stmt.kind {
                    StmtKind::MonitorExit { value } => held.count(value) >= 1,
                    _ => false,
                };
                if let (Some(HandlerEdge { proc: handler, args }), false) = (&stmt.handler, proven) {
                    // The handler's first input is the exception.
                    let passed = held.passed(std::iter::once(None).chain(args.iter().cloned().map(Some)));
                    join(handler.index(), passed);
                }
                step(&mut held, &stmt.kind, proven, returns_after_exit, &mut join);
                if proven {
                    safe.push((p, r, s));
                }
            }
        }
    }
    let stable = next == inputs;
    (stable, (next, safe))
}

/// Moves `held` past a statement (`proven`: a `monitorexit` shown not to throw).
fn step(
    held: &mut Held,
    kind: &StmtKind,
    proven: bool,
    returns_after_exit: &[bool],
    join: &mut impl FnMut(usize, Entry),
) {
    match kind {
        StmtKind::MonitorEnter { value } => {
            if let Some(c) = held.class(value) {
                held.counts[c] = held.counts[c].saturating_add(1);
            }
        }
        StmtKind::MonitorExit { value } => {
            if let Some(c) = held.class(value) {
                held.counts[c] = if proven { held.counts[c] - 1 } else { 0 };
            }
        }
        StmtKind::Assign { dst, src } => {
            if let Some(c) = held.class(src) {
                held.class_of.insert(Key::Var(*dst), c);
            }
        }
        StmtKind::Call { proc, args, .. } => {
            let passed = held.passed(args.iter().cloned().map(Some));
            join(proc.index(), passed);
            if returns_after_exit[proc.index()] {
                held.forget_all();
            }
        }
        _ => {}
    }
}

/// Per procedure, whether a run of it may exit a monitor and still return normally (a rule with a
/// `monitorexit` that does not end in `throw`, or a call, normal or exceptional, of such a
/// procedure).
fn returns_after_exit(ir: &MethodIr) -> Vec<bool> {
    let mut may: Vec<bool> = ir
        .procs
        .iter()
        .map(|p| {
            p.rules.iter().any(|r| {
                let exits = r.body.iter().any(|s| matches!(s.kind, StmtKind::MonitorExit { .. }));
                let throws = r.body.last().is_some_and(|s| matches!(s.kind, StmtKind::Throw { .. }));
                exits && !throws
            })
        })
        .collect();
    loop {
        let mut grown = false;
        for (p, proc) in ir.procs.iter().enumerate() {
            if may[p] {
                continue;
            }
            let reaches = proc.rules.iter().flat_map(|r| &r.body).any(|s| {
                let called = match &s.kind {
                    StmtKind::Call { proc, .. } => may[proc.index()],
                    _ => false,
                };
                called || s.handler.as_ref().is_some_and(|h| may[h.proc.index()])
            });
            if reaches {
                may[p] = true;
                grown = true;
            }
        }
        if !grown {
            return may;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::parse_program;

    /// The method's `monitorexit`s, as (procedure name, whether it keeps its handler edge), after
    /// the pass.
    fn exits_after(text: &str) -> Vec<(String, bool)> {
        let mut program = parse_program(text).expect("the IR parses");
        let ir = &mut program.methods[0];
        drop_impossible_monitor_exits(ir);
        let errors = crate::ir::verify_method(ir);
        assert!(errors.is_empty(), "the IR no longer verifies: {errors:?}");
        let mut out = Vec::new();
        for proc in &ir.procs {
            for stmt in proc.rules.iter().flat_map(|r| &r.body) {
                if matches!(stmt.kind, StmtKind::MonitorExit { .. }) {
                    out.push((proc.name.clone(), stmt.handler.is_some()));
                }
            }
        }
        out
    }

    /// javac's `synchronized (lock) { ... }`, with `body` before the normal exit and `procs` after
    /// the block's procedure.
    fn block(enter: &str, body: &str, procs: &str) -> String {
        format!(
            "method T.m:(Ljava/lang/Object;I)I static
  vars ret:int lock:ref n:int exc:ref l2:ref s0r:ref o:ref r:int
  entry b0
  proc b0(lock, n; ret) block @0
    rule bc=4
      @1#1 {enter}
{body}      @12#3 monitorexit lock catch h16(lock)
      @13#4 ret = n
{procs}  proc loop16(l2, s0r; ret) loop @16
    rule bc=3
      @18#2 monitorexit l2 catch h16.in16(l2)
      @20#3 throw s0r
  proc h16(exc, l2; ret) handler @16
    rule bc=0
      @16#0 call loop16(l2, exc; ret)
  proc h16.in16(exc, l2; ret) handler @16
    rule bc=0
      @16#0 call loop16(l2, exc; ret)
"
        )
    }

    #[test]
    fn the_exits_of_an_entered_monitor_cannot_throw() {
        let exits = exits_after(&block("monitorenter lock", "", ""));
        assert_eq!(exits, vec![("b0".into(), false), ("loop16".into(), false)]);
    }

    #[test]
    fn an_exit_through_a_copy_of_the_lock_cannot_throw() {
        let text = block("o = lock", "      @2#2 monitorenter o\n", "");
        assert_eq!(exits_after(&text), vec![("b0".into(), false), ("loop16".into(), false)]);
    }

    #[test]
    fn an_exit_of_a_monitor_not_entered_keeps_its_handler() {
        let text = block("o = lock", "", "");
        assert_eq!(exits_after(&text), vec![("b0".into(), true), ("loop16".into(), true)]);
    }

    #[test]
    fn a_monitor_is_exited_once_per_entry() {
        // Entered once, exited twice: the second exit may throw, and its handler's exit with it.
        let text = block("monitorenter lock", "      @5#2 monitorexit lock catch h16(lock)\n", "");
        assert_eq!(
            exits_after(&text),
            vec![("b0".into(), false), ("b0".into(), true), ("loop16".into(), true)]
        );
    }

    #[test]
    fn after_a_call_that_exits_and_returns_nothing_is_known_held() {
        let callee = "  proc x(o; r) block @5
    rule bc=2
      @6#1 monitorexit o catch h16(o)
      @7#2 r = 0
";
        let text = block("monitorenter lock", "      @2#2 call x(lock; r)\n", callee);
        // The callee's exit is of the caller's entry; the caller's own exit after it may throw.
        let exits = exits_after(&text);
        assert_eq!(
            exits,
            vec![("b0".into(), true), ("x".into(), false), ("loop16".into(), true)]
        );
    }
}
