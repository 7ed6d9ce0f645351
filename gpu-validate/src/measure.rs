//! The sizes the cost analysis gives a method's inputs, computed on concrete instances: the value
//! of a bound's parameter for an argument.
//!
//! The analysis (`jresa_analyses::value::compile`) measures ints and longs by value, arrays by
//! length, and other references by their size as a tree: `null` is 0, the values read from
//! different reference fields of one object together are strictly smaller than it, an array read
//! from a field is measured by its length. The smallest measure that satisfies every constraint it
//! writes is:
//!
//! - `null`: 0; an array: its length (its elements are not constrained by it);
//! - an object: 1 plus the sum of the measures of its reference fields (0 when they are all null),
//!   following arrays only to their length: a list's number of cells, a tree's number of nodes,
//!   a DAG's number of nodes counted once per path that reaches them;
//! - a `String` is an object like any other: 1 plus the length of its `value` byte array (JDK 17
//!   compact strings: one byte per character when all are Latin-1, two otherwise).
//!
//! **Every measure is exactly this norm; a structure with a cycle through object fields has none
//! (the analysis assumes acyclic heaps) and is reported as cyclic; floats and doubles have none.**

use crate::value::Value;
use std::collections::HashMap;

/// The measure of one argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// An int or long: its value.
    Number(i64),
    /// A reference: its length or its size as a tree.
    Size(u64),
    /// A float or double: not a size.
    None,
}

impl Measure {
    /// The measure as a number, when it has one.
    pub fn value(self) -> Option<i64> {
        match self {
            Measure::Number(v) => Some(v),
            Measure::Size(s) => Some(i64::try_from(s).unwrap_or(i64::MAX)),
            Measure::None => None,
        }
    }
}

/// The arguments' objects reach a cycle through object fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cyclic;

/// The measure of every argument of an instance (objects shared between arguments through
/// `Value::Ref` included).
pub fn measures(args: &[Value]) -> Result<Vec<Measure>, Cyclic> {
    let mut table: Vec<&Value> = Vec::new();
    let mut ordinal_of: HashMap<*const Value, u32> = HashMap::new();
    for arg in args {
        number(arg, &mut table, &mut ordinal_of);
    }
    let mut sizer = Sizer {
        table: &table,
        ordinal_of: &ordinal_of,
        memo: vec![State::Unvisited; table.len()],
    };
    args.iter()
        .map(|arg| {
            Ok(match arg {
                Value::Int(v) => Measure::Number(i64::from(*v)),
                Value::Long(v) => Measure::Number(*v),
                Value::Float(_) | Value::Double(_) => Measure::None,
                reference => Measure::Size(sizer.size(reference)?),
            })
        })
        .collect()
}

/// The value of a numeric field of an argument's object at the call, for a bound's input named
/// `base.field` where `|base|` is that argument's parameter (the fields at entry that
/// `jresa_analyses::ir::entry_fields` makes inputs). A field the instance leaves unset is 0, as
/// the VM leaves it; a null argument's fields are 0 too (the method's bound holds for every value
/// of them, as nothing can read them).
pub fn field_number(args: &[Value], parameters: &[String], name: &str) -> Option<i64> {
    let (base, field) = name.split_once('.')?;
    let k = parameters
        .iter()
        .position(|p| p.strip_prefix('|').and_then(|p| p.strip_suffix('|')) == Some(base))?;
    let mut table: Vec<&Value> = Vec::new();
    let mut ordinal_of: HashMap<*const Value, u32> = HashMap::new();
    for arg in args {
        number(arg, &mut table, &mut ordinal_of);
    }
    let object = match args.get(k)? {
        Value::Ref(r) => *table.get(*r as usize)?,
        Value::Null => return Some(0),
        value => value,
    };
    let Value::Object { fields, .. } = object else {
        return None;
    };
    match fields.iter().find(|(n, _)| n == field).map(|(_, v)| v) {
        None => Some(0),
        Some(Value::Int(v)) => Some(i64::from(*v)),
        Some(Value::Long(v)) => Some(*v),
        Some(_) => None,
    }
}

/// Numbers the objects and arrays of a value in the order the VM builds them.
fn number<'v>(value: &'v Value, table: &mut Vec<&'v Value>, ordinal_of: &mut HashMap<*const Value, u32>) {
    match value {
        Value::Array { elements, .. } => {
            ordinal_of.insert(value as *const Value, table.len() as u32);
            table.push(value);
            for element in elements {
                number(element, table, ordinal_of);
            }
        }
        Value::Object { fields, .. } => {
            ordinal_of.insert(value as *const Value, table.len() as u32);
            table.push(value);
            for (_, field) in fields {
                number(field, table, ordinal_of);
            }
        }
        _ => {}
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Unvisited,
    Visiting,
    Done(u64),
}

struct Sizer<'t, 'v> {
    table: &'t [&'v Value],
    ordinal_of: &'t HashMap<*const Value, u32>,
    memo: Vec<State>,
}

impl Sizer<'_, '_> {
    fn size(&mut self, value: &Value) -> Result<u64, Cyclic> {
        match value {
            Value::Null | Value::Int(_) | Value::Long(_) | Value::Float(_) | Value::Double(_) => Ok(0),
            Value::Str(units) => {
                let latin1 = units.iter().all(|&u| u <= 0xFF);
                let bytes = if latin1 { units.len() } else { 2 * units.len() };
                Ok(1 + bytes as u64)
            }
            Value::Array { elements, .. } => Ok(elements.len() as u64),
            Value::Ref(k) => match self.table.get(*k as usize).copied() {
                Some(Value::Array { elements, .. }) => Ok(elements.len() as u64),
                Some(object) => self.object(*k, object),
                // A dangling reference is refused by the VM; it has no size either.
                None => Err(Cyclic),
            },
            Value::Object { .. } => {
                let ordinal = self.ordinal_of.get(&(value as *const Value)).copied();
                match ordinal {
                    Some(ordinal) => self.object(ordinal, value),
                    None => Err(Cyclic),
                }
            }
        }
    }

    fn object(&mut self, ordinal: u32, object: &Value) -> Result<u64, Cyclic> {
        match self.memo[ordinal as usize] {
            State::Done(size) => return Ok(size),
            State::Visiting => return Err(Cyclic),
            State::Unvisited => {}
        }
        self.memo[ordinal as usize] = State::Visiting;
        let mut parts: u64 = 0;
        if let Value::Object { fields, .. } = object {
            for (_, field) in fields {
                parts = parts.saturating_add(self.size(field)?);
            }
        }
        let size = parts.saturating_add(1);
        self.memo[ordinal as usize] = State::Done(size);
        Ok(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(value: i32, next: Value) -> Value {
        Value::Object {
            class: "Node".into(),
            fields: vec![("value".into(), Value::Int(value)), ("next".into(), next)],
        }
    }

    #[test]
    fn measures_follow_the_analysis_norms() {
        let list = node(1, node(2, node(3, Value::Null)));
        let args = [
            Value::Int(-3),
            Value::int_array(&[1, 2]),
            list,
            Value::Null,
            Value::string("ab"),
        ];
        assert_eq!(
            measures(&args),
            Ok(vec![
                Measure::Number(-3),
                Measure::Size(2),
                Measure::Size(3),
                Measure::Size(0),
                Measure::Size(3)
            ])
        );
        // An object holding an array: 1 plus the array's length.
        let holder = Value::Object {
            class: "Holder".into(),
            fields: vec![("data".into(), Value::int_array(&[0, 0, 0]))],
        };
        assert_eq!(measures(&[holder]), Ok(vec![Measure::Size(4)]));
        assert_eq!(measures(&[Value::Str(vec![0x100])]), Ok(vec![Measure::Size(3)]));
    }

    fn tree(left: Value, right: Value) -> Value {
        Value::Object {
            class: "Tree".into(),
            fields: vec![
                ("left".into(), left),
                ("right".into(), right),
                ("key".into(), Value::Int(0)),
            ],
        }
    }

    #[test]
    fn a_tree_measures_its_nodes_and_a_dag_its_paths() {
        let leaf = || tree(Value::Null, Value::Null);
        // Four nodes, depth three.
        let t = tree(tree(leaf(), Value::Null), leaf());
        assert_eq!(measures(&[t]), Ok(vec![Measure::Size(4)]));
        // A root whose two fields share one node (ordinal 1): counted once per path.
        let dag = tree(leaf(), Value::Ref(1));
        assert_eq!(measures(&[dag]), Ok(vec![Measure::Size(3)]));
    }

    #[test]
    fn sharing_is_measured_and_cycles_are_not() {
        // Two arguments: a list of two nodes, and a reference to its second node (ordinal 1).
        let list = node(1, node(2, Value::Null));
        assert_eq!(
            measures(&[list, Value::Ref(1)]),
            Ok(vec![Measure::Size(2), Measure::Size(1)])
        );
        let cycle = node(1, node(2, Value::Ref(0)));
        assert_eq!(measures(&[cycle]), Err(Cyclic));
    }
}
