//! Values in and out of the heap: instance inputs ([`Value`]) are built as heap objects of the
//! parameter types, and results are read back into [`Rendered`] form.

use super::{Exit, Machine};
use crate::isa::{self, class, NONE};
use crate::package::closure::class_of_descriptor;
use crate::value::{Rendered, Value};

/// Rendering stops at this depth of nested arrays (deeper arrays render as objects).
const MAX_RENDER_DEPTH: u32 = 16;

/// Boxed primitive classes and the descriptor of their `value` field.
const BOXES: &[(&str, &str)] = &[
    ("java/lang/Integer", "I"),
    ("java/lang/Long", "J"),
    ("java/lang/Short", "S"),
    ("java/lang/Byte", "B"),
    ("java/lang/Character", "C"),
    ("java/lang/Boolean", "Z"),
    ("java/lang/Float", "F"),
    ("java/lang/Double", "D"),
];

/// The words of an argument that needs no heap (a primitive or `null`) of field type
/// `descriptor`; `None` for anything else.
pub(crate) fn plain_input(value: &Value, descriptor: &str) -> Option<Vec<u32>> {
    let first = descriptor.as_bytes().first().copied().unwrap_or(b'V');
    let fits = |v: i32| match first {
        b'Z' => (0..=1).contains(&v),
        b'B' => i8::try_from(v).is_ok(),
        b'C' => u16::try_from(v).is_ok(),
        b'S' => i16::try_from(v).is_ok(),
        _ => true,
    };
    match (value, first) {
        (Value::Int(v), b'I' | b'Z' | b'B' | b'C' | b'S') if fits(*v) => Some(vec![*v as u32]),
        (Value::Long(v), b'J') => Some(vec![*v as u32, (*v >> 32) as u32]),
        (Value::Float(bits), b'F') => Some(vec![*bits]),
        (Value::Double(bits), b'D') => Some(vec![*bits as u32, (*bits >> 32) as u32]),
        (Value::Null, b'L' | b'[') => Some(vec![0]),
        _ => None,
    }
}

impl Machine<'_> {
    /// The words of an argument of field type `descriptor`, building objects in the heap.
    pub(crate) fn input(&mut self, value: &Value, descriptor: &str) -> Result<Vec<u32>, String> {
        if let Some(words) = plain_input(value, descriptor) {
            return Ok(words);
        }
        let first = descriptor.as_bytes().first().copied().unwrap_or(b'V');
        match (value, first) {
            (_, b'L' | b'[') => {
                let target = class_of_descriptor(descriptor).ok_or("malformed descriptor")?;
                let reference = self.input_object(value).map_err(|e| match e {
                    Exit::OutOfMemory => "the inputs do not fit the heap".to_owned(),
                    Exit::Refused(reason) => reason,
                    other => format!("{other:?}"),
                })?;
                let target_class = self
                    .pkg
                    .class_handle(&target)
                    .ok_or_else(|| format!("type {target} was not packaged"))?;
                if !self.is_instance(reference, target_class) {
                    return Err(format!("the value is not a {target}"));
                }
                Ok(vec![reference])
            }
            _ => Err(format!("a {value:?} does not fit type {descriptor}")),
        }
    }

    /// Builds a reference input in the heap.
    fn input_object(&mut self, value: &Value) -> Result<u32, Exit> {
        let refuse = |message: String| Exit::Refused(message);
        match value {
            Value::Null => Ok(0),
            Value::Str(units) => self.new_string(units),
            Value::Array { descriptor, elements } => {
                let class = self
                    .pkg
                    .class_handle(descriptor)
                    .ok_or_else(|| refuse(format!("array type {descriptor} was not packaged")))?;
                if self.pkg.class_word(class, class::FLAGS) & isa::FLAG_ARRAY == 0 {
                    return Err(refuse(format!("{descriptor} is not an array type")));
                }
                let array = self.new_array(class, elements.len() as u32)?;
                self.input_objects.push(array);
                let component = &descriptor[1..];
                let width = isa::element_words(self.pkg.class_word(class, class::ELEMENT)) as usize;
                for (k, element) in elements.iter().enumerate() {
                    let words = self.input(element, component).map_err(refuse)?;
                    let at = array as usize + 2 + k * width;
                    self.heap[at..at + words.len()].copy_from_slice(&words);
                }
                Ok(array)
            }
            Value::Object { class, fields } => {
                let handle = self
                    .pkg
                    .class_handle(class)
                    .filter(|&h| !self.pkg.is_missing(h))
                    .ok_or_else(|| refuse(format!("class {class} was not packaged")))?;
                let flags = self.pkg.class_word(handle, class::FLAGS);
                if flags & (isa::FLAG_ARRAY | isa::FLAG_PRIMITIVE | isa::FLAG_INTERFACE | isa::FLAG_ABSTRACT) != 0 {
                    return Err(refuse(format!("{class} cannot have instances")));
                }
                let object = self.new_object(handle)?;
                self.input_objects.push(object);
                let layout = self.pkg.instance_fields.get(class).cloned().unwrap_or_default();
                for (name, field_value) in fields {
                    let ((_, field_descriptor), offset) = layout
                        .iter()
                        .filter(|((n, _), _)| n == name)
                        .max_by_key(|(_, &offset)| offset)
                        .ok_or_else(|| refuse(format!("{class} has no field {name}")))?;
                    let words = self.input(field_value, field_descriptor).map_err(refuse)?;
                    let at = object as usize + 1 + *offset as usize;
                    self.heap[at..at + words.len()].copy_from_slice(&words);
                }
                Ok(object)
            }
            Value::Ref(k) => self.input_objects.get(*k as usize).copied().ok_or_else(|| {
                refuse(format!(
                    "reference @{k} names no object built before it ({} so far)",
                    self.input_objects.len()
                ))
            }),
            other => Err(refuse(format!("{other:?} is not a reference"))),
        }
    }

    /// Renders a value of field type `descriptor` held in `words`.
    pub(crate) fn render(&self, words: &[u32], descriptor: &str) -> Rendered {
        let word = |k: usize| words.get(k).copied().unwrap_or(0);
        let long = || u64::from(word(0)) | u64::from(word(1)) << 32;
        match descriptor.as_bytes().first() {
            Some(b'V') | None => Rendered::Void,
            Some(&ty @ (b'I' | b'Z' | b'B' | b'C' | b'S')) => Rendered::Int {
                ty: ty as char,
                value: word(0) as i32,
            },
            Some(b'J') => Rendered::Long(long() as i64),
            Some(b'F') => Rendered::Float(canonical_float(word(0))),
            Some(b'D') => Rendered::Double(canonical_double(long())),
            _ => self.render_reference(word(0), 0),
        }
    }

    fn render_reference(&self, reference: u32, depth: u32) -> Rendered {
        if reference == 0 {
            return Rendered::Null;
        }
        let pkg = self.pkg;
        let class = self.heap[reference as usize];
        let name = self.class_name(class);
        if class == pkg.well_known.string && pkg.well_known.string_value != NONE {
            return Rendered::Str(self.string_units(reference));
        }
        let flags = pkg.class_word(class, class::FLAGS);
        if flags & isa::FLAG_ARRAY != 0 && depth < MAX_RENDER_DEPTH {
            let length = self.heap[reference as usize + 1] as usize;
            let component = &name[1..];
            let width = isa::element_words(pkg.class_word(class, class::ELEMENT)) as usize;
            let elements = (0..length)
                .map(|k| {
                    let at = reference as usize + 2 + k * width;
                    let element = &self.heap[at..at + width];
                    if component.starts_with('L') || component.starts_with('[') {
                        self.render_reference(element[0], depth + 1)
                    } else {
                        self.render(element, component)
                    }
                })
                .collect();
            return Rendered::Array {
                descriptor: name.to_owned(),
                elements,
            };
        }
        if let Some((_, field_descriptor)) = BOXES.iter().find(|(box_class, _)| *box_class == name) {
            let offset = pkg
                .instance_fields
                .get(name)
                .and_then(|fields| fields.get(&("value".to_owned(), (*field_descriptor).to_owned())));
            if let Some(&offset) = offset {
                let at = reference as usize + 1 + offset as usize;
                let value = self.render(&self.heap[at..(at + 2).min(self.heap.len())], field_descriptor);
                return Rendered::Boxed {
                    class: name.to_owned(),
                    value: Box::new(value),
                };
            }
        }
        Rendered::Object { class: name.to_owned() }
    }
}

/// `Float.floatToIntBits`: every NaN as `0x7fc00000`.
pub fn canonical_float(bits: u32) -> u32 {
    if f32::from_bits(bits).is_nan() {
        0x7fc0_0000
    } else {
        bits
    }
}

/// `Double.doubleToLongBits`: every NaN as `0x7ff8000000000000`.
pub fn canonical_double(bits: u64) -> u64 {
    if f64::from_bits(bits).is_nan() {
        0x7ff8_0000_0000_0000
    } else {
        bits
    }
}
