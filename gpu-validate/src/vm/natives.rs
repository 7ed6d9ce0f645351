//! The behaviour of the natives of `crate::natives`: each reads its arguments where the invoke left
//! them on the stack, writes its result there, and raises exceptions as HotSpot does (with the
//! same classes and constructors).

use super::{Cause, Exit, Machine};
use crate::isa::{self, class, method, NONE};
use crate::natives::Native;

impl Machine<'_> {
    /// A deterministic identity hash (HotSpot's is random; programs must not depend on it).
    fn identity_hash(reference: u32) -> u32 {
        if reference == 0 {
            return 0;
        }
        (reference.wrapping_mul(0x9E37_79B1) >> 1).max(1)
    }

    /// Runs a native whose arguments are on the stack. Returns `true` when it returned normally
    /// (its result replaces the arguments), `false` when it raised an exception.
    pub(crate) fn native(&mut self, native: Native, m: u32, call_pc: usize) -> Result<bool, Exit> {
        let pkg = self.pkg;
        let wk = &pkg.well_known;
        let at = self.sp - pkg.method_word(m, method::ARG_WORDS) as usize;
        let arg = |machine: &Machine, k: usize| machine.stack[at + k];
        let mut result: [u32; 2] = [0, 0];
        match native {
            Native::ObjectHashCode | Native::SystemIdentityHashCode => {
                result[0] = Self::identity_hash(arg(self, 0));
            }
            Native::ObjectGetClass => {
                let object = arg(self, 0);
                result[0] = self.mirror(self.heap[object as usize])?;
            }
            Native::ObjectClone => {
                let object = arg(self, 0) as usize;
                let class = self.heap[object];
                let flags = pkg.class_word(class, class::FLAGS);
                if flags & isa::FLAG_CLONEABLE == 0 {
                    let message = self.class_name(class).replace('/', ".");
                    self.throw_vm(wk.clone_not_supported, Cause::Message(message), call_pc)?;
                    return Ok(false);
                }
                let words = if flags & isa::FLAG_ARRAY != 0 {
                    let length = self.heap[object + 1];
                    self.add_allocations(1 + u64::from(length));
                    isa::ARRAY_HEADER_WORDS as usize
                        + length as usize * isa::element_words(pkg.class_word(class, class::ELEMENT)) as usize
                } else {
                    self.add_allocations(1);
                    1 + pkg.class_word(class, class::INSTANCE_WORDS) as usize
                };
                let copy = self.alloc(words as u64)? as usize;
                self.heap.copy_within(object..object + words, copy);
                result[0] = copy as u32;
            }
            Native::SystemArraycopy => {
                let (source, source_pos, dest, dest_pos, length) = (
                    arg(self, 0),
                    arg(self, 1) as i32,
                    arg(self, 2),
                    arg(self, 3) as i32,
                    arg(self, 4) as i32,
                );
                if let Some((class, cause)) = self.arraycopy(source, source_pos, dest, dest_pos, length) {
                    self.sp = at;
                    self.throw_vm(class, cause, call_pc)?;
                    return Ok(false);
                }
            }
            Native::NoOp => {}
            Native::FloatToRawIntBits | Native::IntBitsToFloat => result[0] = arg(self, 0),
            Native::DoubleToRawLongBits | Native::LongBitsToDouble => result = [arg(self, 0), arg(self, 1)],
            Native::SqrtDouble => {
                let value = f64::from_bits(u64::from(arg(self, 0)) | u64::from(arg(self, 1)) << 32);
                result = split(value.sqrt().to_bits());
            }
            Native::AbsDouble => {
                let value = f64::from_bits(u64::from(arg(self, 0)) | u64::from(arg(self, 1)) << 32);
                result = split(value.abs().to_bits());
            }
            Native::FmaDouble => {
                let read = |k: usize| f64::from_bits(u64::from(arg(self, k)) | u64::from(arg(self, k + 1)) << 32);
                result = split(read(0).mul_add(read(2), read(4)).to_bits());
            }
            Native::FmaFloat => {
                let read = |k: usize| f32::from_bits(arg(self, k));
                result[0] = read(0).mul_add(read(1), read(2)).to_bits();
            }
            Native::ClassDesiredAssertionStatus | Native::ReturnFalse | Native::ClassIsHidden => result[0] = 0,
            Native::ReturnNull | Native::ReturnZeroLong => {}
            Native::ClassGetPrimitiveClass => {
                let name = arg(self, 0);
                if name == 0 {
                    self.sp = at;
                    self.throw_null(call_pc)?;
                    return Ok(false);
                }
                let keyword = String::from_utf16_lossy(&self.string_units(name));
                let kind = crate::package::layout::keyword_kind(&keyword);
                let class = wk.primitives.get(kind as usize).copied().unwrap_or(NONE);
                if kind != isa::ELEM_NONE && class != NONE {
                    result[0] = self.mirror(class)?;
                }
            }
            Native::ClassIsArray | Native::ClassIsPrimitive | Native::ClassIsInterface => {
                let class = self.mirror_class(arg(self, 0));
                let flag = match native {
                    Native::ClassIsArray => isa::FLAG_ARRAY,
                    Native::ClassIsPrimitive => isa::FLAG_PRIMITIVE,
                    _ => isa::FLAG_INTERFACE,
                };
                result[0] = u32::from(pkg.class_word(class, class::FLAGS) & flag != 0);
            }
            Native::ClassIsInstance => {
                let class = self.mirror_class(arg(self, 0));
                let object = arg(self, 1);
                result[0] = u32::from(object != 0 && self.is_instance(object, class));
            }
            Native::ClassIsAssignableFrom => {
                let other = arg(self, 1);
                if other == 0 {
                    self.sp = at;
                    self.throw_null(call_pc)?;
                    return Ok(false);
                }
                let (to, from) = (self.mirror_class(arg(self, 0)), self.mirror_class(other));
                let primitive =
                    (pkg.class_word(to, class::FLAGS) | pkg.class_word(from, class::FLAGS)) & isa::FLAG_PRIMITIVE != 0;
                result[0] = u32::from(if primitive {
                    to == from
                } else {
                    self.assignable(from, to)
                });
            }
            Native::ClassGetSuperclass => {
                let class = self.mirror_class(arg(self, 0));
                let flags = pkg.class_word(class, class::FLAGS);
                let superclass = pkg.class_word(class, class::SUPER);
                if flags & (isa::FLAG_INTERFACE | isa::FLAG_PRIMITIVE) == 0 && superclass != NONE {
                    result[0] = self.mirror(superclass)?;
                }
            }
            Native::ClassInitClassName => {
                let mirror = arg(self, 0);
                let class = self.mirror_class(mirror);
                let name = self.class_name(class).replace('/', ".");
                let units: Vec<u16> = name.encode_utf16().collect();
                let string = self.new_string(&units)?;
                if wk.class_name != NONE {
                    let at = mirror as usize + 1 + wk.class_name as usize;
                    self.mark(at);
                    self.heap[at] = string;
                }
                result[0] = string;
            }
            Native::ArrayNewArray => {
                let (component, length) = (arg(self, 0), arg(self, 1) as i32);
                if component == 0 {
                    self.sp = at;
                    self.throw_null(call_pc)?;
                    return Ok(false);
                }
                let component_class = self.mirror_class(component);
                if pkg.class_word(component_class, class::ELEMENT) == isa::ELEM_VOID
                    && pkg.class_word(component_class, class::FLAGS) & isa::FLAG_PRIMITIVE != 0
                {
                    self.sp = at;
                    self.throw_vm(wk.illegal_argument, Cause::Message(String::new()), call_pc)?;
                    return Ok(false);
                }
                if length < 0 {
                    self.sp = at;
                    self.throw_vm(wk.negative_array_size, Cause::Message(length.to_string()), call_pc)?;
                    return Ok(false);
                }
                let array_class = self.array_class_of(component_class)?;
                let array = self.new_array(array_class, length as u32)?;
                self.add_allocations(1 + length as u64);
                result[0] = array;
            }
            Native::ArrayGetLength => {
                let array = arg(self, 0);
                if array == 0 {
                    self.sp = at;
                    self.throw_null(call_pc)?;
                    return Ok(false);
                }
                if pkg.class_word(self.heap[array as usize], class::FLAGS) & isa::FLAG_ARRAY == 0 {
                    self.sp = at;
                    let message = "Argument is not an array".to_owned();
                    self.throw_vm(wk.illegal_argument, Cause::Message(message), call_pc)?;
                    return Ok(false);
                }
                result[0] = self.heap[array as usize + 1];
            }
            Native::StringIntern => {
                let string = arg(self, 0);
                let units = self.string_units(string);
                result[0] = match pkg.literals.get(&units) {
                    Some(&literal) => literal,
                    None => {
                        let found = self.interned.iter().copied().find(|&s| self.string_units(s) == units);
                        match found {
                            Some(existing) => existing,
                            None => {
                                self.interned.push(string);
                                string
                            }
                        }
                    }
                };
            }
            Native::ThrowableFillInStackTrace => result[0] = arg(self, 0),
            Native::UnsafeArrayBaseOffset => result[0] = 16,
            Native::ReturnTrue => result[0] = 1,
            Native::UnsafeObjectFieldOffset
            | Native::UnsafeGetInt
            | Native::UnsafePutInt
            | Native::UnsafeCompareAndSetInt
            | Native::UnsafeGetLong
            | Native::UnsafePutLong
            | Native::UnsafeCompareAndSetLong => result = self.unsafe_field(native, at)?,
            Native::UnsafeArrayIndexScale => {
                let class = self.mirror_class(arg(self, 1));
                result[0] = match pkg.class_word(class, class::ELEMENT) {
                    isa::ELEM_BOOLEAN | isa::ELEM_BYTE => 1,
                    isa::ELEM_CHAR | isa::ELEM_SHORT => 2,
                    isa::ELEM_LONG | isa::ELEM_DOUBLE => 8,
                    _ => 4,
                };
            }
        }
        let result_words = pkg.method_word(m, method::RESULT_WORDS) as usize;
        self.stack[at..at + result_words].copy_from_slice(&result[..result_words]);
        self.sp = at + result_words;
        Ok(true)
    }

    /// The array class whose component is `component`, when it was packaged.
    fn array_class_of(&self, component: u32) -> Result<u32, Exit> {
        let name = self.class_name(component);
        let descriptor = if self.pkg.class_word(component, class::FLAGS) & isa::FLAG_PRIMITIVE != 0 {
            format!("[{}", crate::package::closure::prim_descriptor(name))
        } else {
            crate::package::closure::array_of(name)
        };
        self.pkg
            .class_handle(&descriptor)
            .ok_or_else(|| Exit::Refused(format!("array type {descriptor} was not packaged")))
    }

    /// `System.arraycopy`: copies, or says which exception HotSpot raises.
    fn arraycopy(
        &mut self,
        source: u32,
        source_pos: i32,
        dest: u32,
        dest_pos: i32,
        length: i32,
    ) -> Option<(u32, Cause)> {
        let pkg = self.pkg;
        let wk = &pkg.well_known;
        if source == 0 || dest == 0 {
            return Some((wk.null_pointer, Cause::None));
        }
        let (source_class, dest_class) = (self.heap[source as usize], self.heap[dest as usize]);
        let is_array = |class: u32| pkg.class_word(class, class::FLAGS) & isa::FLAG_ARRAY != 0;
        if !is_array(source_class) || !is_array(dest_class) {
            return Some((
                wk.array_store,
                Cause::Message("arraycopy: source or destination is not an array".into()),
            ));
        }
        let (source_kind, dest_kind) = (
            pkg.class_word(source_class, class::ELEMENT),
            pkg.class_word(dest_class, class::ELEMENT),
        );
        if source_kind != dest_kind {
            return Some((wk.array_store, Cause::Message("arraycopy: type mismatch".into())));
        }
        let (source_length, dest_length) = (self.heap[source as usize + 1], self.heap[dest as usize + 1]);
        if source_pos < 0
            || dest_pos < 0
            || length < 0
            || source_pos as u64 + length as u64 > u64::from(source_length)
            || dest_pos as u64 + length as u64 > u64::from(dest_length)
        {
            return Some((
                wk.array_index,
                Cause::Message("arraycopy: last index out of bounds".into()),
            ));
        }
        if length == 0 {
            return None;
        }
        let width = isa::element_words(source_kind) as usize;
        let from = source as usize + 2 + source_pos as usize * width;
        let to = dest as usize + 2 + dest_pos as usize * width;
        let words = length as usize * width;
        let element_checks = source_kind == isa::ELEM_REF
            && !self.assignable(
                pkg.class_word(source_class, class::COMPONENT),
                pkg.class_word(dest_class, class::COMPONENT),
            );
        self.mark_range(to, to + words);
        if !element_checks {
            self.heap.copy_within(from..from + words, to);
            return None;
        }
        let component = pkg.class_word(dest_class, class::COMPONENT);
        for k in 0..length as usize {
            let element = self.heap[from + k];
            if element != 0 && !self.is_instance(element, component) {
                return Some((
                    wk.array_store,
                    Cause::Message("arraycopy: element type mismatch".into()),
                ));
            }
            self.heap[to + k] = element;
        }
        None
    }
}

fn split(bits: u64) -> [u32; 2] {
    [bits as u32, (bits >> 32) as u32]
}
