//! The IR verifier: checks every structural and typing invariant of a method and collects all errors.

use super::types::*;
use std::collections::HashSet;
use std::fmt;

/// One violated invariant, located by procedure, rule and statement where that applies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub proc: Option<String>,
    pub rule: Option<usize>,
    pub stmt: Option<usize>,
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(proc) = &self.proc {
            write!(f, "proc {proc}")?;
            if let Some(rule) = self.rule {
                write!(f, " rule {rule}")?;
            }
            if let Some(stmt) = self.stmt {
                write!(f, " stmt {stmt}")?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

/// Checks a method and returns every violated invariant (empty when the method is well formed).
pub fn verify_method(method: &MethodIr) -> Vec<VerifyError> {
    let mut verifier = Verifier {
        method,
        errors: Vec::new(),
        proc: None,
        rule: None,
        stmt: None,
    };
    verifier.method();
    verifier.errors
}

struct Verifier<'a> {
    method: &'a MethodIr,
    errors: Vec<VerifyError>,
    proc: Option<&'a Procedure>,
    rule: Option<usize>,
    stmt: Option<usize>,
}

impl<'a> Verifier<'a> {
    fn error(&mut self, message: impl Into<String>) {
        self.errors.push(VerifyError {
            proc: self.proc.map(|p| p.name.clone()),
            rule: self.rule,
            stmt: self.stmt,
            message: message.into(),
        });
    }

    fn var_ty(&self, var: VarId) -> Option<Ty> {
        self.method.vars.get(var.index()).map(|d| d.ty)
    }

    fn method(&mut self) {
        let method = self.method;
        let mut names = HashSet::new();
        for decl in &method.vars {
            if !names.insert(decl.name.as_str()) {
                self.error(format!("variable name `{}` is declared twice", decl.name));
            }
        }
        let mut proc_names = HashSet::new();
        for proc in &method.procs {
            if !proc_names.insert(proc.name.as_str()) {
                self.error(format!("procedure name `{}` is used twice", proc.name));
            }
        }
        match method.procs.get(method.entry.index()) {
            None => self.error(format!("entry {} is not a procedure", method.entry)),
            Some(entry) => self.entry_signature(entry),
        }
        for proc in &method.procs {
            self.proc = Some(proc);
            self.procedure(proc);
            self.proc = None;
        }
    }

    fn entry_signature(&mut self, entry: &Procedure) {
        let Some((params, ret)) = parse_method_descriptor(&self.method.descriptor) else {
            self.error(format!("malformed method descriptor `{}`", self.method.descriptor));
            return;
        };
        let mut expected: Vec<Ty> = Vec::new();
        if !self.method.is_static {
            expected.push(Ty::Ref);
        }
        expected.extend(params);
        let inputs: Vec<Option<Ty>> = entry.inputs.iter().map(|v| self.var_ty(*v)).collect();
        if inputs != expected.iter().map(|t| Some(*t)).collect::<Vec<_>>() {
            self.error(format!(
                "entry {} inputs do not match the method's parameters",
                entry.name
            ));
        }
        let outputs: Vec<Option<Ty>> = entry.outputs.iter().map(|v| self.var_ty(*v)).collect();
        if outputs != ret.iter().map(|t| Some(*t)).collect::<Vec<_>>() {
            self.error(format!(
                "entry {} outputs do not match the method's return type",
                entry.name
            ));
        }
    }

    fn procedure(&mut self, proc: &'a Procedure) {
        let mut seen = HashSet::new();
        for var in proc.inputs.iter().chain(&proc.outputs) {
            if self.var_ty(*var).is_none() {
                self.error(format!("undeclared variable {var} in the signature"));
            }
            if !seen.insert(*var) {
                self.error(format!("variable {var} appears twice in the signature"));
            }
        }
        if proc.rules.is_empty() {
            self.error("procedure has no rules");
        }
        for (k, rule) in proc.rules.iter().enumerate() {
            self.rule = Some(k);
            self.rule_body(proc, rule);
            self.rule = None;
        }
    }

    fn rule_body(&mut self, proc: &Procedure, rule: &Rule) {
        let inputs: HashSet<VarId> = proc.inputs.iter().copied().collect();
        for cond in &rule.guard {
            self.cond(cond, &inputs);
        }
        let mut defined = inputs.clone();
        let mut previous_bytecodes = 0;
        for (k, stmt) in rule.body.iter().enumerate() {
            self.stmt = Some(k);
            if stmt.bytecodes < previous_bytecodes || stmt.bytecodes > rule.bytecodes {
                self.error("statement bytecode count is not between its predecessor's and the rule's");
            }
            previous_bytecodes = stmt.bytecodes;
            for operand in stmt.kind.uses() {
                self.use_operand(operand, &defined);
            }
            if let Some(edge) = &stmt.handler {
                if !stmt.kind.can_throw() {
                    self.error("handler edge on a statement that cannot throw");
                }
                self.handler_edge(proc, edge, &defined);
            }
            self.stmt_types(&stmt.kind);
            for def in stmt.kind.defs() {
                if self.var_ty(def).is_none() {
                    self.error(format!("undeclared variable {def} defined"));
                } else if !defined.insert(def) {
                    self.error(format!(
                        "variable `{}` is assigned twice (not SSA)",
                        self.method.var(def).name
                    ));
                }
            }
            if matches!(stmt.kind, StmtKind::Throw { .. }) && k + 1 != rule.body.len() {
                self.error("throw is not the last statement of its rule");
            }
        }
        self.stmt = None;
        let throws = matches!(
            rule.body.last(),
            Some(Stmt {
                kind: StmtKind::Throw { .. },
                ..
            })
        );
        if !throws {
            for out in &proc.outputs {
                if !defined.contains(out) || inputs.contains(out) {
                    let name = self
                        .method
                        .vars
                        .get(out.index())
                        .map_or("?", |d| d.name.as_str())
                        .to_owned();
                    self.error(format!("output `{name}` is not defined by the rule"));
                }
            }
        }
    }

    fn cond(&mut self, cond: &Cond, inputs: &HashSet<VarId>) {
        let operands: Vec<&Operand> = match cond {
            Cond::Cmp { lhs, rhs, .. } => vec![lhs, rhs],
            Cond::InstanceOf { value, .. } => vec![value],
        };
        for operand in &operands {
            if let Operand::Var(v) = operand {
                if !inputs.contains(v) {
                    self.error(format!("guard mentions {v}, which is not an input"));
                }
            }
        }
        match cond {
            Cond::Cmp { op, lhs, rhs } => {
                let (l, r) = (self.method.operand_ty(lhs), self.method.operand_ty(rhs));
                match (l, r) {
                    (Some(Ty::Int), Some(Ty::Int)) | (Some(Ty::Long), Some(Ty::Long)) => {}
                    (Some(Ty::Ref), Some(Ty::Ref)) if matches!(op, CmpOp::Eq | CmpOp::Ne) => {}
                    _ => self.error(format!("guard compares {l:?} with {r:?} by {}", op.symbol())),
                }
            }
            Cond::InstanceOf { value, .. } => self.expect(value, Ty::Ref, "instanceof guard"),
        }
    }

    fn use_operand(&mut self, operand: &Operand, defined: &HashSet<VarId>) {
        if let Operand::Var(v) = operand {
            if self.var_ty(*v).is_none() {
                self.error(format!("undeclared variable {v} used"));
            } else if !defined.contains(v) {
                self.error(format!(
                    "variable `{}` is used before it is defined",
                    self.method.var(*v).name
                ));
            }
        }
    }

    fn handler_edge(&mut self, proc: &Procedure, edge: &HandlerEdge, defined: &HashSet<VarId>) {
        for arg in &edge.args {
            self.use_operand(arg, defined);
        }
        let Some(target) = self.method.procs.get(edge.proc.index()) else {
            self.error(format!("handler edge to unknown procedure {}", edge.proc));
            return;
        };
        if target.inputs.len() != edge.args.len() + 1
            || target.inputs.first().and_then(|v| self.var_ty(*v)) != Some(Ty::Ref)
        {
            self.error(format!(
                "handler edge to {} does not pass the exception and its inputs",
                target.name
            ));
        } else {
            self.args_match(&target.inputs[1..], &edge.args, &target.name);
        }
        if !self.same_types(&target.outputs, &proc.outputs) {
            self.error(format!("handler {} has other outputs than {}", target.name, proc.name));
        }
    }

    fn same_types(&self, a: &[VarId], b: &[VarId]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.var_ty(*x) == self.var_ty(*y))
    }

    fn args_match(&mut self, formals: &[VarId], actuals: &[Operand], callee: &str) {
        if formals.len() != actuals.len() {
            self.error(format!(
                "{callee} takes {} arguments, {} given",
                formals.len(),
                actuals.len()
            ));
            return;
        }
        for (formal, actual) in formals.iter().zip(actuals) {
            if let Some(ty) = self.var_ty(*formal) {
                self.expect(actual, ty, callee);
            }
        }
    }

    fn expect(&mut self, operand: &Operand, ty: Ty, context: &str) {
        let actual = self.method.operand_ty(operand);
        if actual.is_some() && actual != Some(ty) {
            self.error(format!(
                "{context}: expected {}, found {}",
                ty.keyword(),
                actual.map_or("?", |t| t.keyword())
            ));
        }
    }

    fn expect_var(&mut self, var: VarId, ty: Ty, context: &str) {
        if let Some(actual) = self.var_ty(var) {
            if actual != ty {
                self.error(format!(
                    "{context}: result should be {}, is {}",
                    ty.keyword(),
                    actual.keyword()
                ));
            }
        }
    }

    fn stmt_types(&mut self, kind: &StmtKind) {
        match kind {
            StmtKind::Assign { dst, src } => {
                if let Some(ty) = self.var_ty(*dst) {
                    self.expect(src, ty, "assignment");
                }
            }
            StmtKind::Binary { dst, op, ty, lhs, rhs } => self.binary_types(*dst, *op, *ty, lhs, rhs),
            StmtKind::Unary { dst, op, from, src } => {
                self.expect(src, *from, "unary operand");
                let to = self.var_ty(*dst);
                let ok = match op {
                    UnOp::Neg => to == Some(*from) && *from != Ty::Ref,
                    UnOp::Convert => to.is_some_and(|t| t != *from && t != Ty::Ref) && *from != Ty::Ref,
                    UnOp::IntToByte | UnOp::IntToChar | UnOp::IntToShort => *from == Ty::Int && to == Some(Ty::Int),
                };
                if !ok {
                    self.error("ill-typed unary operation");
                }
            }
            StmtKind::GetField { dst, object, field } => {
                self.expect(object, Ty::Ref, "getfield object");
                self.field_value(*dst, &field.descriptor);
            }
            StmtKind::PutField { object, field, value } => {
                self.expect(object, Ty::Ref, "putfield object");
                self.field_operand(value, &field.descriptor);
            }
            StmtKind::GetStatic { dst, field } => self.field_value(*dst, &field.descriptor),
            StmtKind::PutStatic { field, value } => self.field_operand(value, &field.descriptor),
            StmtKind::ArrayLoad {
                dst,
                elem,
                array,
                index,
            } => {
                self.expect(array, Ty::Ref, "array");
                self.expect(index, Ty::Int, "array index");
                self.expect_var(*dst, elem.value_ty(), "array load");
            }
            StmtKind::ArrayStore {
                elem,
                array,
                index,
                value,
            } => {
                self.expect(array, Ty::Ref, "array");
                self.expect(index, Ty::Int, "array index");
                self.expect(value, elem.value_ty(), "array store");
            }
            StmtKind::ArrayLength { dst, array } => {
                self.expect(array, Ty::Ref, "array");
                self.expect_var(*dst, Ty::Int, "arraylength");
            }
            StmtKind::New { dst, .. } => self.expect_var(*dst, Ty::Ref, "new"),
            StmtKind::NewArray { dst, length, .. } | StmtKind::NewRefArray { dst, length, .. } => {
                self.expect(length, Ty::Int, "array length");
                self.expect_var(*dst, Ty::Ref, "newarray");
            }
            StmtKind::NewMultiArray {
                dst,
                descriptor,
                lengths,
            } => {
                let depth = descriptor.bytes().take_while(|b| *b == b'[').count();
                if lengths.is_empty() || lengths.len() > depth {
                    self.error("multianewarray has more dimensions than its type");
                }
                for length in lengths {
                    self.expect(length, Ty::Int, "array length");
                }
                self.expect_var(*dst, Ty::Ref, "multianewarray");
            }
            StmtKind::Invoke {
                dst,
                kind,
                method,
                args,
                ..
            } => self.invoke_types(*dst, *kind != CallKind::Static, &method.descriptor, args),
            StmtKind::InvokeDynamic {
                dst, descriptor, args, ..
            } => self.invoke_types(*dst, false, descriptor, args),
            StmtKind::Concat {
                dst,
                recipe,
                descriptor,
                args,
            } => {
                self.invoke_types(Some(*dst), false, descriptor, args);
                let strings_only = super::split_method_descriptor(descriptor).is_some_and(|(params, ret)| {
                    ret == "Ljava/lang/String;" && params.iter().all(|p| p.len() == 1 || *p == "Ljava/lang/String;")
                });
                if !strings_only {
                    self.error(format!(
                        "concat type {descriptor} takes a reference other than a String or returns no String"
                    ));
                }
                if recipe.matches('\u{1}').count() != args.len() {
                    self.error(format!(
                        "concat recipe has {} places for {} arguments",
                        recipe.matches('\u{1}').count(),
                        args.len()
                    ));
                }
            }
            StmtKind::Call { proc, args, outs } => {
                let Some(callee) = self.method.procs.get(proc.index()) else {
                    self.error(format!("call of unknown procedure {proc}"));
                    return;
                };
                let name = callee.name.clone();
                let (inputs, outputs) = (callee.inputs.clone(), callee.outputs.clone());
                self.args_match(&inputs, args, &name);
                if !self.same_types(&outputs, outs) {
                    self.error(format!("call of {name} receives outputs of the wrong number or types"));
                }
            }
            StmtKind::CheckCast { value, .. }
            | StmtKind::MonitorEnter { value }
            | StmtKind::MonitorExit { value }
            | StmtKind::Throw { value } => self.expect(value, Ty::Ref, "reference operand"),
            StmtKind::InstanceOf { dst, value, .. } => {
                self.expect(value, Ty::Ref, "instanceof operand");
                self.expect_var(*dst, Ty::Int, "instanceof");
            }
            StmtKind::LoadConst { dst, value } => {
                let ty = match value {
                    OpaqueConst::Dynamic { descriptor, .. } => Ty::from_descriptor(descriptor),
                    _ => Some(Ty::Ref),
                };
                match ty {
                    Some(ty) => self.expect_var(*dst, ty, "ldc"),
                    None => self.error("malformed dynamic constant descriptor"),
                }
            }
        }
    }

    fn binary_types(&mut self, dst: VarId, op: BinOp, ty: Ty, lhs: &Operand, rhs: &Operand) {
        self.expect(lhs, ty, "left operand");
        let is_shift = matches!(op, BinOp::Shl | BinOp::Shr | BinOp::Ushr);
        self.expect(rhs, if is_shift { Ty::Int } else { ty }, "right operand");
        let valid = match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => ty != Ty::Ref,
            BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr | BinOp::Ushr => {
                matches!(ty, Ty::Int | Ty::Long)
            }
            BinOp::Cmp => ty == Ty::Long,
            BinOp::CmpL | BinOp::CmpG => matches!(ty, Ty::Float | Ty::Double),
        };
        if !valid {
            self.error(format!("operator {op:?} is not defined on {}", ty.keyword()));
        }
        let result = if matches!(op, BinOp::Cmp | BinOp::CmpL | BinOp::CmpG) {
            Ty::Int
        } else {
            ty
        };
        self.expect_var(dst, result, "binary operation");
    }

    fn field_value(&mut self, dst: VarId, descriptor: &str) {
        match Ty::from_descriptor(descriptor) {
            Some(ty) => self.expect_var(dst, ty, "field read"),
            None => self.error(format!("malformed field descriptor `{descriptor}`")),
        }
    }

    fn field_operand(&mut self, value: &Operand, descriptor: &str) {
        match Ty::from_descriptor(descriptor) {
            Some(ty) => self.expect(value, ty, "field write"),
            None => self.error(format!("malformed field descriptor `{descriptor}`")),
        }
    }

    fn invoke_types(&mut self, dst: Option<VarId>, has_receiver: bool, descriptor: &str, args: &[Operand]) {
        let Some((params, ret)) = parse_method_descriptor(descriptor) else {
            self.error(format!("malformed method descriptor `{descriptor}`"));
            return;
        };
        let mut expected = Vec::new();
        if has_receiver {
            expected.push(Ty::Ref);
        }
        expected.extend(params);
        if expected.len() != args.len() {
            self.error(format!(
                "call passes {} arguments, `{descriptor}` takes {}",
                args.len(),
                expected.len()
            ));
        } else {
            for (arg, ty) in args.iter().zip(expected) {
                self.expect(arg, ty, "call argument");
            }
        }
        match (dst, ret) {
            (None, None) => {}
            (Some(dst), Some(ty)) => self.expect_var(dst, ty, "call result"),
            _ => self.error("call result does not match the return type"),
        }
    }
}
