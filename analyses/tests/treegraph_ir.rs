//! Tests of lowering IR rules to stack code: every rule of the lifter's golden IR
//! (`tests/data/lift/*.ir`) is scheduled, and its stack code (treegraph, baseline, and the code
//! chosen) is executed on symbolic values and compared with a symbolic execution of the rule.

use jresa_analyses::ir::{parse_program, MethodIr, Operand, ProcId, RuleId, StmtKind};
use jresa_analyses::treegraph::{rule_dag, schedule_method, HandlerArg, ScheduleLimits, StackHandler, StackInsn};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A symbolic value: an input, a constant, or result `result` of statement `stmt` applied to
/// symbolic operands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Sym {
    Input(u32),
    Const(String),
    Op { stmt: u32, result: u32, args: Vec<Rc<Sym>> },
}

/// What a rule does: the operands each statement runs on (in statement order), the values each
/// handler receives, and how the rule ends.
#[derive(Debug, PartialEq)]
struct Behaviour {
    /// Statements with their operands, in the order they run.
    runs: Vec<(u32, Vec<Rc<Sym>>)>,
    /// For each statement with a handler, the handler's arguments.
    handlers: HashMap<u32, Vec<Rc<Sym>>>,
    /// The terminator: "return", "tailcall" or "throw", with its operands.
    end: (String, Vec<Rc<Sym>>),
}

fn constant(operand: &Operand) -> Rc<Sym> {
    Rc::new(Sym::Const(format!("{operand:?}")))
}

/// The behaviour of a rule by the IR's semantics.
fn ir_behaviour(method: &MethodIr, proc: ProcId, rule: RuleId) -> Behaviour {
    let procedure = method.proc(proc);
    let body = &procedure.rules[rule.index()].body;
    let mut env: HashMap<_, Rc<Sym>> = procedure
        .inputs
        .iter()
        .enumerate()
        .map(|(k, &v)| (v, Rc::new(Sym::Input(k as u32))))
        .collect();
    let value = |env: &HashMap<_, Rc<Sym>>, o: &Operand| match o {
        Operand::Var(v) => env[v].clone(),
        c => constant(c),
    };
    let mut behaviour = Behaviour {
        runs: Vec::new(),
        handlers: HashMap::new(),
        end: (String::new(), Vec::new()),
    };
    for (k, stmt) in body.iter().enumerate() {
        let k = k as u32;
        if let Some(edge) = &stmt.handler {
            let args = edge.args.iter().map(|a| value(&env, a)).collect();
            behaviour.handlers.insert(k, args);
        }
        let args: Vec<Rc<Sym>> = stmt.kind.uses().iter().map(|o| value(&env, o)).collect();
        let last = k as usize + 1 == body.len();
        match &stmt.kind {
            StmtKind::Assign { dst, src } => {
                let v = value(&env, src);
                env.insert(*dst, v);
            }
            StmtKind::Throw { .. } => {
                behaviour.runs.push((k, args.clone()));
                behaviour.end = ("throw".to_owned(), args);
            }
            StmtKind::Call { outs, .. } if last && *outs == procedure.outputs => {
                behaviour.runs.push((k, args.clone()));
                behaviour.end = ("tailcall".to_owned(), args);
            }
            kind => {
                for (result, def) in kind.defs().into_iter().enumerate() {
                    let sym = Sym::Op {
                        stmt: k,
                        result: result as u32,
                        args: args.clone(),
                    };
                    env.insert(def, Rc::new(sym));
                }
                behaviour.runs.push((k, args));
            }
        }
    }
    if behaviour.end.0.is_empty() {
        let outputs = procedure.outputs.iter().map(|v| env[v].clone()).collect();
        behaviour.end = ("return".to_owned(), outputs);
    }
    behaviour
}

/// The behaviour of stack code, executed on symbolic values; an error for any stack underflow,
/// bad fetch, unset local, code after the terminator, or a missing terminator.
fn stack_behaviour(code: &[StackInsn]) -> Result<Behaviour, String> {
    let mut stack: Vec<Rc<Sym>> = Vec::new();
    let mut locals: HashMap<u32, Rc<Sym>> = HashMap::new();
    let mut behaviour = Behaviour {
        runs: Vec::new(),
        handlers: HashMap::new(),
        end: (String::new(), Vec::new()),
    };
    let pop = |stack: &mut Vec<Rc<Sym>>, n: u32, at: usize| -> Result<Vec<Rc<Sym>>, String> {
        let n = n as usize;
        if n > stack.len() {
            return Err(format!("instruction {at} pops {n} of {}", stack.len()));
        }
        Ok(stack.split_off(stack.len() - n))
    };
    let handler_args =
        |locals: &HashMap<u32, Rc<Sym>>, handler: &Option<StackHandler>| -> Result<Option<Vec<Rc<Sym>>>, String> {
            let Some(handler) = handler else {
                return Ok(None);
            };
            handler
                .args
                .iter()
                .map(|a| match a {
                    HandlerArg::Input(i) => Ok(Rc::new(Sym::Input(*i))),
                    HandlerArg::Const(c) => Ok(constant(c)),
                    HandlerArg::Local(s) => locals.get(s).cloned().ok_or(format!("handler reads unset L{s}")),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some)
        };
    for (at, insn) in code.iter().enumerate() {
        if !behaviour.end.0.is_empty() {
            return Err(format!("instruction {at} follows the terminator"));
        }
        match insn {
            StackInsn::Push { value } => stack.push(constant(value)),
            StackInsn::LoadInput { index } => stack.push(Rc::new(Sym::Input(*index))),
            StackInsn::Load { slot } => stack.push(locals.get(slot).cloned().ok_or(format!("load of unset L{slot}"))?),
            StackInsn::Store { slot } => {
                let v = pop(&mut stack, 1, at)?.remove(0);
                locals.insert(*slot, v);
            }
            StackInsn::Dup { count } => {
                let top = stack.last().cloned().ok_or("dup of nothing")?;
                stack.extend(std::iter::repeat_n(top, *count as usize));
            }
            StackInsn::Fetch { depth } => {
                let d = *depth as usize;
                if d == 0 || d > stack.len() {
                    return Err(format!("fetch {d} of {}", stack.len()));
                }
                stack.push(stack[stack.len() - d].clone());
            }
            StackInsn::Pop { count } => {
                pop(&mut stack, *count, at)?;
            }
            StackInsn::Op { op, stmt, handler } => {
                if let Some(args) = handler_args(&locals, handler)? {
                    behaviour.handlers.insert(*stmt, args);
                }
                let args = pop(&mut stack, op.arity(), at)?;
                for result in 0..op.results() {
                    stack.push(Rc::new(Sym::Op {
                        stmt: *stmt,
                        result,
                        args: args.clone(),
                    }));
                }
                behaviour.runs.push((*stmt, args));
            }
            StackInsn::Return { values } => {
                behaviour.end = ("return".to_owned(), pop(&mut stack, *values, at)?);
            }
            StackInsn::TailCall {
                args, stmt, handler, ..
            } => {
                if let Some(h) = handler_args(&locals, handler)? {
                    behaviour.handlers.insert(*stmt, h);
                }
                let args = pop(&mut stack, *args, at)?;
                behaviour.runs.push((*stmt, args.clone()));
                behaviour.end = ("tailcall".to_owned(), args);
            }
            StackInsn::Throw { stmt, handler } => {
                if let Some(h) = handler_args(&locals, handler)? {
                    behaviour.handlers.insert(*stmt, h);
                }
                let args = pop(&mut stack, 1, at)?;
                behaviour.runs.push((*stmt, args.clone()));
                behaviour.end = ("throw".to_owned(), args);
            }
        }
    }
    if behaviour.end.0.is_empty() {
        return Err("no terminator".to_owned());
    }
    Ok(behaviour)
}

/// Whether two behaviours agree: the same statements with the same operands, handler arguments
/// and end, with every statement that has an effect in the same relative order.
fn same_behaviour(method: &MethodIr, proc: ProcId, rule: RuleId, code: &[StackInsn]) -> Result<(), String> {
    let expected = ir_behaviour(method, proc, rule);
    let actual = stack_behaviour(code)?;
    if expected.handlers != actual.handlers {
        return Err("handler arguments differ".to_owned());
    }
    if expected.end != actual.end {
        return Err(format!("ends differ: {:?} vs {:?}", expected.end, actual.end));
    }
    let mut sorted = actual.runs.clone();
    sorted.sort_by_key(|(stmt, _)| *stmt);
    if sorted != expected.runs {
        return Err("statements or their operands differ".to_owned());
    }
    let body = &method.proc(proc).rules[rule.index()].body;
    let effects = |runs: &[(u32, Vec<Rc<Sym>>)]| -> Vec<u32> {
        runs.iter()
            .map(|(s, _)| *s)
            .filter(|&s| jresa_analyses::treegraph::has_effect(&body[s as usize].kind))
            .collect()
    };
    if effects(&actual.runs) != effects(&expected.runs) {
        return Err("effects run in another order".to_owned());
    }
    Ok(())
}

fn lift_data() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/lift");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/data/lift exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "the lift fixtures are missing");
    files
}

#[test]
fn every_lifted_fixture_rule_lowers_to_equivalent_stack_code() {
    let limits = ScheduleLimits::deterministic();
    let mut rules = 0;
    let mut shorter = 0;
    for file in lift_data() {
        let program = parse_program(&std::fs::read_to_string(&file).expect("read"))
            .unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
        for method in &program.methods {
            let schedule = schedule_method(method, &limits);
            assert!(
                schedule.failures.is_empty(),
                "{}: {:?}",
                method.display_name(),
                schedule.failures
            );
            for scheduled in &schedule.rules {
                rules += 1;
                let where_ = format!(
                    "{} {} {}",
                    method.display_name(),
                    method.proc(scheduled.proc).name,
                    scheduled.rule
                );
                for (name, code) in [
                    ("treegraph", &scheduled.treegraph),
                    ("baseline", &scheduled.baseline),
                    ("chosen", &scheduled.code),
                ] {
                    same_behaviour(method, scheduled.proc, scheduled.rule, code)
                        .unwrap_or_else(|e| panic!("{where_}: {name} code: {e}\n{code:#?}"));
                }
                assert!(scheduled.code.len() <= scheduled.baseline.len(), "{where_}");
                if scheduled.treegraph.len() < scheduled.baseline.len() {
                    shorter += 1;
                }
            }
        }
    }
    assert!(rules > 500, "only {rules} rules");
    assert!(shorter > 20, "the treegraph code is shorter in only {shorter} rules");
}

/// A rule's DAG orders its effects: a field read between two calls stays between them, and the
/// handler's local is stored before the statement that may throw.
#[test]
fn effects_and_handler_locals_are_ordered() {
    let text = "method T.m:(LT;)I static\n  vars ret:int o:ref t1:int t2:int t3:int exc:ref\n  entry b0\n  proc b0(o; ret) block @0\n    rule bc=9\n      @0#1 t1 = invokestatic T.f:()I ()\n      @1#2 t2 = getfield o, T.x:I catch h9(t1)\n      @2#3 invokestatic T.g:()V ()\n      @3#4 t3 = iadd t2, t1\n      @4#5 ret = t3\n  proc h9(exc, t1; ret) handler @9\n    rule bc=0\n      @9#0 throw exc\n";
    let program = parse_program(text).expect("parses");
    let method = &program.methods[0];
    let dag = rule_dag(method, ProcId(0), RuleId(0)).expect("lowers").dag;
    let position = |label: &str| {
        dag.ids()
            .find(|&id| format!("{:?}", dag.node(id).label).contains(label))
            .expect(label)
    };
    let (f, x, g) = (position("name: \"f\""), position("GetField"), position("name: \"g\""));
    assert!(dag.node(x).after.contains(&f));
    assert!(dag.node(g).after.contains(&x));
    let store = position("Store");
    assert!(dag.node(x).after.contains(&store));
    let schedule = schedule_method(method, &ScheduleLimits::deterministic());
    let code = &schedule.rules[0].code;
    same_behaviour(method, ProcId(0), RuleId(0), code).expect("same behaviour");
}
