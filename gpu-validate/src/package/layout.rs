//! Layout: class records (supertypes, initialisation lists, field words), instance and static
//! field offsets, method records, and the initial heap with every string literal as a JDK 17
//! compact `String` (a `byte[] value` in Latin-1 or little-endian UTF-16 and a `coder`).
//!
//! **Objects are a class-handle word followed by their fields (superclass fields first, in
//! declaration order); arrays are a class-handle word, a length word and the elements; `long` and
//! `double` take two words everywhere; an array element of a type narrower than `int` takes one word
//! holding the value as the JVM pushes it after a load (sign- or zero-extended).**

use super::closure::{split_descriptor, Body, ClassKind, Closure, MethodEntry, MethodKey};
use super::{Package, WellKnown};
use crate::isa::{self, class, method, NONE};
use crate::source::{ClassInfo, ConstantValue};
use jresa_analyses::cost_model::RESOURCE_CLASS;
use jresa_analyses::ir::exceptions;
use std::collections::HashMap;

/// Offsets computed here and used by the encoder.
pub struct Layout {
    /// Absolute statics-area offsets of static fields: (class name, field name, descriptor).
    pub static_fields: HashMap<(String, String, String), u32>,
}

/// Words of a value of this field descriptor.
pub fn descriptor_words(descriptor: &str) -> u32 {
    match descriptor.as_bytes().first() {
        Some(b'J' | b'D') => 2,
        Some(b'V') => 0,
        _ => 1,
    }
}

/// The `ELEM_*` kind of a field descriptor.
pub fn descriptor_kind(descriptor: &str) -> u32 {
    match descriptor.as_bytes().first() {
        Some(b'Z') => isa::ELEM_BOOLEAN,
        Some(b'B') => isa::ELEM_BYTE,
        Some(b'C') => isa::ELEM_CHAR,
        Some(b'S') => isa::ELEM_SHORT,
        Some(b'I') => isa::ELEM_INT,
        Some(b'J') => isa::ELEM_LONG,
        Some(b'F') => isa::ELEM_FLOAT,
        Some(b'D') => isa::ELEM_DOUBLE,
        Some(b'V') => isa::ELEM_VOID,
        Some(b'L' | b'[') => isa::ELEM_REF,
        _ => isa::ELEM_NONE,
    }
}

/// The `ELEM_*` kind of a primitive keyword.
pub fn keyword_kind(keyword: &str) -> u32 {
    match super::closure::prim_descriptor(keyword) {
        "V" if keyword != "void" => isa::ELEM_NONE,
        descriptor => descriptor_kind(descriptor),
    }
}

/// Argument words (the receiver included) and result words of a method.
pub fn method_words(descriptor: &str, is_static: bool) -> (u32, u32) {
    let Some((params, ret)) = split_descriptor(descriptor) else {
        return (0, 0);
    };
    let args: u32 = params.iter().map(|p| descriptor_words(p)).sum::<u32>() + u32::from(!is_static);
    (args, descriptor_words(&ret))
}

/// Builds the heap words of a `String` with these UTF-16 units: a `byte[]` and the `String`
/// object, appended to `heap`; returns the `String`'s reference.
pub fn push_string(heap: &mut Vec<u32>, well_known: &WellKnown, string_words: u32, units: &[u16]) -> u32 {
    let latin1 = units.iter().all(|&u| u <= 0xFF);
    let bytes: Vec<u8> = if latin1 {
        units.iter().map(|&u| u as u8).collect()
    } else {
        units.iter().flat_map(|&u| [(u & 0xFF) as u8, (u >> 8) as u8]).collect()
    };
    let array = heap.len() as u32;
    heap.push(well_known.byte_array);
    heap.push(bytes.len() as u32);
    heap.extend(bytes.iter().map(|&b| b as i8 as i32 as u32));
    let string = heap.len() as u32;
    heap.push(well_known.string);
    let fields_start = heap.len();
    heap.extend(std::iter::repeat_n(0, string_words as usize));
    heap[fields_start + well_known.string_value as usize] = array;
    heap[fields_start + well_known.string_coder as usize] = u32::from(!latin1);
    string
}

/// Lays out the closure: class names, instance fields, statics, the well-known handles, class
/// records, the initial heap and statics, and method records, in that order.
pub fn lay_out(closure: &Closure) -> (Package, Layout) {
    let mut package = Package::default();
    let count = closure.classes.len();
    package.class_names = closure.classes.iter().map(|c| c.name.clone()).collect();
    package.class_library = closure
        .classes
        .iter()
        .map(|c| matches!(&c.kind, ClassKind::Normal(info) if info.library))
        .collect();

    // Instance fields, superclasses first.
    let mut instance_words = vec![0u32; count];
    let mut done = vec![false; count];
    for handle in 0..count {
        instance_layout(closure, handle as u32, &mut instance_words, &mut done, &mut package);
    }

    let (layout, statics) = lay_out_statics(closure);
    let wk = well_known(closure, &package, &instance_words);
    class_records(closure, &mut package, &instance_words, &statics.ranges, wk.object);

    // The initial heap: the null word, then the literals; then the initial statics.
    let string_words = string_words(&wk, &instance_words);
    package.initial_heap = vec![0];
    for units in &closure.literals {
        let reference = match string_words {
            Some(words) => push_string(&mut package.initial_heap, &wk, words, units),
            None => 0,
        };
        package.literals.insert(units.clone(), reference);
    }
    initial_statics(&mut package, statics, &wk, string_words);

    method_records(closure, &mut package);
    package.well_known = wk;
    (package, layout)
}

/// The handle of a packaged class, or `NONE`.
fn handle_of(closure: &Closure, name: &str) -> u32 {
    closure.class_index.get(name).copied().unwrap_or(NONE)
}

/// The handle of a packaged method, or `NONE`.
fn method_of(closure: &Closure, class_name: &str, name: &str, descriptor: &str) -> u32 {
    closure
        .method_index
        .get(&(class_name.to_owned(), name.to_owned(), descriptor.to_owned()))
        .copied()
        .unwrap_or(NONE)
}

/// The statics area: every class's static fields, one class after the other.
struct Statics {
    /// Per class: the first word of its static fields and their number of words.
    ranges: Vec<(u32, u32)>,
    /// Words of the whole area.
    words: u32,
    /// The `ConstantValue` initial values, by offset, in layout order.
    constants: Vec<(u32, ConstantValue)>,
}

/// Lays out the static fields of every class in declaration order.
fn lay_out_statics(closure: &Closure) -> (Layout, Statics) {
    let mut layout = Layout {
        static_fields: HashMap::new(),
    };
    let mut static_ranges = vec![(0u32, 0u32); closure.classes.len()];
    let mut statics_cursor = 0u32;
    let mut constant_values: Vec<(u32, ConstantValue)> = Vec::new();
    for (handle, entry) in closure.classes.iter().enumerate() {
        let ClassKind::Normal(info) = &entry.kind else {
            continue;
        };
        let start = statics_cursor;
        for field in info.fields.iter().filter(|f| f.is_static()) {
            layout.static_fields.insert(
                (info.name.clone(), field.name.clone(), field.descriptor.clone()),
                statics_cursor,
            );
            if let Some(value) = &field.constant {
                constant_values.push((statics_cursor, value.clone()));
            }
            statics_cursor += descriptor_words(&field.descriptor);
        }
        static_ranges[handle] = (start, statics_cursor - start);
    }
    let statics = Statics {
        ranges: static_ranges,
        words: statics_cursor,
        constants: constant_values,
    };
    (layout, statics)
}

/// The well-known handles and field offsets, once instance fields are laid out.
fn well_known(closure: &Closure, package: &Package, instance_words: &[u32]) -> WellKnown {
    let handle_of = |name: &str| handle_of(closure, name);
    let mut wk = WellKnown {
        object: handle_of("java/lang/Object"),
        string: handle_of("java/lang/String"),
        class: handle_of("java/lang/Class"),
        byte_array: handle_of("[B"),
        cloneable: handle_of("java/lang/Cloneable"),
        serializable: handle_of("java/io/Serializable"),
        error: handle_of("java/lang/Error"),
        null_pointer: handle_of(exceptions::NULL_POINTER),
        array_index: handle_of(exceptions::ARRAY_INDEX),
        arithmetic: handle_of(exceptions::ARITHMETIC),
        negative_array_size: handle_of(exceptions::NEGATIVE_ARRAY_SIZE),
        class_cast: handle_of(exceptions::CLASS_CAST),
        array_store: handle_of(exceptions::ARRAY_STORE),
        initializer_error: handle_of(exceptions::INITIALIZER_ERROR),
        no_class_def: handle_of(exceptions::NO_CLASS_DEF),
        clone_not_supported: handle_of(exceptions::CLONE_NOT_SUPPORTED),
        illegal_argument: handle_of(exceptions::ILLEGAL_ARGUMENT),
        primitives: [NONE; 11],
        ..WellKnown::default()
    };
    let field_offset = |class: &str, name: &str, descriptor: &str| {
        package
            .instance_fields
            .get(class)
            .and_then(|fields| fields.get(&(name.to_owned(), descriptor.to_owned())))
            .copied()
            .unwrap_or(NONE)
    };
    wk.string_value = field_offset("java/lang/String", "value", "[B");
    wk.string_coder = field_offset("java/lang/String", "coder", "B");
    wk.class_component_type = field_offset("java/lang/Class", "componentType", "Ljava/lang/Class;");
    wk.class_name = field_offset("java/lang/Class", "name", "Ljava/lang/String;");
    wk.mirror_handle = if wk.class == NONE {
        0
    } else {
        instance_words[wk.class as usize]
    };
    for (keyword, kind) in [
        ("boolean", isa::ELEM_BOOLEAN),
        ("byte", isa::ELEM_BYTE),
        ("char", isa::ELEM_CHAR),
        ("short", isa::ELEM_SHORT),
        ("int", isa::ELEM_INT),
        ("float", isa::ELEM_FLOAT),
        ("long", isa::ELEM_LONG),
        ("double", isa::ELEM_DOUBLE),
        ("void", isa::ELEM_VOID),
    ] {
        wk.primitives[kind as usize] = handle_of(keyword);
    }
    wk
}

/// The class records, with the supertype and initialisation lists they point into.
fn class_records(
    closure: &Closure,
    package: &mut Package,
    instance_words: &[u32],
    static_ranges: &[(u32, u32)],
    object: u32,
) {
    package.classes = vec![0; closure.classes.len() * isa::CLASS_WORDS];
    for (handle, entry) in closure.classes.iter().enumerate() {
        let mut record = [0u32; isa::CLASS_WORDS];
        record[class::SUPER] = NONE;
        record[class::CLINIT] = NONE;
        record[class::COMPONENT] = NONE;
        record[class::CTOR_VOID] = NONE;
        record[class::CTOR_STRING] = NONE;
        record[class::CTOR_THROWABLE] = NONE;
        let supers = match &entry.kind {
            ClassKind::Normal(info) => {
                record[class::INSTANCE_WORDS] = instance_words[handle];
                let (start, words) = static_ranges[handle];
                record[class::STATIC_BASE] = start;
                record[class::STATIC_WORDS] = words;
                normal_class_record(closure, handle as u32, info, &mut record, &mut package.init_lists);
                supertypes(closure, handle as u32)
            }
            ClassKind::Missing => {
                record[class::FLAGS] = isa::FLAG_MISSING;
                vec![handle as u32]
            }
            ClassKind::Array { component } => {
                array_class_record(closure, handle as u32, &entry.name, component, object, &mut record)
            }
            ClassKind::Primitive => {
                record[class::FLAGS] = isa::FLAG_PRIMITIVE;
                record[class::ELEMENT] = keyword_kind(&entry.name);
                vec![handle as u32]
            }
        };
        record[class::SUPERS_START] = package.supertypes.len() as u32;
        record[class::SUPERS_COUNT] = supers.len() as u32;
        package.supertypes.extend(supers);
        package.classes[handle * isa::CLASS_WORDS..(handle + 1) * isa::CLASS_WORDS].copy_from_slice(&record);
    }
}

/// The flags, superclass, initialisation list, `<clinit>` and exception constructors of a class
/// or interface; its initialisation list is appended to `init_lists`.
fn normal_class_record(
    closure: &Closure,
    handle: u32,
    info: &ClassInfo,
    record: &mut [u32; isa::CLASS_WORDS],
    init_lists: &mut Vec<u32>,
) {
    let mut flags = 0;
    if info.is_interface() {
        flags |= isa::FLAG_INTERFACE;
    }
    if info.access & crate::source::ACC_ABSTRACT != 0 {
        flags |= isa::FLAG_ABSTRACT;
    }
    if closure.is_subtype(&info.name, "java/lang/Cloneable") {
        flags |= isa::FLAG_CLONEABLE;
    }
    record[class::FLAGS] = flags;
    record[class::SUPER] = info.super_name.as_deref().map_or(NONE, |name| handle_of(closure, name));
    let chain = closure.init_chain(handle);
    record[class::INIT_START] = init_lists.len() as u32;
    record[class::INIT_COUNT] = chain.len() as u32;
    init_lists.extend(chain);
    let method_of = |name: &str, descriptor: &str| method_of(closure, &info.name, name, descriptor);
    record[class::CLINIT] = method_of("<clinit>", "()V");
    record[class::CTOR_VOID] = method_of("<init>", "()V");
    record[class::CTOR_STRING] = method_of("<init>", "(Ljava/lang/String;)V");
    record[class::CTOR_THROWABLE] = method_of("<init>", "(Ljava/lang/Throwable;)V");
}

/// A class or interface and every supertype of it, transitively.
fn supertypes(closure: &Closure, handle: u32) -> Vec<u32> {
    let mut supers: Vec<u32> = vec![handle];
    let mut pending = vec![handle];
    while let Some(current) = pending.pop() {
        if let Some(current_info) = closure.info(current) {
            for parent in current_info.super_name.iter().chain(&current_info.interfaces) {
                let parent_handle = handle_of(closure, parent);
                if parent_handle != NONE && !supers.contains(&parent_handle) {
                    supers.push(parent_handle);
                    pending.push(parent_handle);
                }
            }
        }
    }
    supers
}

/// The flags, element kind, component and dimensions of an array class; returns its supertypes
/// (itself, `Object`, `Cloneable` and `Serializable`).
fn array_class_record(
    closure: &Closure,
    handle: u32,
    name: &str,
    component: &str,
    object: u32,
    record: &mut [u32; isa::CLASS_WORDS],
) -> Vec<u32> {
    record[class::FLAGS] = isa::FLAG_ARRAY | isa::FLAG_CLONEABLE;
    record[class::SUPER] = object;
    let descriptor_after = &name[1..];
    record[class::ELEMENT] = descriptor_kind(descriptor_after);
    record[class::COMPONENT] = handle_of(closure, component);
    record[class::DIMENSIONS] = name.bytes().take_while(|&b| b == b'[').count() as u32;
    let mut supers = vec![handle];
    for name in ["java/lang/Object", "java/lang/Cloneable", "java/io/Serializable"] {
        let h = handle_of(closure, name);
        if h != NONE {
            supers.push(h);
        }
    }
    supers
}

/// The words of a `String`'s fields, when string objects can be built (`String`, `byte[]` and
/// both fields packaged).
fn string_words(wk: &WellKnown, instance_words: &[u32]) -> Option<u32> {
    let can_make_strings =
        wk.string != NONE && wk.byte_array != NONE && wk.string_value != NONE && wk.string_coder != NONE;
    can_make_strings.then(|| instance_words[wk.string as usize])
}

/// The initial statics: the `ConstantValue`s; a string constant that is not a literal yet gets a
/// `String` of its own in the initial heap.
fn initial_statics(package: &mut Package, statics: Statics, wk: &WellKnown, string_words: Option<u32>) {
    package.initial_statics = vec![0; statics.words as usize];
    for (offset, value) in statics.constants {
        let offset = offset as usize;
        match value {
            ConstantValue::Int(v) => package.initial_statics[offset] = v as u32,
            ConstantValue::Float(bits) => package.initial_statics[offset] = bits,
            ConstantValue::Long(v) => {
                package.initial_statics[offset] = v as u32;
                package.initial_statics[offset + 1] = (v >> 32) as u32;
            }
            ConstantValue::Double(bits) => {
                package.initial_statics[offset] = bits as u32;
                package.initial_statics[offset + 1] = (bits >> 32) as u32;
            }
            ConstantValue::String(text) => {
                let units: Vec<u16> = text.encode_utf16().collect();
                let reference = match (package.literals.get(&units), string_words) {
                    (Some(&r), _) => r,
                    (None, Some(words)) => {
                        let r = push_string(&mut package.initial_heap, wk, words, &units);
                        package.literals.insert(units, r);
                        r
                    }
                    (None, None) => 0,
                };
                package.initial_statics[offset] = reference;
            }
        }
    }
}

/// The method records (code methods get their entry procedure in `encode`), with the reasons of
/// refused methods.
fn method_records(closure: &Closure, package: &mut Package) {
    package.method_keys = closure.methods.iter().map(|m| m.key.clone()).collect();
    package.required_by = closure.methods.iter().map(|m| m.required_by).collect();
    package.methods = vec![0; closure.methods.len() * isa::METHOD_WORDS];
    for (id, entry) in closure.methods.iter().enumerate() {
        let record = method_record(closure, entry, &mut package.reasons);
        package.methods[id * isa::METHOD_WORDS..(id + 1) * isa::METHOD_WORDS].copy_from_slice(&record);
    }
}

/// The record of one method; a refused method's reason is appended to `reasons`.
fn method_record(closure: &Closure, entry: &MethodEntry, reasons: &mut Vec<String>) -> [u32; isa::METHOD_WORDS] {
    let mut record = [0u32; isa::METHOD_WORDS];
    let (class_name, name, descriptor): &MethodKey = &entry.key;
    record[method::CLASS] = handle_of(closure, class_name);
    let (args, result) = method_words(descriptor, entry.is_static);
    record[method::ARG_WORDS] = args;
    record[method::RESULT_WORDS] = result;
    let mut flags = 0;
    if entry.is_static {
        flags |= isa::MFLAG_STATIC;
    }
    if class_name == RESOURCE_CLASS && name == "consume" {
        flags |= if descriptor == "(I)V" {
            isa::MFLAG_CONSUME_UNITS
        } else {
            isa::MFLAG_CONSUME_ONE
        };
    }
    record[method::FLAGS] = flags;
    match &entry.body {
        Body::Code { .. } | Body::Pending => {
            record[method::KIND] = isa::KIND_CODE;
            record[method::TARGET] = NONE;
        }
        Body::Native(native) => {
            record[method::KIND] = isa::KIND_NATIVE;
            record[method::TARGET] = native.id();
            // A marker method missing from the class path stands for its `return`.
            if class_name == RESOURCE_CLASS && closure.info_by_name(class_name).is_none() {
                record[method::NATIVE_BYTECODES] = 1;
            }
        }
        Body::Refused(reason) => {
            record[method::KIND] = isa::KIND_REFUSED;
            record[method::TARGET] = reasons.len() as u32;
            reasons.push(reason.clone());
        }
    }
    record
}

/// Computes the instance layout of a class (its superclass's first) into `package.instance_fields`.
fn instance_layout(closure: &Closure, handle: u32, words: &mut [u32], done: &mut [bool], package: &mut Package) {
    if done[handle as usize] {
        return;
    }
    done[handle as usize] = true;
    let ClassKind::Normal(info) = &closure.classes[handle as usize].kind else {
        return;
    };
    let mut fields: HashMap<(String, String), u32> = HashMap::new();
    let mut cursor = 0;
    if let Some(super_handle) = info.super_name.as_ref().and_then(|s| closure.class_index.get(s)) {
        instance_layout(closure, *super_handle, words, done, package);
        cursor = words[*super_handle as usize];
        let super_name = &closure.classes[*super_handle as usize].name;
        if let Some(inherited) = package.instance_fields.get(super_name) {
            fields = inherited.clone();
        }
    }
    for field in info.fields.iter().filter(|f| !f.is_static()) {
        fields.insert((field.name.clone(), field.descriptor.clone()), cursor);
        cursor += descriptor_words(&field.descriptor);
    }
    words[handle as usize] = cursor;
    package.instance_fields.insert(info.name.clone(), fields);
}
