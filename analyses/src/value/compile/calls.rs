//! Calls: dispatch procedures over the targets of a method call, and calls with no analysed
//! target (natives, methods outside the program).

use super::{AbsProcId, AbstractProc, AbstractRule, Item, Origin, RuleCompiler, RuleCost, Target};
use crate::ir::*;
use crate::value::domain::Dimension;
use crate::value::program::Width;

impl RuleCompiler<'_> {
    /// A call with no analysed target: a native method executes no bytecodes (and only counts
    /// as an invocation at the call), and allocates nothing the allocations model counts, except
    /// the natives [`CostModel::native_may_count`] names (whose amounts are not known here: opaque). Other
    /// calls are opaque.
    pub(super) fn outside_call(&self, kind: CallKind, method: &MethodRef) -> Item {
        let native = self.native_call(kind, method);
        let name = format!(
            "{}.{}{}",
            method.class.replace('/', "."),
            method.name,
            method.descriptor
        );
        match native {
            true if self.model.native_may_count(method) => Item::Opaque {
                reason: format!("calls the native {name}, which may allocate"),
            },
            true => Item::Marker { bytecodes: 0 },
            false => Item::Opaque {
                reason: match self.resolver.why_not_analysed(kind, method) {
                    Some(why) => format!("calls {name}, which is not analysed ({why})"),
                    None => format!("calls {name}, which is not analysed"),
                },
            },
        }
    }

    /// Whether every target of a call outside the program is a native method (the methods of an
    /// array class are exactly `Object`'s: no class overrides them for an array, so the call
    /// resolves as a non-virtual one).
    pub(super) fn native_call(&self, kind: CallKind, method: &MethodRef) -> bool {
        if method.class.starts_with('[') {
            let on_object = MethodRef {
                class: "java/lang/Object".into(),
                ..method.clone()
            };
            self.resolver.is_native(CallKind::Special, &on_object)
        } else {
            self.resolver.is_native(kind, method)
        }
    }

    /// The dispatch procedure of a method call, when every target is in the program or
    /// summarised.
    pub(super) fn dispatch(&mut self, kind: CallKind, method: &MethodRef) -> Option<AbsProcId> {
        let key = (kind, method.clone());
        if let Some(found) = self.dispatches.get(&key) {
            return *found;
        }
        let targets = match self.resolver.resolve(kind, method) {
            Some(found) => Some(found.into_iter().map(Target::Analysed).collect()),
            None => self.resolver.summarise(kind, method),
        };
        let id = targets.filter(|t: &Vec<Target>| !t.is_empty()).map(|targets| {
            let (params, ret) = parse_method_descriptor(&method.descriptor).unwrap_or_default();
            let receiver = usize::from(kind != CallKind::Static);
            let inputs = params.len() + receiver;
            let outputs = usize::from(ret.is_some());
            // The JVM ranges of the numeric arguments, which bound what the targets' costs say of
            // them where the caller knows nothing more.
            let ranges: Vec<(Dimension, Width)> = params
                .iter()
                .enumerate()
                .filter(|(_, ty)| matches!(ty, Ty::Int | Ty::Long))
                .map(|(k, ty)| (receiver + k, super::stmt::width_of(*ty)))
                .collect();
            let rules = targets
                .iter()
                .map(|target| {
                    // A summarised method that never returns normally costs its bound and ends
                    // the caller's rule, as a `throw` does.
                    let (cost, items, returns) = match target {
                        Target::Analysed(t) => {
                            let entry = self.program.of_ir[*t][self.methods[*t].entry.index()];
                            let call = Item::Call {
                                callee: entry,
                                args: (0..inputs).collect(),
                                outs: (inputs..inputs + outputs).collect(),
                            };
                            (RuleCost::default(), vec![call], true)
                        }
                        Target::Summarised(summary) => match &summary.post {
                            Some(post) => (summary.cost.clone(), vec![Item::Constrain(post.clone())], true),
                            None => (summary.cost.clone(), Vec::new(), false),
                        },
                    };
                    AbstractRule {
                        dims: inputs + outputs,
                        cost,
                        may_throw: !returns,
                        guard: Vec::new(),
                        items,
                        returns,
                        source: None,
                        ranges: ranges.clone(),
                        cyclic_call: None,
                    }
                })
                .collect();
            self.program.procs.push(AbstractProc {
                is_method_entry: false,
                name: format!("dispatch {}.{}{}", method.class, method.name, method.descriptor),
                inputs,
                outputs,
                rules,
                origin: Origin::Dispatch(method.clone()),
            });
            self.program.procs.len() - 1
        });
        self.dispatches.insert(key, id);
        id
    }
}
