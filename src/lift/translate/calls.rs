//! Method invocations.

use super::insns::misrouted;
use super::state::{RuleBuilder, State};
use super::{LiftError, Translator};
use crate::classfile::{ClassFile, Constant, Insn, InvokeKind};
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
                if let Some(recipe) = concat_recipe(self.class, *bootstrap_index, descriptor) {
                    return self.concat(ctx, rule, state, recipe, descriptor);
                }
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

    /// A string concatenation (`StmtKind::Concat`): each reference argument other than a `String`
    /// goes through `String.valueOf(Object)` first (its `toString`, as the JDK's concatenation
    /// calls it), then the concatenation of the strings and primitive values.
    fn concat(
        &mut self,
        ctx: Option<usize>,
        rule: &mut RuleBuilder,
        state: &mut State,
        recipe: String,
        descriptor: &str,
    ) -> Result<(), LiftError> {
        let pc = rule.pc;
        let malformed = || LiftError::at(pc, format!("malformed invokedynamic descriptor {descriptor}"));
        let (params, _) = split_method_descriptor(descriptor).ok_or_else(malformed)?;
        let values = state.pop_n(params.len(), pc)?;
        let mut args = Vec::with_capacity(values.len());
        let mut types = String::from("(");
        for (value, param) in values.into_iter().zip(&params) {
            if param.len() == 1 || *param == STRING {
                args.push(value);
                types.push_str(param);
                continue;
            }
            self.emit_call(ctx, rule, state, Some(Ty::Ref), |dst| StmtKind::Invoke {
                dst,
                kind: CallKind::Static,
                interface: false,
                method: MethodRef {
                    class: "java/lang/String".into(),
                    name: "valueOf".into(),
                    descriptor: "(Ljava/lang/Object;)Ljava/lang/String;".into(),
                },
                args: vec![value],
            })?;
            args.extend(state.pop_n(1, pc)?);
            types.push_str(STRING);
        }
        types.push(')');
        types.push_str(STRING);
        self.emit_value(ctx, rule, state, Ty::Ref, |dst| StmtKind::Concat {
            dst,
            recipe,
            descriptor: types,
            args,
        })
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

const STRING: &str = "Ljava/lang/String;";

/// The recipe of an `invokedynamic` that `StringConcatFactory` links (bootstrap method `index`
/// of `class`, site type `descriptor`), with its constants written in and `\u{1}` for each
/// argument; `None` for other sites, and for constants that hold a tag character themselves.
fn concat_recipe(class: &ClassFile, index: u16, descriptor: &str) -> Option<String> {
    const FACTORY: &str = "invokestatic java/lang/invoke/StringConcatFactory.";
    let bootstrap = class.bootstrap_methods.get(usize::from(index))?;
    let method = bootstrap.handle.strip_prefix(FACTORY)?;
    if method.starts_with("makeConcat:") {
        let (params, _) = split_method_descriptor(descriptor)?;
        return Some("\u{1}".repeat(params.len()));
    }
    if !method.starts_with("makeConcatWithConstants:") {
        return None;
    }
    let mut arguments = bootstrap.arguments.iter();
    let Some(Constant::String(template)) = arguments.next() else {
        return None;
    };
    let mut recipe = String::with_capacity(template.len());
    for c in template.chars() {
        if c != '\u{2}' {
            recipe.push(c);
            continue;
        }
        let text = match arguments.next()? {
            Constant::String(text) => text.clone(),
            Constant::Int(v) => v.to_string(),
            Constant::Long(v) => v.to_string(),
            _ => return None,
        };
        if text.contains(['\u{1}', '\u{2}']) {
            return None;
        }
        recipe.push_str(&text);
    }
    let (params, _) = split_method_descriptor(descriptor)?;
    (recipe.matches('\u{1}').count() == params.len()).then_some(recipe)
}
