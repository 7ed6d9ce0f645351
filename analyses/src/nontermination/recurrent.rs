//! The search for a closed recurrent set at one loop head: cycles of states first, then the
//! weakening of facts true at a reachable state (see the module above).

use super::explore::{self, element_of, field_of, length_of, narrow, strlen, width, End, Explorer, Heap, Target};
use super::inline::Inlined;
use super::terms;
use super::{limits, Input, Proof};
use crate::ir::{source_name, split_method_descriptor, ElemTy, MethodIr, ProcId, ProcKind, StmtKind, Ty};
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::time::Instant;
use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::{Model, SatResult, Solver};

/// The loops at `offsets`, then the method's recursion, until the budget is spent.
pub(super) fn search(ir: &MethodIr, offsets: &[u32], inlined: &Inlined, deadline: Instant) -> Vec<Proof> {
    let heap = Heap::of(ir, inlined);
    let mut heads: Vec<(Target, ProcId)> = ir
        .procs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == ProcKind::Loop && offsets.contains(&p.pc))
        .map(|(k, _)| (Target::Loop(ProcId::from_index(k)), ProcId::from_index(k)))
        .collect();
    heads.sort_by_key(|(_, p)| ir.proc(*p).pc);
    let recursive =
        ir.procs.iter().flat_map(|p| &p.rules).flat_map(|r| &r.body).any(
            |s| matches!(&s.kind, StmtKind::Invoke { kind, method, .. } if explore::is_self_call(ir, *kind, method)),
        );
    if recursive || inlined.reach(ir) {
        heads.push((Target::Recursion, ir.entry));
    }
    let mut proofs = Vec::new();
    let queries = Cell::new(0);
    let budget = Budget {
        deadline,
        queries: &queries,
    };
    for (n, (target, head)) in heads.into_iter().enumerate() {
        if budget.spent() {
            break;
        }
        let inner_loops = ir.procs.iter().filter(|p| p.kind == ProcKind::Loop).count() > 1;
        let modes: &[bool] = if inner_loops { &[false, true] } else { &[false] };
        let found = modes.iter().find_map(|&inline| {
            Head::new(ir, &heap, inlined, (target, head), n, inline, &budget).and_then(|h| h.prove())
        });
        if let Some(proof) = found {
            proofs.push(proof);
        }
    }
    proofs
}

/// What one method's search may still spend.
struct Budget<'b> {
    deadline: Instant,
    queries: &'b Cell<usize>,
}

impl Budget<'_> {
    fn spent(&self) -> bool {
        self.queries.get() >= limits::METHOD_QUERIES || Instant::now() >= self.deadline
    }
}

/// A value of the state at the head that candidate sets speak of, with its display name.
struct Observable {
    term: BV,
    name: String,
}

/// A conjunct of a candidate set, over the head's state constants.
#[derive(Clone)]
struct Atom {
    formula: Bool,
    text: String,
    /// Whether it pins values (`x = 5`, `x >= 5`, `x - y = 2`) rather than a shape (a sign, a
    /// parity, a relation, a condition of the loop).
    specific: bool,
}

/// A reachable state: the model that shows it and the terms of the state in that model.
struct Seed {
    model: Model,
    state: Vec<BV>,
}

enum Answer {
    Sat(Model),
    Unsat,
    Unknown,
}

struct Head<'a> {
    ir: &'a MethodIr,
    heap: &'a Heap,
    head: ProcId,
    recursion: bool,
    state: Vec<BV>,
    inputs: Vec<BV>,
    /// The stems: conditions on the inputs under which the head is reached with these arguments.
    stems: Vec<(Bool, Vec<BV>)>,
    /// Valid values of the inputs (booleans 0 or 1, bytes, chars and shorts in range).
    domain: Bool,
    back: Vec<(Bool, Vec<BV>)>,
    exits: Bool,
    observables: Vec<Observable>,
    refs: Vec<(BV, String)>,
    /// Comparisons in the loop's conditions that speak of the state only.
    guards: Vec<Bool>,
    /// The names of the state's constants, and their source names.
    state_names: HashSet<String>,
    display: HashMap<String, String>,
    solver: Solver,
    budget: &'a Budget<'a>,
}

impl<'a> Head<'a> {
    /// The search at the `n`th head, the procedure `head` whose calls `target` names.
    fn new(
        ir: &'a MethodIr,
        heap: &'a Heap,
        inlined: &'a Inlined,
        (target, head): (Target, ProcId),
        n: usize,
        inline_loops: bool,
        budget: &'a Budget<'a>,
    ) -> Option<Head<'a>> {
        let explorer = Explorer::new(ir, heap, inlined, target, inline_loops);
        let procedure = ir.proc(head);
        let state: Vec<BV> = procedure
            .inputs
            .iter()
            .enumerate()
            .map(|(k, v)| BV::new_const(format!("head{n} s{k}"), width(ir.var(*v).ty)))
            .collect();
        let recursion = target == Target::Recursion;
        let entry = &ir.proc(ir.entry).inputs;
        let inputs: Vec<BV> = if recursion {
            state.clone()
        } else {
            entry
                .iter()
                .enumerate()
                .map(|(k, v)| BV::new_const(format!("head{n} in{k}"), width(ir.var(*v).ty)))
                .collect()
        };
        let (paths, _) = explorer.explore(head, &state);
        let mut back = Vec::new();
        let mut exits = Vec::new();
        for path in paths {
            match path.end {
                End::Reached(args) => back.push((path.cond, args)),
                End::Returned(..) | End::Left => exits.push(path.cond),
            }
        }
        if back.is_empty() {
            return None;
        }
        let stems = if recursion {
            vec![(Bool::from_bool(true), inputs.clone())]
        } else {
            let (paths, _) = explorer.explore_fresh(ir.entry, &inputs);
            paths
                .into_iter()
                .filter_map(|p| match p.end {
                    End::Reached(args) => Some((p.cond, args)),
                    End::Returned(..) | End::Left => None,
                })
                .collect()
        };
        if stems.is_empty() {
            return None;
        }
        let solver = Solver::new();
        let mut params = z3::Params::new();
        params.set_u32("rlimit", limits::QUERY_RLIMIT);
        solver.set_params(&params);
        let mut head = Head {
            ir,
            heap,
            head,
            recursion,
            domain: input_domain(ir, &inputs),
            state,
            inputs,
            stems,
            back,
            exits: Bool::or(&exits),
            observables: Vec::new(),
            refs: Vec::new(),
            guards: Vec::new(),
            state_names: HashSet::new(),
            display: HashMap::new(),
            solver,
            budget,
        };
        head.observe();
        Some(head)
    }

    /// The integer variables of the state, the frozen heap cells the loop reads through them, and
    /// the comparisons of the loop's conditions over them.
    fn observe(&mut self) {
        let procedure = self.ir.proc(self.head);
        for (term, v) in self.state.iter().zip(&procedure.inputs) {
            let name = source_name(&self.ir.var(*v).name).to_owned();
            let constant = term.decl().name();
            self.state_names.insert(constant.clone());
            self.display.insert(constant, name.clone());
            match self.ir.var(*v).ty {
                Ty::Int | Ty::Long => self.observables.push(Observable {
                    term: term.clone(),
                    name,
                }),
                Ty::Ref => self.refs.push((term.clone(), name)),
                Ty::Float | Ty::Double => {}
            }
        }
        let mut reads = Vec::new();
        let mut guards = Vec::new();
        let conditions = self.back.iter().map(|(c, _)| c).chain(std::iter::once(&self.exits));
        for cond in conditions {
            terms::heap_reads(&Dynamic::from_ast(cond), &self.state_names, &mut reads);
            terms::comparisons(cond, &self.state_names, &mut guards);
        }
        for (_, args) in &self.back {
            for a in args {
                terms::heap_reads(&Dynamic::from_ast(a), &self.state_names, &mut reads);
            }
        }
        let mut seen: HashSet<String> = HashSet::new();
        for read in reads {
            if seen.insert(read.to_string()) {
                let name = terms::text(&Dynamic::from_ast(&read), &self.display);
                self.observables.push(Observable { term: read, name });
            }
        }
        self.observables.truncate(limits::MAX_OBSERVABLES);
        let mut seen: HashSet<String> = HashSet::new();
        self.guards = guards
            .into_iter()
            .filter(|g| seen.insert(g.to_string()))
            .take(limits::MAX_OBSERVABLES * 2)
            .collect();
    }

    fn prove(&self) -> Option<Proof> {
        let mut failed: Vec<Bool> = Vec::new();
        let all: Vec<usize> = (0..self.observables.len()).collect();
        for period in 1..=limits::MAX_PERIOD {
            if let Some((seed, states)) = self.cycle(0, period, &all) {
                if let Some(proof) = self.cycle_proof(&seed, &states, &all) {
                    return Some(proof);
                }
                match self.weaken(&seed) {
                    Ok(atoms) => return Some(self.proof(&seed, &atoms)),
                    Err(set) => failed.push(set),
                }
                break;
            }
        }
        // Each failed candidate's region is excluded from the next seed, which then lies elsewhere
        // (say, at an odd value where the last one was even).
        for _ in 0..limits::MAX_SEEDS {
            let Some(seed) = self.stem_seed(&failed, None) else {
                break;
            };
            match self.weaken(&seed) {
                Ok(atoms) => return Some(self.proof(&seed, &atoms)),
                Err(set) => failed.push(set),
            }
        }
        // A loop that never ends at a type's limit only (`i <= n` with `n` the largest int).
        for pin in self.extremes() {
            let Some(seed) = self.stem_seed(&[], Some(&pin)) else {
                continue;
            };
            if let Ok(atoms) = self.weaken(&seed) {
                return Some(self.proof(&seed, &atoms));
            }
        }
        // A lasso: the variables the exits depend on cycle after some iterations (a counter
        // doubled until it wraps to 0 and stays there).
        let relevant = self.relevant();
        for &prefix in limits::LASSO_PREFIXES {
            for period in 1..=2 {
                if let Some((seed, states)) = self.cycle(prefix, period, &relevant) {
                    if let Some(proof) = self.cycle_proof(&seed, &states, &relevant) {
                        return Some(proof);
                    }
                }
            }
        }
        None
    }

    /// The proof by a cycle of states, when the set of its states is closed.
    fn cycle_proof(&self, seed: &Seed, states: &[Vec<BV>], watched: &[usize]) -> Option<Proof> {
        let (set, text) = self.cycle_set(seed, states, watched);
        self.closed(&set).then(|| self.witnessed(seed, &set, text))
    }

    /// Each integer variable of the state at its type's largest and smallest value.
    fn extremes(&self) -> Vec<Bool> {
        self.observables
            .iter()
            .filter(|o| self.state.contains(&o.term))
            .take(limits::MAX_EXTREMES)
            .flat_map(|o| {
                let w = o.term.get_size();
                let largest = BV::from_i64(i64::MAX >> (64 - w), w);
                let smallest = BV::from_i64(i64::MIN >> (64 - w), w);
                [o.term.eq(&largest), o.term.eq(&smallest)]
            })
            .collect()
    }

    fn check(&self, formulas: &[&Bool]) -> Answer {
        if self.budget.spent() {
            return Answer::Unknown;
        }
        self.budget.queries.set(self.budget.queries.get() + 1);
        self.solver.reset();
        for f in formulas {
            self.solver.assert(*f);
        }
        match self.solver.check() {
            SatResult::Sat => self.solver.get_model().map_or(Answer::Unknown, Answer::Sat),
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => Answer::Unknown,
        }
    }

    /// `formula` with the head's state replaced by `to`.
    fn at(&self, formula: &Bool, to: &[BV]) -> Bool {
        let pairs: Vec<(&BV, &BV)> = self.state.iter().zip(to).collect();
        formula.substitute(&pairs)
    }

    fn term_at(&self, term: &BV, to: &[BV]) -> BV {
        let pairs: Vec<(&BV, &BV)> = self.state.iter().zip(to).collect();
        term.substitute(&pairs)
    }

    /// Some stem reaches the head in state `to`.
    fn reached(&self, to: &[BV]) -> Bool {
        let stems: Vec<Bool> = self
            .stems
            .iter()
            .map(|(cond, args)| {
                let same: Vec<Bool> = args.iter().zip(to).map(|(a, s)| a.eq(s)).collect();
                Bool::and(&[cond.clone(), Bool::and(&same)])
            })
            .collect();
        Bool::and(&[self.domain.clone(), Bool::or(&stems)])
    }

    /// One iteration from `from` to `to` (the havoc of an iteration shared between copies).
    fn iteration(&self, from: &[BV], to: &[BV]) -> Bool {
        let steps: Vec<Bool> = self
            .back
            .iter()
            .map(|(cond, args)| {
                let same: Vec<Bool> = args.iter().zip(to).map(|(a, s)| self.term_at(a, from).eq(s)).collect();
                Bool::and(&[self.at(cond, from), Bool::and(&same)])
            })
            .collect();
        Bool::and(&[self.at(&self.exits, from).not(), Bool::or(&steps)])
    }

    /// A reachable state whose integers come back after `period` iterations (after `prefix`
    /// iterations from the loop's entry): the observables in `watched` are compared.
    fn cycle(&self, prefix: usize, period: usize, watched: &[usize]) -> Option<(Seed, Vec<Vec<BV>>)> {
        let states: Vec<Vec<BV>> = (0..=prefix + period)
            .map(|i| {
                self.state
                    .iter()
                    .enumerate()
                    .map(|(k, s)| BV::new_const(format!("cycle{prefix}+{period} {i} {k} {s}"), s.get_size()))
                    .collect()
            })
            .collect();
        let mut formulas = vec![self.reached(&states[0])];
        for i in 0..prefix + period {
            formulas.push(self.iteration(&states[i], &states[i + 1]));
        }
        for &k in watched {
            let term = &self.observables[k].term;
            formulas.push(
                self.term_at(term, &states[prefix + period])
                    .eq(self.term_at(term, &states[prefix])),
            );
        }
        let refs: Vec<&Bool> = formulas.iter().collect();
        match self.check(&refs) {
            Answer::Sat(model) => {
                let seed = Seed {
                    model,
                    state: states[prefix].clone(),
                };
                Some((seed, states[prefix..prefix + period].to_vec()))
            }
            _ => None,
        }
    }

    /// The observables the loop's exits depend on, directly or through the updates of the
    /// variables they depend on (a counter nothing tests is not among them).
    fn relevant(&self) -> Vec<usize> {
        let mut names: HashSet<String> = HashSet::new();
        let conditions = self.back.iter().map(|(c, _)| c).chain(std::iter::once(&self.exits));
        for cond in conditions {
            terms::constants(&Dynamic::from_ast(cond), &mut names);
        }
        loop {
            let before = names.len();
            for (_, args) in &self.back {
                for (s, arg) in self.state.iter().zip(args) {
                    if names.contains(&s.decl().name()) {
                        terms::constants(&Dynamic::from_ast(arg), &mut names);
                    }
                }
            }
            if names.len() == before {
                break;
            }
        }
        (0..self.observables.len())
            .filter(|&k| {
                let mut of = HashSet::new();
                terms::constants(&Dynamic::from_ast(&self.observables[k].term), &mut of);
                of.iter().any(|n| names.contains(n))
            })
            .collect()
    }

    /// The states of a cycle as a set (each state's `watched` observables), with null-ness at
    /// its first.
    fn cycle_set(&self, seed: &Seed, states: &[Vec<BV>], watched: &[usize]) -> (Bool, String) {
        let mut members = Vec::new();
        let mut texts = Vec::new();
        for state in states {
            let mut equal = Vec::new();
            let mut text = Vec::new();
            for o in watched.iter().map(|&k| &self.observables[k]) {
                let value = evaluate(&seed.model, &self.term_at(&o.term, state)).unwrap_or(0);
                equal.push(o.term.eq(BV::from_i64(value, o.term.get_size())));
                text.push(format!("{} = {value}", o.name));
            }
            members.push(Bool::and(&equal));
            texts.push(format!("({})", text.join(", ")));
        }
        let nullness: Vec<Atom> = self.null_atoms(seed);
        let mut conj: Vec<Bool> = nullness.iter().map(|a| a.formula.clone()).collect();
        conj.push(Bool::or(&members));
        let text = if self.observables.is_empty() {
            "the loop changes no integer it could stop on".to_owned()
        } else if states.len() == 1 {
            format!("the state {} repeats", texts[0])
        } else {
            format!("the states {} repeat in turn", texts.join(" → "))
        };
        (Bool::and(&conj), text)
    }

    /// Whether no way out of the loop starts in `set` and every iteration from it stays in it.
    fn closed(&self, set: &Bool) -> bool {
        self.back.iter().all(|(cond, args)| {
            let next = self.at(set, args);
            matches!(self.check(&[set, cond, &next.not()]), Answer::Unsat)
        }) && matches!(self.check(&[set, &self.exits]), Answer::Unsat)
    }

    /// A reachable state from which at least one iteration runs, outside the `failed` sets (and
    /// where `pin` holds).
    fn stem_seed(&self, failed: &[Bool], pin: Option<&Bool>) -> Option<Seed> {
        let steps: Vec<Bool> = self.back.iter().map(|(c, _)| c.clone()).collect();
        let mut formulas = vec![self.reached(&self.state), self.exits.not(), Bool::or(&steps)];
        formulas.extend(failed.iter().map(Bool::not));
        formulas.extend(pin.cloned());
        let refs: Vec<&Bool> = formulas.iter().collect();
        match self.check(&refs) {
            Answer::Sat(model) => Some(Seed {
                model,
                state: self.state.clone(),
            }),
            _ => None,
        }
    }

    /// Houdini: the facts true at the seed, weakened until every iteration keeps them; `Err`
    /// with what is left when it lets the loop end (or the budget ran out).
    fn weaken(&self, seed: &Seed) -> Result<Vec<Atom>, Bool> {
        let mut atoms = self.atoms(seed);
        // A failed candidate is remembered by its shape: the next seed must differ in a sign, a
        // parity or a relation, not merely in a value.
        let conjunction = |atoms: &[Atom]| {
            let shape: Vec<Bool> = atoms
                .iter()
                .filter(|a| !a.specific)
                .map(|a| a.formula.clone())
                .collect();
            Bool::and(&shape)
        };
        for _ in 0..limits::MAX_ROUNDS {
            let set = Bool::and(&atoms.iter().map(|a| a.formula.clone()).collect::<Vec<_>>());
            let mut broken = None;
            for (cond, args) in &self.back {
                let next = self.at(&set, args);
                match self.check(&[&set, cond, &next.not()]) {
                    Answer::Unsat => {}
                    Answer::Sat(model) => {
                        broken = Some((model, args));
                        break;
                    }
                    Answer::Unknown => return Err(conjunction(&atoms)),
                }
            }
            let Some((model, args)) = broken else {
                return match self.check(&[&set, &self.exits]) {
                    Answer::Unsat => Ok(atoms),
                    _ => Err(conjunction(&atoms)),
                };
            };
            let before = atoms.len();
            atoms.retain(|a| model.eval(&self.at(&a.formula, args), true).and_then(|b| b.as_bool()) == Some(true));
            if atoms.len() == before {
                return Err(conjunction(&atoms));
            }
        }
        Err(conjunction(&atoms))
    }

    /// Null-ness of the state's references at the seed.
    fn null_atoms(&self, seed: &Seed) -> Vec<Atom> {
        self.refs
            .iter()
            .filter_map(|(term, name)| {
                let value = evaluate(&seed.model, &self.term_at(term, &seed.state))?;
                let is_null = term.eq(BV::from_i64(0, 64));
                Some(if value == 0 {
                    Atom {
                        formula: is_null,
                        text: format!("{name} = null"),
                        specific: false,
                    }
                } else {
                    Atom {
                        formula: is_null.not(),
                        text: format!("{name} != null"),
                        specific: false,
                    }
                })
            })
            .collect()
    }

    /// Simple facts true at the seed: values, bounds, signs, parity, the loop's own comparisons,
    /// and relations between pairs.
    fn atoms(&self, seed: &Seed) -> Vec<Atom> {
        let values: Vec<Option<i64>> = self
            .observables
            .iter()
            .map(|o| evaluate(&seed.model, &self.term_at(&o.term, &seed.state)))
            .collect();
        let mut atoms = self.null_atoms(seed);
        let mut add = |formula: Bool, text: String, specific: bool| {
            atoms.push(Atom {
                formula,
                text,
                specific,
            })
        };
        for (o, value) in self.observables.iter().zip(&values) {
            let Some(c) = *value else { continue };
            let (x, w, name) = (&o.term, o.term.get_size(), &o.name);
            let k = |v: i64| BV::from_i64(v, w);
            add(x.eq(k(c)), format!("{name} = {c}"), true);
            add(x.bvsge(k(c)), format!("{name} >= {c}"), true);
            add(x.bvsle(k(c)), format!("{name} <= {c}"), true);
            for (holds, formula, text) in [
                (c > 0, x.bvsgt(k(0)), format!("{name} > 0")),
                (c >= 0, x.bvsge(k(0)), format!("{name} >= 0")),
                (c < 0, x.bvslt(k(0)), format!("{name} < 0")),
                (c <= 0, x.bvsle(k(0)), format!("{name} <= 0")),
                (c != 0, x.eq(k(0)).not(), format!("{name} != 0")),
            ] {
                if holds {
                    add(formula, text, false);
                }
            }
            let parity = if c & 1 == 0 { "even" } else { "odd" };
            add(x.bvand(k(1)).eq(k(c & 1)), format!("{name} {parity}"), false);
        }
        for guard in &self.guards {
            let at_seed = seed
                .model
                .eval(&self.at(guard, &seed.state), true)
                .and_then(|b| b.as_bool());
            let text = terms::text(&Dynamic::from_ast(guard), &self.display);
            match at_seed {
                Some(true) => add(guard.clone(), text, false),
                Some(false) => add(guard.not(), format!("!({text})"), false),
                None => {}
            }
        }
        for i in 0..self.observables.len() {
            for j in i + 1..self.observables.len() {
                let (a, b) = (&self.observables[i], &self.observables[j]);
                let (Some(ca), Some(cb)) = (values[i], values[j]) else {
                    continue;
                };
                if a.term.get_size() != b.term.get_size() {
                    continue;
                }
                let (x, y, w) = (&a.term, &b.term, a.term.get_size());
                let (n, m) = (&a.name, &b.name);
                for (holds, formula, text) in [
                    (ca == cb, x.eq(y), format!("{n} = {m}")),
                    (ca != cb, x.eq(y).not(), format!("{n} != {m}")),
                    (ca < cb, x.bvslt(y), format!("{n} < {m}")),
                    (ca <= cb, x.bvsle(y), format!("{n} <= {m}")),
                    (ca > cb, x.bvsgt(y), format!("{n} > {m}")),
                    (ca >= cb, x.bvsge(y), format!("{n} >= {m}")),
                ] {
                    if holds {
                        add(formula, text, false);
                    }
                }
                let difference = wrap(ca.wrapping_sub(cb), w);
                let sum = wrap(ca.wrapping_add(cb), w);
                let one = BV::from_i64(1, w);
                add(
                    x.bvsub(y).eq(BV::from_i64(difference, w)),
                    format!("{n} - {m} = {difference}"),
                    true,
                );
                add(x.bvadd(y).eq(BV::from_i64(sum, w)), format!("{n} + {m} = {sum}"), true);
                let parity = if difference & 1 == 0 { "even" } else { "odd" };
                add(
                    x.bvsub(y).bvand(&one).eq(BV::from_i64(difference & 1, w)),
                    format!("{n} - {m} {parity}"),
                    false,
                );
            }
        }
        atoms
    }

    /// The atoms no other one implies, joined for the report (relations between pairs are
    /// dropped first, so the simplest facts remain).
    fn describe(&self, atoms: &[Atom]) -> String {
        let mut kept: Vec<Atom> = atoms.to_vec();
        for k in (0..kept.len()).rev() {
            let others: Vec<Bool> = kept
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != k)
                .map(|(_, a)| a.formula.clone())
                .collect();
            if matches!(
                self.check(&[&Bool::and(&others), &kept[k].formula.not()]),
                Answer::Unsat
            ) {
                kept.remove(k);
            }
        }
        let texts: Vec<String> = kept.into_iter().map(|a| a.text).collect();
        if texts.is_empty() {
            "every state".to_owned()
        } else {
            texts.join(", ")
        }
    }

    /// The proof by a set of atoms that every iteration keeps.
    fn proof(&self, seed: &Seed, atoms: &[Atom]) -> Proof {
        let set = Bool::and(&atoms.iter().map(|a| a.formula.clone()).collect::<Vec<_>>());
        self.witnessed(seed, &set, self.describe(atoms))
    }

    /// The proof that `set` (described by `text`) is a closed recurrent set, with a witness
    /// input that reaches it: one with short arrays and strings where there is one, else the
    /// seed's.
    fn witnessed(&self, seed: &Seed, set: &Bool, text: String) -> Proof {
        let reached = self.reached(&self.state);
        let smaller = limits::WITNESS_LENGTHS.iter().find_map(|&most| {
            let short = self.short_inputs(most)?;
            match self.check(&[&reached, set, &short]) {
                Answer::Sat(model) => Some(model),
                _ => None,
            }
        });
        Proof {
            offset: if self.recursion { 0 } else { self.ir.proc(self.head).pc },
            recursion: self.recursion,
            inputs: self.witness(smaller.as_ref().unwrap_or(&seed.model)),
            set: text,
        }
    }

    /// The arrays and strings of the inputs are at most `length` long (the first `length`
    /// strings of an array of strings too); `None` when there are none.
    fn short_inputs(&self, length: i64) -> Option<Bool> {
        let most = BV::from_i64(length, 32);
        let mut facts = Vec::new();
        for (descriptor, term) in self.parameter_types().iter().zip(&self.inputs) {
            if descriptor.starts_with('[') {
                facts.push(length_of(term).bvsle(&most));
            }
            if descriptor == "Ljava/lang/String;" {
                facts.push(strlen(term).bvsle(&most));
            }
            if descriptor == "[Ljava/lang/String;" {
                for j in 0..length {
                    let element = element_of(term, &BV::from_i64(j, 32), ElemTy::Ref);
                    facts.push(strlen(&element).bvsle(&most));
                }
            }
        }
        (!facts.is_empty()).then(|| Bool::and(&facts))
    }

    /// The method's arguments in the model, by parameter type.
    fn witness(&self, model: &Model) -> Vec<Input> {
        self.parameter_types()
            .iter()
            .zip(&self.inputs)
            .map(|(descriptor, term)| self.input(model, descriptor, term))
            .collect()
    }

    /// The descriptors of the method's parameters, `this` first for an instance method.
    fn parameter_types(&self) -> Vec<String> {
        let mut types: Vec<String> = Vec::new();
        if !self.ir.is_static {
            types.push(format!("L{};", self.ir.class));
        }
        if let Some((params, _)) = split_method_descriptor(&self.ir.descriptor) {
            types.extend(params.iter().map(|p| (*p).to_owned()));
        }
        types
    }

    fn input(&self, model: &Model, descriptor: &str, term: &BV) -> Input {
        let value = evaluate(model, term).unwrap_or(0);
        match descriptor.as_bytes().first() {
            Some(b'J') => Input::Long { value },
            Some(b'F') => Input::Float { bits: value as u32 },
            Some(b'D') => Input::Double { bits: value as u64 },
            Some(b'L' | b'[') if value == 0 => Input::Null,
            Some(b'L') if descriptor == "Ljava/lang/String;" => self.string(model, term),
            Some(b'L') => {
                let class = descriptor[1..descriptor.len() - 1].to_owned();
                let fields = self
                    .heap
                    .read_fields
                    .borrow()
                    .iter()
                    .filter(|f| f.class == class && matches!(f.descriptor.as_str(), "I" | "J" | "Z" | "B" | "C" | "S"))
                    .filter_map(|f| {
                        let value = evaluate(model, &field_of(term, f))?;
                        let input = if f.descriptor == "J" {
                            Input::Long { value }
                        } else {
                            Input::Int { value: value as i32 }
                        };
                        Some((f.name.clone(), input))
                    })
                    .collect();
                Input::Object { class, fields }
            }
            Some(b'[') if descriptor == "[Ljava/lang/String;" => {
                let length = evaluate(model, &length_of(term)).unwrap_or(0).clamp(0, 1 << 16) as i32;
                let read = self.heap.read_elements.borrow().contains(&ElemTy::Ref);
                let known = if read {
                    i64::from(length).min(limits::MAX_WITNESS_ELEMENTS)
                } else {
                    0
                };
                let mut elements: Vec<Input> = (0..known)
                    .map(|j| self.string(model, &element_of(term, &BV::from_i64(j, 32), ElemTy::Ref)))
                    .collect();
                // Nulls past the strings given, as Java allocates them.
                let given = elements.iter().rposition(|e| *e != Input::Null).map_or(0, |k| k + 1);
                if given < elements.len() {
                    elements.truncate(given);
                }
                Input::References {
                    descriptor: descriptor.to_owned(),
                    length,
                    elements,
                }
            }
            Some(b'[') => {
                let length = evaluate(model, &length_of(term)).unwrap_or(0).clamp(0, 1 << 16) as i32;
                let elements = element_kind(descriptor)
                    .filter(|e| self.heap.read_elements.borrow().contains(e))
                    .map(|elem| {
                        (0..i64::from(length).min(limits::MAX_WITNESS_ELEMENTS))
                            .map(|j| {
                                let cell = narrow(element_of(term, &BV::from_i64(j, 32), elem), elem);
                                evaluate(model, &cell).unwrap_or(0)
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                Input::Array {
                    descriptor: descriptor.to_owned(),
                    length,
                    elements,
                }
            }
            _ => Input::Int { value: value as i32 },
        }
    }
}

impl Head<'_> {
    /// The string at an address in the model: null, or a string of the length the model gives.
    fn string(&self, model: &Model, term: &BV) -> Input {
        if evaluate(model, term).unwrap_or(0) == 0 {
            return Input::Null;
        }
        let length = evaluate(model, &strlen(term)).unwrap_or(0).clamp(0, 1 << 16) as i32;
        Input::String { length }
    }
}

/// The range of each input's JVM type (booleans 0 or 1, bytes, chars, shorts).
fn input_domain(ir: &MethodIr, inputs: &[BV]) -> Bool {
    let mut types: Vec<&str> = Vec::new();
    if !ir.is_static {
        types.push("L");
    }
    if let Some((params, _)) = split_method_descriptor(&ir.descriptor) {
        types.extend(params);
    }
    let within =
        |x: &BV, low: i64, high: i64| Bool::and(&[x.bvsge(BV::from_i64(low, 32)), x.bvsle(BV::from_i64(high, 32))]);
    let facts: Vec<Bool> = types
        .iter()
        .zip(inputs)
        .enumerate()
        .filter_map(|(k, (t, x))| match *t {
            "Z" => Some(within(x, 0, 1)),
            "B" => Some(within(x, -128, 127)),
            "C" => Some(within(x, 0, 65535)),
            "S" => Some(within(x, -32768, 32767)),
            _ if k == 0 && !ir.is_static => Some(x.eq(BV::from_i64(0, 64)).not()),
            _ => None,
        })
        .collect();
    Bool::and(&facts)
}

fn element_kind(descriptor: &str) -> Option<ElemTy> {
    Some(match descriptor {
        "[I" => ElemTy::Int,
        "[J" => ElemTy::Long,
        "[B" | "[Z" => ElemTy::Byte,
        "[C" => ElemTy::Char,
        "[S" => ElemTy::Short,
        _ => return None,
    })
}

/// The signed value of a bit-vector term in a model.
fn evaluate(model: &Model, term: &BV) -> Option<i64> {
    let bits = model.eval(term, true)?.as_u64()?;
    Some(wrap(bits as i64, term.get_size()))
}

/// `value` as a signed number of `width` bits.
fn wrap(value: i64, width: u32) -> i64 {
    if width >= 64 {
        value
    } else {
        let shift = 64 - width;
        (value << shift) >> shift
    }
}
