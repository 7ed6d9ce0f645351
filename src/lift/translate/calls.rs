//! Method invocations.

use super::insns::misrouted;
use super::state::{RuleBuilder, State};
use super::{LiftError, Translator};
use crate::classfile::{Insn, InvokeKind};
use crate::lift::frames::call_signature;
use jresa_analyses::ir::*;

impl Translator<'_> {
    /// Method invocations: `invoke{static,special,virtual,interface}` and `invokedynamic`.
    pub(super) fn invocation(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        insn: &Insn,
    ) -> Result<(), LiftError> {
        let pc = rule.pc;
        match insn {
            Insn::Invoke(kind, method) => {
                let has_receiver = *kind != InvokeKind::Static;
                let (params, ret) = call_signature(&method.descriptor, has_receiver, pc)?;
                let args = state.pop_n(params.len(), pc)?;
                let call_kind = match kind {
                    InvokeKind::Static => CallKind::Static,
                    InvokeKind::Special => CallKind::Special,
                    InvokeKind::Virtual => CallKind::Virtual,
                    InvokeKind::Interface => CallKind::Interface,
                };
                let target = MethodRef {
                    class: method.class.clone(),
                    name: method.name.clone(),
                    descriptor: method.descriptor.clone(),
                };
                let interface = method.interface || call_kind == CallKind::Interface;
                self.emit_call(ctx, rule, state, ret, |dst| StmtKind::Invoke {
                    dst,
                    kind: call_kind,
                    interface,
                    method: target,
                    args,
                })
            }
            Insn::InvokeDynamic {
                name,
                descriptor,
                bootstrap_index,
            } => {
                let (params, ret) = call_signature(descriptor, false, pc)?;
                let args = state.pop_n(params.len(), pc)?;
                let (name, descriptor, bootstrap) = (name.clone(), descriptor.clone(), *bootstrap_index);
                self.emit_call(ctx, rule, state, ret, |dst| StmtKind::InvokeDynamic {
                    dst,
                    name,
                    descriptor,
                    bootstrap,
                    args,
                })
            }
            _ => Err(misrouted(pc, insn)),
        }
    }

    pub(super) fn emit_call(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        ret: Option<Ty>,
        make: impl FnOnce(Option<VarId>) -> StmtKind,
    ) -> Result<(), LiftError> {
        match ret {
            Some(ty) => self.emit_value(ctx, rule, state, ty, |dst| make(Some(dst))),
            None => self.emit_throwing(ctx, rule, state, make(None)),
        }
    }
}
