//! Reading an instance's arguments back from the heap after it ran, as [`Value`]s that a later
//! instance can start from (the states of sequence exploration, GVM Fig. 7).
//!
//! **Objects and arrays are numbered in the order `Value::Ref` counts them when the values are built
//! again (argument by argument, depth first, each before its fields or elements, fields by word
//! offset), so a captured state builds into a heap of the same shape, sharing and cycles included.
//! Strings are captured by content.**

use super::Machine;
use crate::isa::{self, class};
use crate::value::Value;
use std::collections::HashMap;

/// Objects and arrays a captured state may hold, at most (a guard against runaway structures).
pub const MAX_CAPTURED_OBJECTS: usize = 4096;

impl Machine<'_> {
    /// The state of each argument after the instance ran.
    pub(crate) fn capture_arguments(&self, args: &[Value]) -> Result<Vec<Value>, String> {
        let mut numbered: HashMap<u32, u32> = HashMap::new();
        args.iter()
            .zip(&self.input_roots)
            .map(|(value, &root)| match value {
                Value::Null | Value::Str(_) | Value::Array { .. } | Value::Object { .. } | Value::Ref(_) => {
                    self.capture_reference(root, &mut numbered)
                }
                primitive => Ok(primitive.clone()),
            })
            .collect()
    }

    /// The value a reference leads to.
    fn capture_reference(&self, reference: u32, numbered: &mut HashMap<u32, u32>) -> Result<Value, String> {
        if reference == 0 {
            return Ok(Value::Null);
        }
        if let Some(&ordinal) = numbered.get(&reference) {
            return Ok(Value::Ref(ordinal));
        }
        let pkg = self.pkg;
        let class = self.heap[reference as usize];
        let name = self.class_name(class).to_owned();
        if class == pkg.well_known.string && pkg.well_known.string_value != isa::NONE {
            return Ok(Value::Str(self.string_units(reference)));
        }
        if class == pkg.well_known.class {
            return Err("the state holds a class mirror".into());
        }
        if numbered.len() >= MAX_CAPTURED_OBJECTS {
            return Err(format!("the state holds more than {MAX_CAPTURED_OBJECTS} objects"));
        }
        numbered.insert(reference, numbered.len() as u32);
        let flags = pkg.class_word(class, class::FLAGS);
        if flags & isa::FLAG_ARRAY != 0 {
            let kind = pkg.class_word(class, class::ELEMENT);
            let width = isa::element_words(kind) as usize;
            let length = self.heap[reference as usize + 1] as usize;
            let mut elements = Vec::with_capacity(length);
            for k in 0..length {
                let at = reference as usize + isa::ARRAY_HEADER_WORDS as usize + k * width;
                elements.push(if kind == isa::ELEM_REF {
                    self.capture_reference(self.heap[at], numbered)?
                } else {
                    self.capture_primitive(at, kind)
                });
            }
            return Ok(Value::Array {
                descriptor: name,
                elements,
            });
        }
        let mut layout: Vec<(&(String, String), u32)> = pkg
            .instance_fields
            .get(&name)
            .map(|fields| fields.iter().map(|(key, &offset)| (key, offset)).collect())
            .unwrap_or_default();
        layout.sort_by_key(|(_, offset)| *offset);
        let mut fields = Vec::with_capacity(layout.len());
        for (k, ((field, descriptor), offset)) in layout.iter().enumerate() {
            if layout[..k].iter().any(|((other, _), _)| other == field) {
                return Err(format!("{name} has two fields named {field}"));
            }
            let at = reference as usize + isa::OBJECT_HEADER_WORDS as usize + *offset as usize;
            let value = match descriptor.as_bytes().first() {
                Some(b'L' | b'[') => self.capture_reference(self.heap[at], numbered)?,
                Some(b'J') => self.capture_primitive(at, isa::ELEM_LONG),
                Some(b'D') => self.capture_primitive(at, isa::ELEM_DOUBLE),
                Some(b'F') => self.capture_primitive(at, isa::ELEM_FLOAT),
                _ => self.capture_primitive(at, isa::ELEM_INT),
            };
            fields.push((field.clone(), value));
        }
        Ok(Value::Object { class: name, fields })
    }

    /// A primitive held at heap word `at`, of element kind `kind`.
    fn capture_primitive(&self, at: usize, kind: u32) -> Value {
        let low = self.heap[at];
        match kind {
            isa::ELEM_LONG => Value::Long((u64::from(low) | u64::from(self.heap[at + 1]) << 32) as i64),
            isa::ELEM_DOUBLE => Value::Double(u64::from(low) | u64::from(self.heap[at + 1]) << 32),
            isa::ELEM_FLOAT => Value::Float(low),
            _ => Value::Int(low as i32),
        }
    }
}
