//! Loops in the proof search: entering a loop proves its invariant and sets the frame aside, the
//! body runs from the invariant, each back edge proves the invariant again.

use super::*;

impl Engine<'_> {
    /// The invariant a loop is entered and iterated with in the current phase.
    pub(super) fn current_invariant(&mut self, index: usize) -> Result<RAssertions, String> {
        if self.phase == Phase::Verify {
            return self.loops[index]
                .invariant
                .clone()
                .ok_or_else(|| "no invariant was found for the loop".to_owned());
        }
        let data = self.loops[index].clone();
        if let Some((_, user)) = &data.user {
            let mut invariant = user.clone();
            if let Some(facts) = &data.facts {
                for conj in &mut invariant.disjuncts {
                    conj.facts.extend(facts.iter().cloned());
                }
            }
            return Ok(invariant);
        }
        let combined = combine(&data.templates);
        let ctx = &self.methods[data.method];
        resolve(
            &combined,
            &ctx.scope(Role::Invariant(0), Some(&data.inputs)),
            self.view,
            self.variables,
        )
        .map(|(r, _)| r)
        .map_err(|errors| describe_errors(&ctx.key, Role::Invariant(0), &errors))
    }

    pub(super) fn loop_line(&self, index: usize) -> String {
        let data = &self.loops[index];
        match self.methods[data.method].line_of(data.pc) {
            Some(line) => format!("the loop at line {line}"),
            None => format!("the loop at offset {}", data.pc),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn enter_loop(
        &mut self,
        mut path: Path,
        act: usize,
        method: usize,
        proc: ProcId,
        args: Vec<Value>,
        outs: Vec<VarId>,
        pc: u32,
        work: &mut Vec<Path>,
    ) {
        let Some(index) = self.loop_index(method, proc) else {
            self.fail(method, Some(pc), "a loop the proof search does not know");
            return;
        };
        self.loops[index].reached = true;
        let ghosts = path.acts[act].ghosts.clone();
        if self.phase == Phase::Infer {
            self.observe(index, &path.state, &ghosts, &args);
        }
        let invariant = match self.current_invariant(index) {
            Ok(invariant) => invariant,
            Err(reason) => {
                self.fail(method, Some(pc), reason);
                return;
            }
        };
        let binding = Binding {
            args: ghosts.clone(),
            vars: args.clone(),
            ret: None,
        };
        let names = self.namer(&path);
        let Proof { frame, obligations, .. } = match prove(&path.state, &invariant, &binding, &mut self.fresh, &names) {
            Ok(proof) => proof,
            Err(reason) => {
                let what = self.loop_line(index);
                self.fail(
                    method,
                    Some(pc),
                    format!("the invariant of {what} does not hold when the loop is entered: {reason}"),
                );
                return;
            }
        };
        let what = self.loop_line(index);
        for (expression, about) in obligations {
            self.oblige(
                method,
                Some(pc),
                expression,
                format!("{about} of the invariant of {what} when the loop is entered"),
            );
        }
        let unchanged = self.loops[index].unchanged.clone();
        let header: Vec<Value> = args
            .iter()
            .zip(&unchanged)
            .map(|(value, same)| if *same { *value } else { self.fresh.value() })
            .collect();
        let base = State {
            pure: path.state.pure.clone(),
            atoms: Vec::new(),
            pool: ResExpr::zero(),
            classes: path.state.classes.clone(),
        };
        let starts = assume(
            &base,
            &invariant,
            &Binding {
                args: ghosts,
                vars: header.clone(),
                ret: None,
            },
            &mut self.fresh,
        );
        if let Some(Frame::Rule { pending, .. }) = path.frames.last_mut() {
            *pending = outs;
        }
        path.frames.push(Frame::LoopExit {
            act,
            proc,
            header: header.clone(),
            atoms: frame.atoms,
            pool: frame.pool,
        });
        for state in starts {
            let mut start = path.clone();
            start.state = state;
            self.enter_proc(start, act, proc, header.clone(), work);
        }
    }

    pub(super) fn back_edge(&mut self, path: Path, act: usize, method: usize, proc: ProcId, args: Vec<Value>, pc: u32) {
        let Some(index) = self.loop_index(method, proc) else {
            return;
        };
        let header = path
            .frames
            .iter()
            .rev()
            .find_map(|f| match f {
                Frame::LoopExit {
                    act: a,
                    proc: p,
                    header,
                    ..
                } if *a == act && *p == proc => Some(header.clone()),
                _ => None,
            })
            .unwrap_or_default();
        let ghosts = path.acts[act].ghosts.clone();
        if self.phase == Phase::Infer {
            for (k, (now, before)) in args.iter().zip(&header).enumerate() {
                if self.loops[index].unchanged[k] && !path.state.equal(*now, *before) {
                    self.loops[index].unchanged[k] = false;
                    self.changed = true;
                }
            }
            self.observe(index, &path.state, &ghosts, &args);
            return;
        }
        for (k, (now, before)) in args.iter().zip(&header).enumerate() {
            if self.loops[index].unchanged[k] && !path.state.equal(*now, *before) {
                let what = self.loop_line(index);
                self.fail(
                    method,
                    Some(pc),
                    format!(
                        "{what} changes its variable {} although no iteration seen before did",
                        self.loops[index].inputs[k].0
                    ),
                );
                return;
            }
        }
        let invariant = match self.current_invariant(index) {
            Ok(invariant) => invariant,
            Err(reason) => {
                self.fail(method, Some(pc), reason);
                return;
            }
        };
        let binding = Binding {
            args: ghosts,
            vars: args,
            ret: None,
        };
        let names = self.namer(&path);
        let what = self.loop_line(index);
        match prove(&path.state, &invariant, &binding, &mut self.fresh, &names) {
            Ok(proof) => {
                for (expression, about) in proof.obligations {
                    self.oblige(
                        method,
                        Some(pc),
                        expression,
                        format!("{about} of the invariant of {what} at the end of an iteration"),
                    );
                }
            }
            Err(reason) => self.fail(
                method,
                Some(pc),
                format!("the invariant of {what} does not hold at the end of an iteration: {reason}"),
            ),
        }
    }
}
