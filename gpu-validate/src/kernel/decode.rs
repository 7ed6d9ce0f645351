//! Result records of the kernel as outcomes, exactly as the CPU machine makes them.

use super::abi::{self, InstanceMemory};
use crate::isa::{proc, NONE};
use crate::metrics::{ContextMethod, FlatTree, Metrics};
use crate::package::Package;
use crate::value::{Ending, Outcome};
use crate::vm::{Machine, RunConfig};

/// The return type descriptor of the launcher's method.
pub(super) fn return_type(pkg: &Package, launcher: u32) -> String {
    let method = pkg.proc_word(launcher, proc::METHOD) as usize;
    let descriptor = pkg.method_keys.get(method).map_or("()V", |k| k.2.as_str());
    descriptor.split(')').nth(1).unwrap_or("V").to_owned()
}

/// Whether the host needs an instance's memory to make its outcome: a returned reference is
/// rendered from the heap, and the context tree comes from the kernel's nodes.
pub(super) fn needs_memory(record: &[u32], return_type: &str, cct: bool) -> bool {
    let status = record[abi::RES_STATUS];
    if status == abi::ST_DEFERRED {
        return false;
    }
    cct || (status == abi::ST_RETURNED && (return_type.starts_with('L') || return_type.starts_with('[')))
}

/// The bytecodes an instance ran, in and outside class initialisation (0 for a deferred one).
pub(super) fn bytecodes(record: &[u32]) -> u64 {
    match record[abi::RES_STATUS] {
        abi::ST_DEFERRED => 0,
        _ => metrics(record, 0).bytecodes + metrics(record, 1).bytecodes,
    }
}

fn metrics(record: &[u32], bucket: usize) -> Metrics {
    let counter = |k: usize| {
        let at = abi::RES_METRICS + 8 * bucket + 2 * k;
        u64::from(record[at]) | u64::from(record[at + 1]) << 32
    };
    Metrics {
        bytecodes: counter(0),
        invocations: counter(1),
        allocations: counter(2),
        consume: counter(3),
    }
}

/// The outcome of a result record, or why the kernel deferred the instance.
pub(super) fn outcome(
    machine: &mut Machine<'_>,
    config: RunConfig,
    return_type: &str,
    record: &[u32],
    memory: Option<&InstanceMemory>,
) -> Result<Outcome, String> {
    let pkg = machine.pkg;
    let name = |class: u32| pkg.class_names.get(class as usize).map_or("?", String::as_str);
    let ending = match record[abi::RES_STATUS] {
        abi::ST_RETURNED => {
            let words = [record[abi::RES_VALUE], record[abi::RES_VALUE_HIGH]];
            if let Some(memory) = memory {
                machine.load_heap(&memory.heap, &memory.log);
            }
            Ending::Returned {
                value: machine.render(&words, return_type),
            }
        }
        abi::ST_THREW => Ending::Threw {
            class: name(record[abi::RES_VALUE]).to_owned(),
        },
        abi::ST_OUT_OF_MEMORY => Ending::OutOfMemory,
        abi::ST_STACK_OVERFLOW => Ending::StackOverflow,
        abi::ST_STEP_LIMIT => Ending::StepLimit,
        _ => {
            let code = record[abi::RES_DEFER];
            let reason = abi::DEFER_REASONS
                .iter()
                .find(|(c, _)| *c == code)
                .map_or("an unknown reason", |(_, r)| r);
            // A native names itself.
            let native = (code == abi::DEFER_NATIVE)
                .then(|| crate::natives::Native::from_id(record[abi::RES_DEFER_DETAIL]))
                .flatten();
            return Err(match native {
                Some(native) => format!("{reason} ({native:?})"),
                None => reason.to_owned(),
            });
        }
    };
    let failed = record[abi::RES_FAILED_CLASS];
    let failed_initializer = (failed != NONE).then(|| {
        format!(
            "the initialiser of {} threw {}",
            name(failed).replace('/', "."),
            name(record[abi::RES_FAILED_EXCEPTION]).replace('/', ".")
        )
    });
    let cct = config.cct.then(|| {
        let nodes = memory.map_or(&[][..], |m| &m.nodes[..]);
        tree(nodes).export(|m| {
            let (class, name, descriptor) = pkg.method_keys[m as usize].clone();
            ContextMethod {
                class,
                name,
                descriptor,
            }
        })
    });
    Ok(Outcome {
        ending,
        metrics: metrics(record, 0),
        initialization: metrics(record, 1),
        cct,
        failed_initializer,
    })
}

/// The kernel's context-tree nodes as the machine's flat tree.
fn tree(nodes: &[u32]) -> FlatTree {
    let mut tree = FlatTree::default();
    let wide = |node: &[u32], at: usize| u64::from(node[at]) | u64::from(node[at + 1]) << 32;
    for node in nodes.chunks_exact(abi::NODE_WORDS) {
        tree.parent.push(node[0]);
        tree.method.push(node[1]);
        tree.call_site.push(node[2]);
        tree.first_child.push(node[3]);
        tree.next_sibling.push(node[4]);
        tree.initialization.push(node[5] != 0);
        tree.entries.push(wide(node, 6));
        tree.counters.push(Metrics {
            bytecodes: wide(node, 8),
            invocations: wide(node, 10),
            allocations: wide(node, 12),
            consume: wide(node, 14),
        });
    }
    tree
}
