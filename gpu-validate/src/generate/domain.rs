//! Value domains of method parameters and the Tempo generator of whole instances over them: ints
//! and longs in ranges, characters from an alphabet, arrays and strings up to a length with their
//! elements from a domain, `null` or not, and listed values (heap structures found by Korat).
//!
//! **A domain's values are generated in a fixed order of choices, so an instance's number depends
//! only on the domains; object ordinals (`Value::Ref`) of each argument are shifted past those of
//! the arguments before it, so every instance builds as written.**

use super::choice::{Choices, Stop};
use crate::value::Value;

/// Settings of bounded-exhaustive generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The scope: ints and longs up to it, arrays and strings up to this length, structures up to
    /// this many objects of each class.
    pub max_size: u32,
    /// The smallest int or long parameter (negative values exercise `nat`).
    pub int_min: i32,
    /// The range of array elements, object fields and boxed values.
    pub element_min: i32,
    pub element_max: i32,
    /// The characters of strings, `char` parameters and elements.
    pub alphabet: Vec<u16>,
}

impl Settings {
    /// The default scope `max_size` with ints from -2, elements in -1..=2 and strings over `ab`.
    pub fn with_size(max_size: u32) -> Settings {
        Settings {
            max_size,
            int_min: -2,
            element_min: -1,
            element_max: 2,
            alphabet: "ab".encode_utf16().collect(),
        }
    }
}

/// The values one parameter takes.
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// An `int`-like value in `min..=max`.
    Int {
        min: i32,
        max: i32,
    },
    Long {
        min: i64,
        max: i64,
    },
    /// A `char` from these UTF-16 units.
    Char(Vec<u16>),
    /// `null`, or the inner domain's value (`null` first).
    Nullable(Box<Domain>),
    /// An array of type `descriptor` of length `0..=max_length` with elements from `element`.
    Array {
        descriptor: String,
        max_length: u32,
        element: Box<Domain>,
    },
    /// A string of length `0..=max_length` over the alphabet.
    Str {
        max_length: u32,
        alphabet: Vec<u16>,
    },
    /// One of these values (each written as a first argument; `Value::Ref`s are shifted as needed).
    OneOf(Vec<Value>),
    /// In a whole instance ([`instance`]): one of the objects of class `class` the arguments
    /// before it built (the same object, shared), or else a value of `own`. Elsewhere: `own`.
    Sharing {
        class: String,
        own: Box<Domain>,
    },
}

/// Boxed primitive classes and their value's descriptor.
pub const BOXES: &[(&str, &str)] = &[
    ("java/lang/Integer", "I"),
    ("java/lang/Long", "J"),
    ("java/lang/Short", "S"),
    ("java/lang/Byte", "B"),
    ("java/lang/Character", "C"),
    ("java/lang/Boolean", "Z"),
];

impl Domain {
    /// The domain of a parameter of field type `descriptor` for everything but objects of classes
    /// (which need heap structures: `class_domain` gives theirs, `None` meaning only `null`).
    pub fn for_descriptor(
        descriptor: &str,
        settings: &Settings,
        class_domain: &mut dyn FnMut(&str) -> Option<Domain>,
    ) -> Domain {
        let n = settings.max_size;
        let top = i32::try_from(n).unwrap_or(i32::MAX);
        match descriptor.as_bytes().first() {
            Some(b'I') => Domain::Int {
                min: settings.int_min,
                max: top.max(settings.int_min),
            },
            Some(b'J') => Domain::Long {
                min: i64::from(settings.int_min),
                max: i64::from(n).max(i64::from(settings.int_min)),
            },
            Some(b'S') => Domain::Int {
                min: settings.int_min.max(-32768),
                max: top.clamp(settings.int_min.max(-32768), 32767),
            },
            Some(b'B') => Domain::Int {
                min: settings.int_min.max(-128),
                max: top.clamp(settings.int_min.max(-128), 127),
            },
            Some(b'Z') => Domain::Int { min: 0, max: 1 },
            Some(b'C') => Domain::Char(settings.alphabet.clone()),
            Some(b'F') => Domain::OneOf([0.0f32, 1.0, -1.5].iter().map(|v| Value::Float(v.to_bits())).collect()),
            Some(b'D') => Domain::OneOf([0.0f64, 1.0, -1.5].iter().map(|v| Value::Double(v.to_bits())).collect()),
            Some(b'[') => Domain::Nullable(Box::new(Domain::Array {
                descriptor: descriptor.to_owned(),
                max_length: n,
                element: Box::new(Domain::element(&descriptor[1..], settings, class_domain)),
            })),
            _ => {
                let class = descriptor
                    .strip_prefix('L')
                    .and_then(|d| d.strip_suffix(';'))
                    .unwrap_or(descriptor);
                Domain::for_class(class, settings, class_domain)
            }
        }
    }

    /// The domain of a reference of class `class` (internal name), `null` included.
    pub fn for_class(class: &str, settings: &Settings, class_domain: &mut dyn FnMut(&str) -> Option<Domain>) -> Domain {
        if class == "java/lang/String" || class == "java/lang/CharSequence" {
            return Domain::Nullable(Box::new(Domain::Str {
                max_length: settings.max_size,
                alphabet: settings.alphabet.clone(),
            }));
        }
        if let Some((_, value_descriptor)) = BOXES.iter().find(|(name, _)| *name == class) {
            let values = Domain::element(value_descriptor, settings, &mut |_| None).values();
            return Domain::Nullable(Box::new(Domain::OneOf(
                values
                    .into_iter()
                    .map(|v| Value::Object {
                        class: class.to_owned(),
                        fields: vec![("value".to_owned(), v)],
                    })
                    .collect(),
            )));
        }
        match class_domain(class) {
            Some(domain) => domain,
            None => Domain::OneOf(vec![Value::Null]),
        }
    }

    /// The domain of an array element or object field of field type `descriptor` (small ranges).
    pub fn element(
        descriptor: &str,
        settings: &Settings,
        class_domain: &mut dyn FnMut(&str) -> Option<Domain>,
    ) -> Domain {
        let (min, max) = (settings.element_min, settings.element_max.max(settings.element_min));
        match descriptor.as_bytes().first() {
            Some(b'I') => Domain::Int { min, max },
            Some(b'S') => Domain::Int {
                min: min.clamp(-32768, 32767),
                max: max.clamp(-32768, 32767),
            },
            Some(b'B') => Domain::Int {
                min: min.clamp(-128, 127),
                max: max.clamp(-128, 127),
            },
            Some(b'J') => Domain::Long {
                min: i64::from(min),
                max: i64::from(max),
            },
            Some(b'Z') => Domain::Int { min: 0, max: 1 },
            Some(b'C') => Domain::Char(settings.alphabet.clone()),
            Some(b'F') => Domain::OneOf([0.0f32, 1.0].iter().map(|v| Value::Float(v.to_bits())).collect()),
            Some(b'D') => Domain::OneOf([0.0f64, 1.0].iter().map(|v| Value::Double(v.to_bits())).collect()),
            _ => Domain::for_descriptor(descriptor, settings, class_domain),
        }
    }

    /// Every value of a domain of single choices (ints, longs, chars, listed values), in order.
    pub(crate) fn values(&self) -> Vec<Value> {
        match self {
            Domain::Int { min, max } => (*min..=*max).map(Value::Int).collect(),
            Domain::Long { min, max } => (*min..=*max).map(Value::Long).collect(),
            Domain::Char(units) => units.iter().map(|&u| Value::Int(i32::from(u))).collect(),
            Domain::OneOf(values) => values.clone(),
            Domain::Sharing { own, .. } => own.values(),
            _ => Vec::new(),
        }
    }

    /// How many values the domain generates (`None` past `u128`).
    pub fn count(&self) -> Option<u128> {
        let lengths = |max_length: u32, per_element: u128| -> Option<u128> {
            let mut total: u128 = 0;
            let mut of_length: u128 = 1;
            for _ in 0..=max_length {
                total = total.checked_add(of_length)?;
                of_length = of_length.checked_mul(per_element)?;
            }
            Some(total)
        };
        match self {
            Domain::Int { min, max } => Some((i64::from(*max) - i64::from(*min) + 1).max(0) as u128),
            Domain::Long { min, max } => Some((i128::from(*max) - i128::from(*min) + 1).max(0) as u128),
            Domain::Char(units) => Some(units.len() as u128),
            Domain::Nullable(inner) => inner.count()?.checked_add(1),
            Domain::Array {
                max_length, element, ..
            } => lengths(*max_length, element.count()?),
            Domain::Str { max_length, alphabet } => lengths(*max_length, alphabet.len() as u128),
            Domain::OneOf(values) => Some(values.len() as u128),
            // The shared objects depend on the earlier arguments: counted as one more value (an
            // under-count only lets `explore` find the real number).
            Domain::Sharing { own, .. } => own.count()?.checked_add(1),
        }
    }

    /// Generates one value (its `Value::Ref`s numbered from 0).
    pub fn choose(&self, choices: &mut Choices) -> Result<Value, Stop> {
        Ok(match self {
            Domain::Int { min, max } => Value::Int(choices.choice(i64::from(*min), i64::from(*max))? as i32),
            Domain::Long { min, max } => Value::Long(choices.choice(*min, *max)?),
            Domain::Char(units) => {
                let k = choices.choice(0, units.len() as i64 - 1)?;
                Value::Int(i32::from(units[k as usize]))
            }
            Domain::Nullable(inner) => {
                if choices.choose_bool()? {
                    inner.choose(choices)?
                } else {
                    Value::Null
                }
            }
            Domain::Array {
                descriptor,
                max_length,
                element,
            } => {
                let length = choices.choice(0, i64::from(*max_length))?;
                let mut elements = Vec::with_capacity(length as usize);
                // The array is numbered before its elements.
                let mut built = 1;
                for _ in 0..length {
                    let value = element.choose(choices)?;
                    let shifted = value.with_refs_shifted(built);
                    built += value.built_objects();
                    elements.push(shifted);
                }
                Value::Array {
                    descriptor: descriptor.clone(),
                    elements,
                }
            }
            Domain::Str { max_length, alphabet } => {
                let length = choices.choice(0, i64::from(*max_length))?;
                let mut units = Vec::with_capacity(length as usize);
                for _ in 0..length {
                    let k = choices.choice(0, alphabet.len() as i64 - 1)?;
                    units.push(alphabet[k as usize]);
                }
                Value::Str(units)
            }
            Domain::OneOf(values) => {
                let k = choices.choice(0, values.len() as i64 - 1)?;
                values[k as usize].clone()
            }
            Domain::Sharing { own, .. } => own.choose(choices)?,
        })
    }
}

/// How many instances [`instance`] generates over these domains (`None` past `u128`).
pub fn instance_count(domains: &[Domain]) -> Option<u128> {
    domains.iter().try_fold(1u128, |total, d| total.checked_mul(d.count()?))
}

/// The Tempo generator of whole instances: one value per parameter domain, in order, each
/// argument's object ordinals shifted past the arguments before it.
pub fn instance(domains: &[Domain], choices: &mut Choices) -> Result<Vec<Value>, Stop> {
    let mut values = Vec::with_capacity(domains.len());
    let mut built = 0;
    for domain in domains {
        if let Domain::Sharing { class, own } = domain {
            let shared: Vec<u32> = built_classes(&values)
                .iter()
                .enumerate()
                .filter(|(_, c)| c.as_deref() == Some(class.as_str()))
                .map(|(k, _)| k as u32)
                .collect();
            // The shared objects first, then the argument's own values.
            let k = choices.choice(0, shared.len() as i64)? as usize;
            if k < shared.len() {
                values.push(Value::Ref(shared[k]));
                continue;
            }
            let value = own.choose(choices)?;
            values.push(value.with_refs_shifted(built));
            built += value.built_objects();
            continue;
        }
        let value = domain.choose(choices)?;
        values.push(value.with_refs_shifted(built));
        built += value.built_objects();
    }
    Ok(values)
}

/// The classes of the objects and arrays (`None`) the values build, in build order (the numbers
/// `Value::Ref` counts).
fn built_classes(values: &[Value]) -> Vec<Option<String>> {
    fn walk(value: &Value, out: &mut Vec<Option<String>>) {
        match value {
            Value::Array { elements, .. } => {
                out.push(None);
                for element in elements {
                    walk(element, out);
                }
            }
            Value::Object { class, fields } => {
                out.push(Some(class.clone()));
                for (_, field) in fields {
                    walk(field, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for value in values {
        walk(value, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::choice::explore_worklist;
    use super::*;

    #[test]
    fn domains_of_signatures_enumerate_every_value_once() {
        let settings = Settings::with_size(2);
        let mut no_classes = |_: &str| None;
        let ints = [Domain::for_descriptor("I", &settings, &mut no_classes)];
        let all = explore_worklist(&|c: &mut Choices| instance(&ints, c), 1000).expect("small");
        assert_eq!(all.len(), 5, "-2..=2");
        let arrays = [Domain::for_descriptor("[I", &settings, &mut no_classes)];
        let all = explore_worklist(&|c: &mut Choices| instance(&arrays, c), 1000).expect("small");
        // null, then lengths 0..=2 over 4 element values.
        assert_eq!(all.len(), 1 + 1 + 4 + 16);
        assert_eq!(instance_count(&arrays), Some(all.len() as u128));
        let strings = [Domain::for_descriptor("Ljava/lang/String;", &settings, &mut no_classes)];
        let all = explore_worklist(&|c: &mut Choices| instance(&strings, c), 1000).expect("small");
        assert_eq!(all.len(), 1 + 1 + 2 + 4);
        assert_eq!(instance_count(&strings), Some(all.len() as u128));
        let both = [ints[0].clone(), strings[0].clone()];
        assert_eq!(instance_count(&both), Some(5 * 8));
        let distinct: std::collections::HashSet<String> = all.iter().map(|g| format!("{:?}", g.value)).collect();
        assert_eq!(distinct.len(), all.len());
    }

    #[test]
    fn a_sharing_argument_may_be_any_earlier_object_of_its_class() {
        let node = |next: Value| Value::Object {
            class: "Node".into(),
            fields: vec![("next".into(), next)],
        };
        let two = node(node(Value::Null));
        let domains = [
            Domain::OneOf(vec![two.clone()]),
            Domain::Sharing {
                class: "Node".into(),
                own: Box::new(Domain::OneOf(vec![Value::Null])),
            },
        ];
        let all = explore_worklist(&|c: &mut Choices| instance(&domains, c), 10).expect("small");
        let seconds: Vec<Value> = all.iter().map(|g| g.value[1].clone()).collect();
        assert_eq!(seconds, vec![Value::Ref(0), Value::Ref(1), Value::Null]);
    }

    #[test]
    fn object_ordinals_are_shifted_past_earlier_arguments() {
        let node = |next: Value| Value::Object {
            class: "Node".into(),
            fields: vec![("next".into(), next)],
        };
        // A node whose field points back to itself, as a first argument.
        let cyclic = node(Value::Ref(0));
        let domains = [
            Domain::OneOf(vec![Value::int_array(&[1])]),
            Domain::OneOf(vec![cyclic.clone()]),
        ];
        let all = explore_worklist(&|c: &mut Choices| instance(&domains, c), 10).expect("small");
        assert_eq!(all[0].value[1], node(Value::Ref(1)));
    }
}
