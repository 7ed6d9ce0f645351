//! `jdk.internal.misc.Unsafe`'s field accesses, as `AtomicInteger` and `AtomicLong` use them: an
//! offset is the field's word offset after the object header (what `objectFieldOffset1` returns),
//! and the VM is single-threaded, so volatile and compare-and-set accesses are plain ones. Access to
//! arrays or static fields through `Unsafe` is refused.

use super::{Exit, Machine};
use crate::isa::{self, class};
use crate::natives::Native;

impl Machine<'_> {
    /// Runs an `Unsafe` field native whose arguments (the `Unsafe` receiver first) start at stack
    /// word `at`; returns its result words.
    pub(crate) fn unsafe_field(&mut self, native: Native, at: usize) -> Result<[u32; 2], Exit> {
        let arg = |machine: &Machine, k: usize| machine.stack[at + k];
        if native == Native::UnsafeObjectFieldOffset {
            let (mirror, name) = (arg(self, 1), arg(self, 2));
            let offset = self.field_offset(mirror, name)?;
            return Ok([offset, 0]);
        }
        let field = self.field_address(arg(self, 1), arg(self, 2), arg(self, 3))?;
        let long = |machine: &Machine, k: usize| u64::from(arg(machine, k)) | u64::from(arg(machine, k + 1)) << 32;
        let mut result = [0, 0];
        match native {
            Native::UnsafeGetInt => result[0] = self.heap[field],
            Native::UnsafeGetLong => result = [self.heap[field], self.heap[field + 1]],
            Native::UnsafePutInt => {
                self.mark(field);
                self.heap[field] = arg(self, 4);
            }
            Native::UnsafePutLong => {
                self.mark_range(field, field + 2);
                self.heap[field] = arg(self, 4);
                self.heap[field + 1] = arg(self, 5);
            }
            Native::UnsafeCompareAndSetInt => {
                let (expected, new) = (arg(self, 4), arg(self, 5));
                if self.heap[field] == expected {
                    self.mark(field);
                    self.heap[field] = new;
                    result[0] = 1;
                }
            }
            Native::UnsafeCompareAndSetLong => {
                let (expected, new) = (long(self, 4), long(self, 6));
                let current = u64::from(self.heap[field]) | u64::from(self.heap[field + 1]) << 32;
                if current == expected {
                    self.mark_range(field, field + 2);
                    self.heap[field] = new as u32;
                    self.heap[field + 1] = (new >> 32) as u32;
                    result[0] = 1;
                }
            }
            _ => unreachable!("not an Unsafe field native: {native:?}"),
        }
        Ok(result)
    }

    /// The word offset of the instance field `name` (a string) of the class `mirror` stands for.
    fn field_offset(&self, mirror: u32, name: u32) -> Result<u32, Exit> {
        let class = self.mirror_class(mirror);
        let wanted = String::from_utf16_lossy(&self.string_units(name));
        let class_name = self.class_name(class).to_owned();
        self.pkg
            .instance_fields
            .get(&class_name)
            .and_then(|fields| {
                fields
                    .iter()
                    .find(|((n, _), _)| *n == wanted)
                    .map(|(_, offset)| *offset)
            })
            .ok_or_else(|| {
                Exit::Refused(format!(
                    "Unsafe.objectFieldOffset: no instance field {wanted} in {}",
                    class_name.replace('/', ".")
                ))
            })
    }

    /// The heap index of the field at word offset (`low`, `high`) of `object`.
    fn field_address(&self, object: u32, low: u32, high: u32) -> Result<usize, Exit> {
        let refuse = |why: &str| Exit::Refused(format!("Unsafe access {why} is not supported"));
        if object == 0 {
            return Err(refuse("to static fields or raw memory"));
        }
        let class = self.heap[object as usize];
        if self.pkg.class_word(class, class::FLAGS) & isa::FLAG_ARRAY != 0 {
            return Err(refuse("to array elements"));
        }
        let words = self.pkg.class_word(class, class::INSTANCE_WORDS);
        match u32::try_from(u64::from(low) | u64::from(high) << 32) {
            Ok(offset) if offset < words => Ok(object as usize + 1 + offset as usize),
            _ => Err(refuse("outside an object's fields")),
        }
    }
}
