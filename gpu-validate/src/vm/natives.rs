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
        let at = self.sp - pkg.method_word(m, method::ARG_WORDS) as usize;
        let arg = |machine: &Machine, k: usize| machine.stack[at + k];
        let double = |machine: &Machine, k: usize| {
            f64::from_bits(u64::from(arg(machine, k)) | u64::from(arg(machine, k + 1)) << 32)
        };
        let returned = match native {
            // java.lang.Object, System and Throwable.
            Native::ObjectHashCode | Native::SystemIdentityHashCode => word(Self::identity_hash(arg(self, 0))),
            Native::ObjectGetClass => {
                let object = arg(self, 0);
                word(self.mirror(self.heap[object as usize])?)
            }
            Native::ObjectClone => self.clone_object(arg(self, 0), call_pc)?,
            Native::SystemArraycopy => self.system_arraycopy(at, call_pc)?,
            Native::ThrowableFillInStackTrace => word(arg(self, 0)),
            // Constants.
            Native::NoOp | Native::ReturnNull | Native::ReturnZeroLong => Some([0, 0]),
            Native::ClassDesiredAssertionStatus | Native::ReturnFalse | Native::ClassIsHidden => word(0),
            Native::ReturnTrue => word(1),
            // Numbers.
            Native::FloatToRawIntBits | Native::IntBitsToFloat => word(arg(self, 0)),
            Native::DoubleToRawLongBits | Native::LongBitsToDouble => Some([arg(self, 0), arg(self, 1)]),
            Native::SqrtDouble => Some(split(double(self, 0).sqrt().to_bits())),
            Native::AbsDouble => Some(split(double(self, 0).abs().to_bits())),
            Native::FmaDouble => Some(split(
                double(self, 0).mul_add(double(self, 2), double(self, 4)).to_bits(),
            )),
            Native::FmaFloat => {
                let read = |k: usize| f32::from_bits(arg(self, k));
                word(read(0).mul_add(read(1), read(2)).to_bits())
            }
            // java.lang.Class.
            Native::ClassGetPrimitiveClass => self.primitive_class(at, call_pc)?,
            Native::ClassIsArray => word(self.class_has_flag(arg(self, 0), isa::FLAG_ARRAY)),
            Native::ClassIsPrimitive => word(self.class_has_flag(arg(self, 0), isa::FLAG_PRIMITIVE)),
            Native::ClassIsInterface => word(self.class_has_flag(arg(self, 0), isa::FLAG_INTERFACE)),
            Native::ClassIsInstance => {
                let class = self.mirror_class(arg(self, 0));
                let object = arg(self, 1);
                word(u32::from(object != 0 && self.is_instance(object, class)))
            }
            Native::ClassIsAssignableFrom => self.is_assignable_from(at, call_pc)?,
            Native::ClassGetSuperclass => word(self.superclass_mirror(arg(self, 0))?),
            Native::ClassInitClassName => word(self.init_class_name(arg(self, 0))?),
            // java.lang.reflect.Array and String.
            Native::ArrayNewArray => self.reflective_new_array(at, call_pc)?,
            Native::ArrayGetLength => self.reflective_array_length(at, call_pc)?,
            Native::StringIntern => word(self.intern(arg(self, 0))),
            // jdk.internal.misc.Unsafe.
            Native::UnsafeArrayBaseOffset => word(16),
            Native::UnsafeArrayIndexScale => word(self.array_index_scale(arg(self, 1))),
            Native::UnsafeObjectFieldOffset
            | Native::UnsafeGetInt
            | Native::UnsafePutInt
            | Native::UnsafeCompareAndSetInt
            | Native::UnsafeGetLong
            | Native::UnsafePutLong
            | Native::UnsafeCompareAndSetLong => Some(self.unsafe_field(native, at)?),
        };
        let Some(result) = returned else {
            return Ok(false);
        };
        let result_words = pkg.method_word(m, method::RESULT_WORDS) as usize;
        self.stack[at..at + result_words].copy_from_slice(&result[..result_words]);
        self.sp = at + result_words;
        Ok(true)
    }

    /// Pops the arguments of a native (they start at `at`) and throws a new `class` at the
    /// invoke `call_pc`.
    fn raise_in_native(&mut self, at: usize, class: u32, cause: Cause, call_pc: usize) -> Result<Returned, Exit> {
        self.sp = at;
        self.throw_vm(class, cause, call_pc)?;
        Ok(None)
    }

    /// `Object.clone`: a shallow copy, or `CloneNotSupportedException` for an object whose class
    /// is not `Cloneable`.
    fn clone_object(&mut self, object: u32, call_pc: usize) -> Result<Returned, Exit> {
        let pkg = self.pkg;
        let object = object as usize;
        let class = self.heap[object];
        let flags = pkg.class_word(class, class::FLAGS);
        if flags & isa::FLAG_CLONEABLE == 0 {
            let message = self.class_name(class).replace('/', ".");
            self.throw_vm(pkg.well_known.clone_not_supported, Cause::Message(message), call_pc)?;
            return Ok(None);
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
        Ok(word(copy as u32))
    }

    /// `System.arraycopy(source, sourcePos, dest, destPos, length)`, arguments from `at`.
    fn system_arraycopy(&mut self, at: usize, call_pc: usize) -> Result<Returned, Exit> {
        let arg = |k: usize| self.stack[at + k];
        let (source, source_pos, dest, dest_pos, length) =
            (arg(0), arg(1) as i32, arg(2), arg(3) as i32, arg(4) as i32);
        if let Some((class, cause)) = self.arraycopy(source, source_pos, dest, dest_pos, length) {
            return self.raise_in_native(at, class, cause, call_pc);
        }
        Ok(Some([0, 0]))
    }

    /// `Class.getPrimitiveClass(name)`: the mirror of the primitive class of that name, or null.
    fn primitive_class(&mut self, at: usize, call_pc: usize) -> Result<Returned, Exit> {
        let wk = &self.pkg.well_known;
        let name = self.stack[at];
        if name == 0 {
            return self.raise_in_native(at, wk.null_pointer, Cause::None, call_pc);
        }
        let keyword = String::from_utf16_lossy(&self.string_units(name));
        let kind = crate::package::layout::keyword_kind(&keyword);
        let class = wk.primitives.get(kind as usize).copied().unwrap_or(NONE);
        if kind != isa::ELEM_NONE && class != NONE {
            return Ok(word(self.mirror(class)?));
        }
        Ok(word(0))
    }

    /// Whether the class of `mirror` has `flag` (`Class.isArray`, `isPrimitive`, `isInterface`).
    fn class_has_flag(&self, mirror: u32, flag: u32) -> u32 {
        let class = self.mirror_class(mirror);
        u32::from(self.pkg.class_word(class, class::FLAGS) & flag != 0)
    }

    /// `Class.isAssignableFrom(other)`, arguments from `at`.
    fn is_assignable_from(&mut self, at: usize, call_pc: usize) -> Result<Returned, Exit> {
        let pkg = self.pkg;
        let other = self.stack[at + 1];
        if other == 0 {
            return self.raise_in_native(at, pkg.well_known.null_pointer, Cause::None, call_pc);
        }
        let (to, from) = (self.mirror_class(self.stack[at]), self.mirror_class(other));
        let primitive =
            (pkg.class_word(to, class::FLAGS) | pkg.class_word(from, class::FLAGS)) & isa::FLAG_PRIMITIVE != 0;
        Ok(word(u32::from(if primitive {
            to == from
        } else {
            self.assignable(from, to)
        })))
    }

    /// `Class.getSuperclass`: the mirror of the superclass, or null for interfaces, primitive
    /// classes and `Object`.
    fn superclass_mirror(&mut self, mirror: u32) -> Result<u32, Exit> {
        let pkg = self.pkg;
        let class = self.mirror_class(mirror);
        let flags = pkg.class_word(class, class::FLAGS);
        let superclass = pkg.class_word(class, class::SUPER);
        if flags & (isa::FLAG_INTERFACE | isa::FLAG_PRIMITIVE) == 0 && superclass != NONE {
            return self.mirror(superclass);
        }
        Ok(0)
    }

    /// `Class.initClassName`: the binary name as a new `String`, also stored in the mirror's
    /// `name` field.
    fn init_class_name(&mut self, mirror: u32) -> Result<u32, Exit> {
        let wk = &self.pkg.well_known;
        let class = self.mirror_class(mirror);
        let name = self.class_name(class).replace('/', ".");
        let units: Vec<u16> = name.encode_utf16().collect();
        let string = self.new_string(&units)?;
        if wk.class_name != NONE {
            let at = mirror as usize + 1 + wk.class_name as usize;
            self.mark(at);
            self.heap[at] = string;
        }
        Ok(string)
    }

    /// `Array.newArray(componentType, length)`, arguments from `at`.
    fn reflective_new_array(&mut self, at: usize, call_pc: usize) -> Result<Returned, Exit> {
        let pkg = self.pkg;
        let wk = &pkg.well_known;
        let (component, length) = (self.stack[at], self.stack[at + 1] as i32);
        if component == 0 {
            return self.raise_in_native(at, wk.null_pointer, Cause::None, call_pc);
        }
        let component_class = self.mirror_class(component);
        if pkg.class_word(component_class, class::ELEMENT) == isa::ELEM_VOID
            && pkg.class_word(component_class, class::FLAGS) & isa::FLAG_PRIMITIVE != 0
        {
            return self.raise_in_native(at, wk.illegal_argument, Cause::Message(String::new()), call_pc);
        }
        if length < 0 {
            return self.raise_in_native(at, wk.negative_array_size, Cause::Message(length.to_string()), call_pc);
        }
        let array_class = self.array_class_of(component_class)?;
        let array = self.new_array(array_class, length as u32)?;
        self.add_allocations(1 + length as u64);
        Ok(word(array))
    }

    /// `Array.getLength(array)`, argument at `at`.
    fn reflective_array_length(&mut self, at: usize, call_pc: usize) -> Result<Returned, Exit> {
        let wk = &self.pkg.well_known;
        let array = self.stack[at];
        if array == 0 {
            return self.raise_in_native(at, wk.null_pointer, Cause::None, call_pc);
        }
        if self.pkg.class_word(self.heap[array as usize], class::FLAGS) & isa::FLAG_ARRAY == 0 {
            let message = "Argument is not an array".to_owned();
            return self.raise_in_native(at, wk.illegal_argument, Cause::Message(message), call_pc);
        }
        Ok(word(self.heap[array as usize + 1]))
    }

    /// `String.intern`: the literal with the same characters, else the first string interned with
    /// them, else `string` itself (which is interned from now on).
    fn intern(&mut self, string: u32) -> u32 {
        let units = self.string_units(string);
        match self.pkg.literals.get(&units) {
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
        }
    }

    /// `Unsafe.arrayIndexScale0`: the bytes of an element of the array class of `mirror`.
    fn array_index_scale(&self, mirror: u32) -> u32 {
        let class = self.mirror_class(mirror);
        match self.pkg.class_word(class, class::ELEMENT) {
            isa::ELEM_BOOLEAN | isa::ELEM_BYTE => 1,
            isa::ELEM_CHAR | isa::ELEM_SHORT => 2,
            isa::ELEM_LONG | isa::ELEM_DOUBLE => 8,
            _ => 4,
        }
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

/// What a native did: `Some` of its result words (low first; as many as the method returns are
/// used) when it returned normally, `None` when it raised an exception (already thrown).
type Returned = Option<[u32; 2]>;

/// A one-word result.
fn word(value: u32) -> Returned {
    Some([value, 0])
}

fn split(bits: u64) -> [u32; 2] {
    [bits as u32, (bits >> 32) as u32]
}
