//! The Infer phase's work at loop heads: the variables a loop never changes, Houdini data facts
//! for written invariants, shape invariants joined from canonical abstractions for the others,
//! and fixing the invariants (with fresh resource variables) for the Verify phase.

use super::*;

impl Engine<'_> {
    /// Infer phase: updates a loop's candidate facts and shape invariant with a state at its
    /// head (on entry or at a back edge), the loop's variables being `vars`.
    pub(super) fn observe(&mut self, index: usize, state: &State, ghosts: &[Value], vars: &[Value]) {
        let data = self.loops[index].clone();
        let ctx_index = data.method;
        let binding = Binding {
            args: ghosts.to_vec(),
            vars: vars.to_vec(),
            ret: None,
        };
        if data.user.is_some() {
            let holds = |fact: &RFact| resolved_fact_holds(state, fact, vars, ghosts);
            let candidates = match &data.facts {
                Some(facts) => facts.clone(),
                None => self.candidate_facts(ctx_index, &data),
            };
            let kept: Vec<RFact> = candidates.iter().filter(|f| holds(f)).cloned().collect();
            if data.facts.as_ref() != Some(&kept) {
                self.loops[index].facts = Some(kept);
                self.changed = true;
            }
            return;
        }
        // Shape invariant: the abstraction of this state, joined into the candidates.
        let roots = self.roots(ctx_index, &data, ghosts, vars);
        let mut next = data.next_existential;
        let abstracted = abstract_state(state, &roots, self.view, &mut next);
        self.loops[index].next_existential = next;
        let changed = self.join(index, state, &binding, abstracted);
        if changed {
            self.changed = true;
        }
    }

    /// The terms a loop's shape invariant is written with and their values: its reference
    /// variables (those whose names are unambiguous), then the method's reference parameters.
    pub(super) fn roots(
        &self,
        method: usize,
        data: &LoopData,
        ghosts: &[Value],
        vars: &[Value],
    ) -> Vec<(TermKind, Value)> {
        let mut roots = Vec::new();
        for (k, (name, ty)) in data.inputs.iter().enumerate() {
            let unique = data.inputs.iter().filter(|(n, _)| n == name).count() == 1;
            if *ty == Ty::Ref && unique {
                if let Some(value) = vars.get(k) {
                    roots.push((TermKind::Var(name.clone()), *value));
                }
            }
        }
        // A parameter's entry value names a place only where the postcondition needs it (the
        // cells before it would otherwise merge into one segment).
        for (k, (param, value)) in self.methods[method].params.iter().zip(ghosts).enumerate() {
            if param.ty == Ty::Ref && method == 0 && self.post_args.contains(&k) {
                roots.push((TermKind::Arg(param.name.clone()), *value));
            }
        }
        roots
    }

    /// Candidate data facts of a loop with a written invariant: every `==`/`!=` between a loop
    /// reference variable and another, a parameter, or `null`.
    pub(super) fn candidate_facts(&self, method: usize, data: &LoopData) -> Vec<RFact> {
        let mut terms: Vec<(RTerm, String)> = Vec::new();
        for (k, (name, ty)) in data.inputs.iter().enumerate() {
            let unique = data.inputs.iter().filter(|(n, _)| n == name).count() == 1;
            if *ty == Ty::Ref && unique {
                terms.push((RTerm::Var(k), format!("@var {name}")));
            }
        }
        let vars = terms.len();
        for (k, param) in self.methods[method].params.iter().enumerate() {
            if param.ty == Ty::Ref {
                terms.push((RTerm::Arg(k), format!("@arg {}", param.name)));
            }
        }
        terms.push((RTerm::Null, "null".to_owned()));
        let mut facts = Vec::new();
        for i in 0..vars {
            for j in i + 1..terms.len() {
                for equal in [true, false] {
                    let op = if equal { "==" } else { "!=" };
                    facts.push(RFact {
                        lhs: terms[i].0,
                        equal,
                        rhs: terms[j].0,
                        text: format!("{} {op} {}", terms[i].1, terms[j].1),
                    });
                }
            }
        }
        facts
    }

    /// Joins the abstraction of `state` into loop `index`'s shape candidates; returns whether
    /// they changed.
    pub(super) fn join(&mut self, index: usize, state: &State, binding: &Binding, abstracted: Assertions) -> bool {
        let data = self.loops[index].clone();
        let method = data.method;
        let names = |_: Value| String::new();
        let resolve_one = |engine: &mut Engine<'_>, template: &Assertions| -> Option<RAssertions> {
            let ctx = &engine.methods[method];
            resolve(
                template,
                &ctx.scope(Role::Invariant(0), Some(&data.inputs)),
                engine.view,
                engine.variables,
            )
            .ok()
            .map(|(r, _)| r)
        };
        // Already covered by a candidate?
        for template in &data.templates {
            if let Some(resolved) = resolve_one(self, template) {
                if prove(state, &resolved, binding, &mut self.fresh, &names).is_ok() {
                    return false;
                }
            }
        }
        // The new abstraction, weakened to the facts a candidate proves, generalises it.
        for (k, template) in data.templates.iter().enumerate() {
            let Some(resolved) = resolve_one(self, template) else {
                continue;
            };
            let sample_vars: Vec<Value> = data.inputs.iter().map(|_| self.fresh.value()).collect();
            let sample_binding = Binding {
                args: binding.args.clone(),
                vars: sample_vars,
                ret: None,
            };
            let samples = assume(&State::default(), &resolved, &sample_binding, &mut self.fresh);
            let Some(sample) = samples.first() else {
                continue;
            };
            let weakened = keep_facts(&abstracted, |fact| {
                self.fact_holds(sample, &sample_binding, fact, &data)
            });
            if let Some(general) = resolve_one(self, &weakened) {
                // The generalisation must describe the whole heap of the candidate: one that
                // leaves part of it out (a frame) would forget a structure the loop walks.
                let covers_old = prove(sample, &general, &sample_binding, &mut self.fresh, &names)
                    .is_ok_and(|proof| proof.frame.atoms.is_empty());
                let covers_new = prove(state, &general, binding, &mut self.fresh, &names).is_ok();
                if covers_old && covers_new {
                    self.loops[index].templates[k] = weakened;
                    return true;
                }
            }
        }
        if data.templates.len() >= MAX_INVARIANT_DISJUNCTS {
            let what = self.loop_line(index);
            self.fail(
                method,
                Some(data.pc),
                format!("no invariant could be inferred for {what} (its shapes do not settle); write an @Invariant"),
            );
            return false;
        }
        if resolve_one(self, &abstracted).is_none() {
            let what = self.loop_line(index);
            self.fail(
                method,
                Some(data.pc),
                format!("no invariant could be inferred for {what}: its heap cannot be described by lseg, tree and field assertions; write an @Invariant"),
            );
            return false;
        }
        self.loops[index].templates.push(abstracted);
        true
    }

    /// Whether a data assertion of a template holds in `state` under `binding`.
    pub(super) fn fact_holds(
        &self,
        state: &State,
        binding: &Binding,
        fact: &crate::amortised::assertion::DataAssertion,
        data: &LoopData,
    ) -> bool {
        let method = data.method;
        let value = |kind: &TermKind| -> Option<Value> {
            match kind {
                TermKind::Null => Some(Value::Null),
                TermKind::Var(name) => data
                    .inputs
                    .iter()
                    .position(|(n, _)| n == name)
                    .and_then(|k| binding.vars.get(k).copied()),
                TermKind::Arg(name) => self.methods[method]
                    .params
                    .iter()
                    .position(|p| p.name == *name)
                    .and_then(|k| binding.args.get(k).copied()),
                _ => None,
            }
        };
        match (value(&fact.lhs.kind), value(&fact.rhs.kind)) {
            (Some(a), Some(b)) => match fact.op {
                DataOp::Eq => state.equal(a, b),
                DataOp::Ne => state.distinct(a, b),
            },
            _ => false,
        }
    }

    /// After the Infer phase: fixes the invariant of every loop for the Verify phase (written
    /// invariants with the facts found; inferred ones with fresh resource variables).
    pub fn fix_invariants(&mut self) -> Result<(), Failure> {
        for index in 0..self.loops.len() {
            let data = self.loops[index].clone();
            if !data.reached {
                continue;
            }
            if let Some((_, user)) = &data.user {
                let mut invariant = user.clone();
                if let Some(facts) = &data.facts {
                    // Facts about variables the loop changes, less those the invariant and the
                    // other facts already imply (facts about unchanged variables stay true by
                    // themselves, from the loop's entry).
                    let changes = |f: &RFact| {
                        [f.lhs, f.rhs]
                            .iter()
                            .any(|t| matches!(t, RTerm::Var(k) if !data.unchanged.get(*k).copied().unwrap_or(false)))
                    };
                    let mut kept: Vec<RFact> = facts.clone();
                    for fact in facts.iter().filter(|f| changes(f)) {
                        let others: Vec<RFact> = kept.iter().filter(|f| *f != fact).cloned().collect();
                        if self.implied(index, user, &others, fact) {
                            kept = others;
                        }
                    }
                    let useful: Vec<RFact> = kept.into_iter().filter(|f| changes(f)).collect();
                    for conj in &mut invariant.disjuncts {
                        conj.facts.extend(useful.iter().cloned());
                    }
                    self.loops[index].facts = Some(useful);
                }
                self.loops[index].invariant = Some(invariant);
                continue;
            }
            let prefix = format!("L{}_", data.pc);
            let mut templates = Vec::new();
            let pruned: Vec<Assertions> = data.templates.iter().map(|t| self.prune_template(index, t)).collect();
            let ctx = &self.methods[data.method];
            let method_name = ctx.key.to_string();
            let mut counter = 0;
            let mut fresh_name = |variables: &ResourceVariables| loop {
                counter += 1;
                let name = format!("{prefix}{counter}");
                if !variables.contains(&method_name, &name) {
                    return name;
                }
            };
            for template in &pruned {
                let mut template = template.clone();
                for disjunct in &mut template.disjuncts {
                    for heap in &mut disjunct.heap {
                        if let HeapAssertion::Lseg { resource, .. } | HeapAssertion::Tree { resource, .. } = heap {
                            *resource = LinearExpr::variable(&fresh_name(self.variables));
                        }
                    }
                    disjunct.resource = LinearExpr::variable(&fresh_name(self.variables));
                }
                templates.push(template);
            }
            let combined = combine(&templates);
            let text = combined.to_string();
            let ctx = &self.methods[data.method];
            match resolve(
                &combined,
                &ctx.scope(Role::Invariant(0), Some(&data.inputs)),
                self.view,
                self.variables,
            ) {
                Ok((resolved, _)) => {
                    self.loops[index].invariant = Some(resolved);
                    self.loops[index].inferred_text = Some(text);
                }
                Err(errors) => {
                    return Err(Failure {
                        method: ctx.key.to_string(),
                        pc: Some(data.pc),
                        line: ctx.line_of(data.pc),
                        message: format!(
                            "the inferred invariant {text} cannot be used: {}",
                            errors.first().map_or("", |e| e.message.as_str())
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// Whether `fact` holds in every state satisfying `invariant` with `facts` (the loop's
    /// variables and the parameters taking arbitrary values).
    pub(super) fn implied(&mut self, index: usize, invariant: &RAssertions, facts: &[RFact], fact: &RFact) -> bool {
        let mut with_facts = invariant.clone();
        for conj in &mut with_facts.disjuncts {
            conj.facts.extend(facts.iter().cloned());
        }
        let binding = self.sample_binding(index);
        let samples = assume(&State::default(), &with_facts, &binding, &mut self.fresh);
        samples
            .iter()
            .all(|state| resolved_fact_holds(state, fact, &binding.vars, &binding.args))
    }

    /// Arbitrary values for the variables and parameters of loop `index`.
    pub(super) fn sample_binding(&mut self, index: usize) -> Binding {
        let data = &self.loops[index];
        let (vars, args) = (data.inputs.len(), self.methods[data.method].params.len());
        Binding {
            args: (0..args).map(|_| self.fresh.value()).collect(),
            vars: (0..vars).map(|_| self.fresh.value()).collect(),
            ret: None,
        }
    }

    /// The template with the data assertions its own heap and other facts imply removed.
    pub(super) fn prune_template(&mut self, index: usize, template: &Assertions) -> Assertions {
        let data = self.loops[index].clone();
        let mut pruned = template.clone();
        for d in 0..pruned.disjuncts.len() {
            let mut k = 0;
            while k < pruned.disjuncts[d].data.len() {
                let fact = pruned.disjuncts[d].data[k].clone();
                let mut without = pruned.clone();
                without.disjuncts = vec![pruned.disjuncts[d].clone()];
                without.disjuncts[0].data.remove(k);
                let ctx = &self.methods[data.method];
                let resolved = resolve(
                    &without,
                    &ctx.scope(Role::Invariant(0), Some(&data.inputs)),
                    self.view,
                    self.variables,
                );
                let implied = match resolved {
                    Ok((resolved, _)) => {
                        let binding = self.sample_binding(index);
                        let samples = assume(&State::default(), &resolved, &binding, &mut self.fresh);
                        samples
                            .iter()
                            .all(|state| self.fact_holds(state, &binding, &fact, &data))
                    }
                    Err(_) => false,
                };
                if implied {
                    pruned.disjuncts[d].data.remove(k);
                } else {
                    k += 1;
                }
            }
        }
        pruned
    }
}

/// The template with only the data assertions `keep` accepts.
pub(super) fn keep_facts(
    template: &Assertions,
    mut keep: impl FnMut(&crate::amortised::assertion::DataAssertion) -> bool,
) -> Assertions {
    let mut copy = template.clone();
    for disjunct in &mut copy.disjuncts {
        disjunct.data.retain(&mut keep);
    }
    copy
}

/// One assertion with the disjuncts (and existentials) of several.
pub fn combine(templates: &[Assertions]) -> Assertions {
    let mut combined = Assertions {
        exists: Vec::new(),
        disjuncts: Vec::new(),
        span: Default::default(),
    };
    for template in templates {
        combined.exists.extend(template.exists.iter().cloned());
        combined.disjuncts.extend(template.disjuncts.iter().cloned());
    }
    if combined.disjuncts.is_empty() {
        combined.disjuncts.push(Assertion {
            data: Vec::new(),
            heap: Vec::new(),
            resource: LinearExpr::constant(0),
            span: Default::default(),
        });
    }
    combined
}

/// Whether a resolved data fact over loop variables, parameters and `null` holds in `state`.
fn resolved_fact_holds(state: &State, fact: &RFact, vars: &[Value], args: &[Value]) -> bool {
    let value = |t: RTerm| match t {
        RTerm::Var(k) => vars.get(k).copied(),
        RTerm::Arg(k) => args.get(k).copied(),
        RTerm::Null => Some(Value::Null),
        _ => None,
    };
    match (value(fact.lhs), value(fact.rhs)) {
        (Some(a), Some(b)) if fact.equal => state.equal(a, b),
        (Some(a), Some(b)) => state.distinct(a, b),
        _ => false,
    }
}
