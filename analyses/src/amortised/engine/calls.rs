//! Method calls in the proof search: `Resource.consume`, calls through a callee's specification
//! (precondition proven with the frame kept, postcondition assumed), inlined unannotated
//! callees, and opaque calls into the JDK.

use super::*;

impl Engine<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn invoke(
        &mut self,
        path: &mut Path,
        act: usize,
        method: usize,
        stmt: &Stmt,
        dst: Option<VarId>,
        kind: CallKind,
        callee: &MethodRef,
        args: Vec<Value>,
        work: &mut Vec<Path>,
    ) -> Flow {
        let pc = Some(stmt.pc);
        if callee.class == RESOURCE_CLASS && callee.name == "consume" {
            let units = match (callee.descriptor.as_str(), args.first().map(|a| path.state.find(*a))) {
                ("()V", _) => 1,
                (_, Some(Value::Int(n))) if n >= 0 => n,
                (_, Some(Value::Int(n))) => {
                    self.fail(method, pc, format!("Resource.consume({n}): a negative amount"));
                    return Flow::Done;
                }
                _ => {
                    self.fail(
                        method,
                        pc,
                        "Resource.consume(int) with an argument that is not a constant: the amortised analysis needs constant amounts",
                    );
                    return Flow::Done;
                }
            };
            path.state.pool = path.state.pool.minus(&ResExpr::constant(units));
            let unit = if units == 1 { "unit" } else { "units" };
            let call = if callee.descriptor == "()V" {
                "Resource.consume()".to_owned()
            } else {
                format!("Resource.consume({units})")
            };
            self.oblige(
                method,
                pc,
                path.state.pool.clone(),
                format!("the {units} {unit} {call} needs"),
            );
            return Flow::Continue;
        }
        if marker_id(&stmt.kind).is_some() {
            return Flow::Continue;
        }
        let exact = if kind == CallKind::Virtual || kind == CallKind::Interface {
            args.first()
                .and_then(|r| path.state.classes.get(&path.state.find(*r)))
                .filter(|(_, exact)| *exact)
                .map(|(c, _)| c.clone())
        } else {
            None
        };
        let target = match self.view.resolve(kind, callee, exact.as_deref()) {
            Resolution::Unique(target) => target,
            Resolution::Several(targets) => {
                self.fail(
                    method,
                    pc,
                    format!(
                        "the call of {} may reach {} methods; annotate a final or private method instead",
                        MethodKey::of(callee),
                        targets.len()
                    ),
                );
                return Flow::Done;
            }
            Resolution::Unresolved(reason) => {
                self.fail(method, pc, format!("the call of {}: {reason}", MethodKey::of(callee)));
                return Flow::Done;
            }
        };
        if kind != CallKind::Static {
            if let Some(receiver) = args.first().copied() {
                if !path.state.distinct(receiver, Value::Null) {
                    // A null receiver raises a NullPointerException instead of calling.
                    let mut npe = path.clone();
                    if npe.state.assume_equal(receiver, Value::Null) {
                        self.may_throw(&npe, stmt, work);
                    }
                    if !path.state.assume_distinct(receiver, Value::Null) {
                        return Flow::Done;
                    }
                }
            }
        }
        match self.view.spec(&target.key) {
            SpecLookup::Some(_) => self.call_with_spec(path, act, method, stmt, dst, &target, args, work),
            SpecLookup::Malformed => {
                self.fail(
                    method,
                    pc,
                    format!("the call of {}: its annotations are malformed", target.key),
                );
                Flow::Done
            }
            SpecLookup::None => {
                if target.library && self.closed_library_call(path, callee, kind, &args) {
                    // Assumed: JDK code reached only with JDK values (primitives, final JDK
                    // classes, null) neither consumes resource nor touches program objects.
                    if let Some(dst) = dst {
                        let value = self.fresh.value();
                        Self::define(path, dst, value);
                    }
                    self.may_throw(path, stmt, work);
                    return Flow::Continue;
                }
                if target.native {
                    if target.library {
                        // Assumed: library natives neither consume resource nor touch the
                        // program's objects.
                        if let Some(dst) = dst {
                            let value = self.fresh.value();
                            Self::define(path, dst, value);
                        }
                        self.may_throw(path, stmt, work);
                        return Flow::Continue;
                    }
                    self.fail(
                        method,
                        pc,
                        format!("the call of the native method {} (annotate it)", target.key),
                    );
                    return Flow::Done;
                }
                self.inline(path, act, method, stmt, dst, &target, args, work)
            }
        }
    }

    /// Whether every reference a library call receives is null, an object of a final class of the
    /// class path (by its declared type or its exact class), so that the call cannot reach the
    /// program's objects or code.
    pub(super) fn closed_library_call(&self, path: &Path, callee: &MethodRef, kind: CallKind, args: &[Value]) -> bool {
        let Some((params, _)) = crate::ir::split_method_descriptor(&callee.descriptor) else {
            return false;
        };
        let mut declared: Vec<Option<String>> = Vec::new();
        if kind != CallKind::Static {
            declared.push(Some(format!("L{};", callee.class)));
        }
        declared.extend(params.iter().map(|p| Some((*p).to_owned())));
        if declared.len() != args.len() {
            return false;
        }
        declared.iter().zip(args).all(|(descriptor, value)| {
            let descriptor = descriptor.as_deref().unwrap_or("");
            let reference = descriptor.starts_with('L') || descriptor.starts_with('[');
            if !reference {
                return true;
            }
            let value = path.state.find(*value);
            if value == Value::Null {
                return true;
            }
            if let Some((class, true)) = path.state.classes.get(&value) {
                if self.view.is_closed_library_class(class) {
                    return true;
                }
            }
            match crate::amortised::resolve::descriptor_class(descriptor) {
                Some(class) => self.view.is_closed_library_class(&class),
                // Arrays of primitives hold no references.
                None => descriptor.len() == 2 && descriptor.starts_with('['),
            }
        })
    }

    pub(super) fn fresh_value_nonnull(&mut self, path: &mut Path) -> Value {
        let value = self.fresh.value();
        path.state.pure.add_disequality(value, Value::Null);
        value
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn inline(
        &mut self,
        path: &mut Path,
        act: usize,
        method: usize,
        stmt: &Stmt,
        dst: Option<VarId>,
        target: &Target,
        args: Vec<Value>,
        work: &mut Vec<Path>,
    ) -> Flow {
        let pc = Some(stmt.pc);
        let depth = path.acts[act].depth + 1;
        if depth > MAX_INLINE_DEPTH {
            self.fail(
                method,
                pc,
                format!("the call of {}: calls nest more than {MAX_INLINE_DEPTH} deep without specifications (annotate the callee)", target.key),
            );
            return Flow::Done;
        }
        let running = path
            .frames
            .iter()
            .any(|f| matches!(f, Frame::Rule { act: a, .. } if self.methods[path.acts[*a].method].key == target.key));
        if running {
            self.fail(
                method,
                pc,
                format!(
                    "the recursive call of {} needs a specification (@Requires/@Ensures)",
                    target.key
                ),
            );
            return Flow::Done;
        }
        let index = match self.methods.iter().position(|m| m.key == target.key) {
            Some(index) => index,
            None => match self.view.code(&target.key) {
                Ok(ir) => {
                    let (ctx, errors) = MethodCtx::in_program(target.key.clone(), ir, self.view);
                    if let Some(error) = errors.first() {
                        self.fail(
                            method,
                            pc,
                            format!("in the called method {}: {}", target.key, error.message),
                        );
                        return Flow::Done;
                    }
                    self.methods.push(ctx);
                    let index = self.methods.len() - 1;
                    let invariants = match self.callee_invariants(index) {
                        Ok(invariants) => invariants,
                        Err(message) => {
                            self.fail(method, pc, message);
                            return Flow::Done;
                        }
                    };
                    self.add_loops(index, &invariants);
                    index
                }
                Err(reason) => {
                    self.fail(
                        method,
                        pc,
                        format!(
                            "the call of {}: {reason} (annotate it with @Requires/@Ensures)",
                            target.key
                        ),
                    );
                    return Flow::Done;
                }
            },
        };
        if let Some(Frame::Rule { pending, .. }) = path.frames.last_mut() {
            *pending = dst.into_iter().collect();
        }
        let entry = self.methods[index].ir.entry;
        path.acts.push(Activation {
            method: index,
            ghosts: args.clone(),
            depth,
        });
        let new_act = path.acts.len() - 1;
        self.enter_proc(path.clone(), new_act, entry, args, work);
        Flow::Done
    }

    /// The written invariants of an inlined (unannotated) method: it has none, since an
    /// annotated method is called through its specification. Kept for markers without
    /// annotations, which are an error.
    pub(super) fn callee_invariants(&mut self, index: usize) -> Result<HashMap<i32, RAssertions>, String> {
        let ctx = &self.methods[index];
        if let Some((id, _)) = ctx.marker_sites.first() {
            return Err(format!(
                "the called method {} has a Loop.invariant({id}) marker but no @Invariant",
                ctx.key
            ));
        }
        Ok(HashMap::new())
    }

    /// The resolved precondition and postcondition of an annotated callee.
    pub(super) fn callee_spec(&mut self, key: &MethodKey) -> Result<(RAssertions, RAssertions), String> {
        if let Some(cached) = self.callee_specs.get(key) {
            return cached.clone();
        }
        let result = (|| {
            let SpecLookup::Some(spec) = self.view.spec(key) else {
                return Err(format!("{key} has no usable specification"));
            };
            let ir = self.view.code(key).map_err(|reason| format!("{key}: {reason}"))?;
            let (ctx, _) = MethodCtx::in_program(key.clone(), ir, self.view);
            let mut resolve_role = |annotated: Option<&crate::amortised::spec::Annotated>, role: Role| match annotated {
                None => Ok(empty_assertion()),
                Some(annotated) => resolve(&annotated.assertions, &ctx.scope(role, None), self.view, self.variables)
                    .map(|(r, _)| r)
                    .map_err(|errors| describe_errors(key, role, &errors)),
            };
            let pre = resolve_role(spec.requires.as_ref(), Role::Requires)?;
            let post = resolve_role(spec.ensures.as_ref(), Role::Ensures)?;
            Ok((pre, post))
        })();
        self.callee_specs.insert(key.clone(), result.clone());
        result
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_with_spec(
        &mut self,
        path: &mut Path,
        _act: usize,
        method: usize,
        stmt: &Stmt,
        dst: Option<VarId>,
        target: &Target,
        args: Vec<Value>,
        work: &mut Vec<Path>,
    ) -> Flow {
        let pc = Some(stmt.pc);
        let (pre, post) = match self.callee_spec(&target.key) {
            Ok(spec) => spec,
            Err(reason) => {
                self.fail(method, pc, reason);
                return Flow::Done;
            }
        };
        self.callees.insert(target.key.clone());
        let mut binding = Binding {
            args,
            vars: Vec::new(),
            ret: None,
        };
        let names = self.namer(path);
        let proof = match prove(&path.state, &pre, &binding, &mut self.fresh, &names) {
            Ok(proof) => proof,
            Err(reason) => {
                self.fail(
                    method,
                    pc,
                    format!("the precondition of {} does not hold at the call: {reason}", target.key),
                );
                return Flow::Done;
            }
        };
        for (expression, what) in proof.obligations {
            self.oblige(
                method,
                pc,
                expression,
                format!("{what} of the precondition of {} at the call", target.key),
            );
        }
        let frame = proof.frame;
        if stmt.handler.is_some()
            || path
                .frames
                .iter()
                .any(|f| matches!(f, Frame::Rule { act, .. } if *act != 0))
        {
            let mut thrown = path.clone();
            thrown.state = frame.clone();
            let exception = self.fresh_value_nonnull(&mut thrown);
            self.raise(thrown, stmt.handler.as_ref(), exception, work);
        }
        let result = dst.map(|_| self.fresh.value());
        binding.ret = result;
        let states = assume(&frame, &post, &binding, &mut self.fresh);
        for mut state in states {
            unfold_certain(&mut state, &mut self.fresh);
            let mut next = path.clone();
            next.state = state;
            if let (Some(dst), Some(value)) = (dst, result) {
                Self::define(&mut next, dst, value);
            }
            work.push(next);
        }
        Flow::Done
    }
}
