//! Entailment between a symbolic state and a resolved assertion, with frame inference
//! (`state ⊢ assertion * frame`), and assumption of an assertion into a state.
//!
//! Proving matches the assertion's heap items against the state's atoms one at a time: a field
//! points-to against a points-to (unfolding a non-empty segment or a non-null tree to expose
//! it), a list segment against a chain of segments and complete cells ending at its end (folding
//! the cells, each paid for from the constant potential), a tree against a tree or a complete
//! node whose subtrees are trees again. Existential variables are bound as matching finds their
//! values. The leftover atoms and potential are the frame.
//!
//! **Soundness of folding:** a chain of two or more pieces proves `lseg(a, b)` only when `b` is
//! `null` or an object owned elsewhere in the state, so that `b` cannot be a cell of the chain
//! (the side condition of segment composition in separation logic). Cells and segments are
//! removed from the state as they are used, so no cell is counted twice and no cycle is folded.
//! **Resources:** every segment piece must carry at least the per-cell potential asked for (an
//! obligation `piece − asked ≥ 0`); every folded cell takes the per-cell potential from the
//! constant potential; the frame's constant potential (what remains) must not be negative.

use super::limits::{MAX_ACCESS_CASES, MAX_CHAIN};
use super::program::{FieldKey, ListLink, TreeLink};
use super::resolve::{RAssertions, RConj, RFact, RHeap, RTerm};
use super::resource::ResExpr;
use super::symbolic::{Atom, Fresh, State, Value};
use std::sync::Arc;

/// What the terms of an assertion denote at the point where it is used.
#[derive(Clone, Debug, Default)]
pub struct Binding {
    /// The entry value of each parameter.
    pub args: Vec<Value>,
    /// The value of each input of the loop procedure (invariants only).
    pub vars: Vec<Value>,
    /// The returned value (postconditions only).
    pub ret: Option<Value>,
}

/// A successful entailment: the frame (what the assertion did not use) and the resource
/// obligations (each `expression >= 0`, with what it is about).
#[derive(Clone, Debug)]
pub struct Proof {
    pub frame: State,
    pub obligations: Vec<(ResExpr, String)>,
    /// Which disjunct of the assertion was proven.
    pub disjunct: usize,
}

/// Proves `state ⊢ assertions * frame`, trying the disjuncts in order; the first whose heap and
/// facts can be matched is used (its resource obligations are returned, not decided here).
pub fn prove(
    state: &State,
    assertions: &RAssertions,
    binding: &Binding,
    fresh: &mut Fresh,
    names: &dyn Fn(Value) -> String,
) -> Result<Proof, String> {
    let mut reasons = Vec::new();
    for (k, conj) in assertions.disjuncts.iter().enumerate() {
        match prove_conj(state, conj, assertions.exists.len(), binding, fresh, names) {
            Ok(mut proof) => {
                proof.disjunct = k;
                return Ok(proof);
            }
            Err(reason) => reasons.push(reason),
        }
    }
    Err(match reasons.len() {
        0 => "the assertion has no disjunct".to_owned(),
        1 => reasons.remove(0),
        _ => reasons
            .iter()
            .enumerate()
            .map(|(k, r)| format!("disjunct {}: {r}", k + 1))
            .collect::<Vec<_>>()
            .join("; "),
    })
}

/// The states satisfying `state * assertions`, one per disjunct that is not contradictory.
pub fn assume(state: &State, assertions: &RAssertions, binding: &Binding, fresh: &mut Fresh) -> Vec<State> {
    assertions
        .disjuncts
        .iter()
        .filter_map(|conj| assume_conj(state, conj, assertions.exists.len(), binding, fresh))
        .collect()
}

fn bound(term: RTerm, existentials: &[Option<Value>], binding: &Binding) -> Option<Value> {
    match term {
        RTerm::Arg(k) => binding.args.get(k).copied(),
        RTerm::Var(k) => binding.vars.get(k).copied(),
        RTerm::Ret => binding.ret,
        RTerm::Null => Some(Value::Null),
        RTerm::Exists(k) => existentials.get(k).copied().flatten(),
    }
}

fn assume_conj(state: &State, conj: &RConj, exists: usize, binding: &Binding, fresh: &mut Fresh) -> Option<State> {
    let mut st = state.clone();
    let existentials: Vec<Option<Value>> = (0..exists).map(|_| Some(fresh.value())).collect();
    let value = |term: RTerm, fresh: &mut Fresh| bound(term, &existentials, binding).unwrap_or_else(|| fresh.value());
    for RFact { lhs, equal, rhs, .. } in &conj.facts {
        let (a, b) = (value(*lhs, fresh), value(*rhs, fresh));
        if *equal {
            st.pure.union(a, b);
        } else {
            st.pure.add_disequality(a, b);
        }
    }
    for item in &conj.heap {
        match item {
            RHeap::Field {
                object,
                field,
                value: v,
                ..
            } => {
                let addr = value(*object, fresh);
                let content = match v {
                    Some(t) => value(*t, fresh),
                    None => fresh.value(),
                };
                st.classes.entry(addr).or_insert_with(|| (field.class.clone(), false));
                st.atoms.push(Atom::PointsTo {
                    addr,
                    field: field.clone(),
                    value: content,
                });
            }
            RHeap::Lseg {
                potential,
                from,
                to,
                link,
                ..
            } => {
                let (from, to) = (value(*from, fresh), value(*to, fresh));
                st.atoms.push(Atom::Lseg {
                    potential: potential.clone(),
                    from,
                    to,
                    link: link.clone(),
                });
            }
            RHeap::Tree {
                potential, root, link, ..
            } => {
                let root = value(*root, fresh);
                st.atoms.push(Atom::Tree {
                    potential: potential.clone(),
                    root,
                    link: link.clone(),
                });
            }
        }
    }
    st.pool = st.pool.plus(&conj.pool);
    st.normalize().then_some(st)
}

/// Matching state for one disjunct.
struct Matcher<'a> {
    names: &'a dyn Fn(Value) -> String,
    st: State,
    existentials: Vec<Option<Value>>,
    binding: &'a Binding,
    consumed: Vec<Atom>,
    /// Per-cell potential handed to folded cells, taken from the constant potential.
    spent: ResExpr,
    /// The assertions cells or nodes were folded into, with what they hold (`cell` or `node`)
    /// and how many each.
    folded: Vec<(String, &'static str, usize)>,
    obligations: Vec<(ResExpr, String)>,
}

fn prove_conj(
    state: &State,
    conj: &RConj,
    exists: usize,
    binding: &Binding,
    fresh: &mut Fresh,
    names: &dyn Fn(Value) -> String,
) -> Result<Proof, String> {
    let mut m = Matcher {
        names,
        st: state.clone(),
        existentials: vec![None; exists],
        binding,
        consumed: Vec::new(),
        spent: ResExpr::zero(),
        folded: Vec::new(),
        obligations: Vec::new(),
    };
    let mut pending: Vec<&RHeap> = conj.heap.iter().collect();
    loop {
        let mut progress = false;
        for fact in conj.facts.iter().filter(|f| f.equal) {
            let lhs = m.value(fact.lhs);
            let rhs = m.value(fact.rhs);
            match (lhs, rhs, fact.lhs, fact.rhs) {
                (Some(v), None, _, RTerm::Exists(k)) | (None, Some(v), RTerm::Exists(k), _) => {
                    m.existentials[k] = Some(v);
                    progress = true;
                }
                _ => {}
            }
        }
        let mut k = 0;
        while k < pending.len() {
            if m.ready(pending[k]) {
                let item = pending.remove(k);
                m.match_item(item, fresh)?;
                progress = true;
            } else {
                k += 1;
            }
        }
        if !progress {
            break;
        }
    }
    if let Some(item) = pending.first() {
        return Err(format!(
            "cannot tell where `{}` is: its existential variables are not determined by the rest of the assertion",
            item.text()
        ));
    }
    let mut everything = m.st.clone();
    everything.atoms.extend(m.consumed.iter().cloned());
    for fact in &conj.facts {
        let (Some(a), Some(b)) = (m.value(fact.lhs), m.value(fact.rhs)) else {
            return Err(format!(
                "cannot check `{}`: an existential variable in it is not determined",
                fact.text
            ));
        };
        let holds = if fact.equal {
            state.equal(a, b)
        } else {
            state.distinct(a, b) || everything.distinct(a, b)
        };
        if !holds {
            return Err(format!("`{}` does not follow", fact.text));
        }
    }
    let remaining = m.st.pool.minus(&m.spent).minus(&conj.pool);
    let what = if m.folded.is_empty() {
        "the constant potential".to_owned()
    } else {
        let folds: Vec<String> = m
            .folded
            .iter()
            .map(|(text, noun, count)| {
                let plural = if *count == 1 { "" } else { "s" };
                format!("of the {count} {noun}{plural} folded into `{text}`")
            })
            .collect();
        format!("the constant potential and the potential {}", folds.join(" and "))
    };
    m.obligations.push((remaining.clone(), what));
    m.st.pool = remaining;
    Ok(Proof {
        frame: m.st,
        obligations: m.obligations,
        disjunct: 0,
    })
}

impl Matcher<'_> {
    fn value(&self, term: RTerm) -> Option<Value> {
        bound(term, &self.existentials, self.binding).map(|v| self.st.find(v))
    }

    fn ready(&self, item: &RHeap) -> bool {
        match item {
            RHeap::Field { object, .. } => self.value(*object).is_some(),
            RHeap::Lseg { from, .. } => self.value(*from).is_some(),
            RHeap::Tree { root, .. } => self.value(*root).is_some(),
        }
    }

    /// Makes `term` denote `value`: binds an unbound existential, or checks equality.
    fn unify(&mut self, term: RTerm, value: Value, text: &str) -> Result<(), String> {
        match (self.value(term), term) {
            (None, RTerm::Exists(k)) => {
                self.existentials[k] = Some(value);
                Ok(())
            }
            (Some(v), _) if self.st.equal(v, value) => Ok(()),
            _ => Err(format!(
                "`{text}` does not follow: the heap links to a different object"
            )),
        }
    }

    fn name(&self, value: Value) -> String {
        (self.names)(self.st.find(value))
    }

    /// Counts one cell or node folded into the assertion `text` (when it asks for potential).
    fn fold(&mut self, potential: &ResExpr, text: &str, noun: &'static str) {
        if potential.is_constant() && num_traits::Zero::is_zero(potential.constant_term()) {
            return;
        }
        match self.folded.iter_mut().find(|(t, _, _)| t == text) {
            Some((_, _, count)) => *count += 1,
            None => self.folded.push((text.to_owned(), noun, 1)),
        }
    }

    fn match_item(&mut self, item: &RHeap, fresh: &mut Fresh) -> Result<(), String> {
        match item {
            RHeap::Field {
                object,
                field,
                value,
                text,
            } => self.match_field(*object, field, *value, text, fresh),
            RHeap::Lseg {
                potential,
                from,
                to,
                link,
                text,
            } => self.match_lseg(potential, *from, *to, link, text),
            RHeap::Tree {
                potential,
                root,
                link,
                text,
            } => self.match_tree(potential, *root, link, text),
        }
    }

    /// Matches `object.field -> value` against a points-to of the state, unfolding a segment or
    /// tree at `object` to expose it when there is none.
    fn match_field(
        &mut self,
        object: RTerm,
        field: &FieldKey,
        value: Option<RTerm>,
        text: &str,
        fresh: &mut Fresh,
    ) -> Result<(), String> {
        let addr = self.value(object).unwrap_or(Value::Null);
        let index = match self.st.points_to(addr, field) {
            Some(index) => index,
            None => {
                expose_certain(&mut self.st, addr, fresh);
                self.st.points_to(addr, field).ok_or_else(|| {
                    format!(
                        "cannot show `{text}`: no field {} of {} is held here (the heap holds {})",
                        field.name,
                        self.name(addr),
                        self.st.describe_heap(&|v| self.name(v))
                    )
                })?
            }
        };
        let atom = self.st.atoms.remove(index);
        if let (Atom::PointsTo { value: content, .. }, Some(term)) = (&atom, value) {
            self.unify(term, *content, text)?;
        }
        self.consumed.push(atom);
        Ok(())
    }

    /// Matches `lseg(from, to)`: against the one segment that starts at `from` when `to` is not
    /// determined yet, otherwise against the chain of segments and cells from `from` to `to`.
    fn match_lseg(
        &mut self,
        potential: &ResExpr,
        from: RTerm,
        to: RTerm,
        link: &Arc<ListLink>,
        text: &str,
    ) -> Result<(), String> {
        let start = self.value(from).unwrap_or(Value::Null);
        let Some(end) = self.value(to) else {
            return self.match_lseg_open_end(potential, start, to, link, text);
        };
        let pieces = self.take_chain(potential, start, end, link, text)?;
        if pieces.len() >= 2 && !self.st.equal(end, Value::Null) {
            let mut elsewhere = self.st.clone();
            elsewhere.atoms.extend(self.consumed.iter().cloned());
            if !elsewhere.null_or_allocated(end) {
                return Err(format!(
                    "cannot show `{text}`: {} is not known to be null or an object held elsewhere, so the list might run through it",
                    self.name(end)
                ));
            }
        }
        self.consumed.extend(pieces);
        Ok(())
    }

    /// Matches a list segment from `start` whose end `to` is undetermined: one segment from
    /// `start` decides it.
    fn match_lseg_open_end(
        &mut self,
        potential: &ResExpr,
        start: Value,
        to: RTerm,
        link: &Arc<ListLink>,
        text: &str,
    ) -> Result<(), String> {
        let index = self
            .st
            .atoms
            .iter()
            .position(|a| matches!(a, Atom::Lseg { from: f, link: l, .. } if self.st.equal(*f, start) && l == link))
            .ok_or_else(|| format!("cannot show `{text}`: no list segment starts at {}", self.name(start)))?;
        let atom = self.st.atoms.remove(index);
        if let Atom::Lseg {
            potential: held, to: t, ..
        } = &atom
        {
            self.unify(to, *t, text)?;
            self.obligations
                .push((held.minus(potential), format!("the per-cell potential of `{text}`")));
        }
        self.consumed.push(atom);
        Ok(())
    }

    /// Takes from the state the chain of segments and complete cells that leads from `start` to
    /// `end`: each segment owes `potential` per cell (an obligation), each cell takes it from the
    /// constant potential. Fails at a cycle, at null, where the heap holds neither, or when the
    /// chain is longer than the search follows.
    fn take_chain(
        &mut self,
        potential: &ResExpr,
        start: Value,
        end: Value,
        link: &Arc<ListLink>,
        text: &str,
    ) -> Result<Vec<Atom>, String> {
        let mut current = start;
        let mut pieces: Vec<Atom> = Vec::new();
        let mut visited: Vec<Value> = Vec::new();
        for _ in 0..MAX_CHAIN {
            if self.st.equal(current, end) {
                break;
            }
            if visited.contains(&self.st.find(current)) {
                return Err(format!(
                    "cannot show `{text}`: the list from {} runs into a cycle at {}",
                    self.name(start),
                    self.name(current)
                ));
            }
            visited.push(self.st.find(current));
            if self.st.equal(current, Value::Null) {
                return Err(format!(
                    "cannot show `{text}`: the list reaches null before {}",
                    self.name(end)
                ));
            }
            let segment = self.st.atoms.iter().position(
                |a| matches!(a, Atom::Lseg { from: f, link: l, .. } if self.st.equal(*f, current) && l == link),
            );
            if let Some(index) = segment {
                let atom = self.st.atoms.remove(index);
                if let Atom::Lseg {
                    potential: held, to: t, ..
                } = &atom
                {
                    self.obligations
                        .push((held.minus(potential), format!("the per-cell potential of `{text}`")));
                    current = self.st.find(*t);
                }
                pieces.push(atom);
            } else if self.st.has_cell(current, &link.fields) {
                let cell = current;
                let next = self.st.take_cell(cell, &link.fields, &link.next).unwrap_or(Value::Null);
                self.spent = self.spent.plus(potential);
                self.fold(potential, text, "cell");
                pieces.push(Atom::PointsTo {
                    addr: cell,
                    field: link.next.clone(),
                    value: next,
                });
                current = self.st.find(next);
            } else {
                return Err(format!(
                    "cannot show `{text}`: from {} the heap holds no list cell or segment (it holds {})",
                    self.name(current),
                    self.st.describe_heap(&|v| self.name(v))
                ));
            }
        }
        if !self.st.equal(current, end) {
            return Err(format!(
                "cannot show `{text}`: the list is longer than the proof search follows"
            ));
        }
        Ok(pieces)
    }

    /// Matches `tree(root)`: each node is a tree of the state (which owes `potential` per node,
    /// an obligation) or a complete node, folded (paid from the constant potential), whose
    /// children are matched in turn.
    fn match_tree(&mut self, potential: &ResExpr, root: RTerm, link: &Arc<TreeLink>, text: &str) -> Result<(), String> {
        let mut work = vec![self.value(root).unwrap_or(Value::Null)];
        let mut steps = 0;
        while let Some(node) = work.pop() {
            steps += 1;
            if steps > MAX_CHAIN {
                return Err(format!(
                    "cannot show `{text}`: the tree is larger than the proof search folds"
                ));
            }
            let node = self.st.find(node);
            if node == Value::Null {
                continue;
            }
            let tree =
                self.st.atoms.iter().position(
                    |a| matches!(a, Atom::Tree { root: r, link: l, .. } if self.st.equal(*r, node) && l == link),
                );
            if let Some(index) = tree {
                let atom = self.st.atoms.remove(index);
                if let Atom::Tree { potential: held, .. } = &atom {
                    self.obligations
                        .push((held.minus(potential), format!("the per-node potential of `{text}`")));
                }
                self.consumed.push(atom);
            } else if self.st.has_cell(node, &link.fields) {
                let left = self
                    .st
                    .points_to(node, &link.left)
                    .and_then(|i| match &self.st.atoms[i] {
                        Atom::PointsTo { value, .. } => Some(*value),
                        _ => None,
                    });
                let right = self.st.take_cell(node, &link.fields, &link.right);
                let (Some(left), Some(right)) = (left, right) else {
                    return Err(format!("cannot show `{text}`: a node lacks a child field"));
                };
                self.spent = self.spent.plus(potential);
                self.fold(potential, text, "node");
                self.consumed.push(Atom::PointsTo {
                    addr: node,
                    field: link.left.clone(),
                    value: left,
                });
                work.push(left);
                work.push(right);
            } else {
                return Err(format!(
                    "cannot show `{text}`: {} may be a node, but the heap holds no tree or node there (it holds {})",
                    self.name(node),
                    self.st.describe_heap(&|v| self.name(v))
                ));
            }
        }
        Ok(())
    }
}

/// Unfolds every segment certainly non-empty and every tree certainly not null, one cell each,
/// so that their potential is available from the moment the state knows they have a cell (a
/// guard `x != null` makes `lseg(x, null)` pay for the loop body before its fields are read).
pub fn unfold_certain(state: &mut State, fresh: &mut Fresh) {
    for _ in 0..MAX_CHAIN {
        let found = state.atoms.iter().position(|a| match a {
            Atom::Lseg { from, to, .. } => state.distinct(*from, *to),
            Atom::Tree { root, .. } => state.distinct(*root, Value::Null),
            Atom::PointsTo { .. } => false,
        });
        let Some(index) = found else { return };
        if matches!(state.atoms[index], Atom::Lseg { .. }) {
            state.unfold_lseg(index, fresh);
        } else {
            state.unfold_tree(index, fresh);
        }
        if !state.normalize() {
            return;
        }
    }
}

/// The cases of `state` in which every segment whose start is certainly an object (not `null`)
/// is known empty or unfolded: a segment `lseg(a, b)` with `a != null` but `a == b` possible is
/// empty (`a == b`) or starts with a cell, and in the second case it is unfolded (with
/// [`unfold_certain`]). So the potential of the cell a non-null cursor stands on is available from
/// the moment the cursor is known non-null, even when a segment before it may be empty (`x != null`
/// with `lseg(x, l) * lseg(l, null)`). Contradictory cases are dropped; past `MAX_ACCESS_CASES`
/// cases the remaining ones are kept unsplit (splitting is only a refinement).
pub fn split_certain_starts(state: State, fresh: &mut Fresh) -> Vec<State> {
    let mut done = Vec::new();
    let mut pending = vec![state];
    while let Some(mut st) = pending.pop() {
        if done.len() + pending.len() >= MAX_ACCESS_CASES {
            done.push(st);
            continue;
        }
        let found = st.atoms.iter().find_map(|a| match a {
            Atom::Lseg { from, to, .. }
                if st.distinct(*from, Value::Null) && !st.equal(*from, *to) && !st.distinct(*from, *to) =>
            {
                Some((*from, *to))
            }
            _ => None,
        });
        let Some((from, to)) = found else {
            done.push(st);
            continue;
        };
        let mut empty = st.clone();
        if empty.assume_equal(from, to) {
            unfold_certain(&mut empty, fresh);
            pending.push(empty);
        }
        if st.assume_distinct(from, to) {
            unfold_certain(&mut st, fresh);
            pending.push(st);
        }
    }
    done
}

/// Unfolds, without case splits, a segment that certainly starts with a cell at `addr` or a tree
/// certainly rooted at a node `addr`, so that its fields become points-to atoms.
pub fn expose_certain(state: &mut State, addr: Value, fresh: &mut Fresh) -> bool {
    let found = state.atoms.iter().position(|a| match a {
        Atom::Lseg { from, to, .. } => state.equal(*from, addr) && state.distinct(*from, *to),
        Atom::Tree { root, .. } => state.equal(*root, addr) && state.distinct(*root, Value::Null),
        Atom::PointsTo { .. } => false,
    });
    match found {
        Some(index) => {
            if matches!(state.atoms[index], Atom::Lseg { .. }) {
                state.unfold_lseg(index, fresh);
            } else {
                state.unfold_tree(index, fresh);
            }
            true
        }
        None => false,
    }
}
