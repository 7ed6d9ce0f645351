//! Decoding of `RuntimeVisibleAnnotations` and `RuntimeInvisibleAnnotations` attributes.
//!
//! The attribute bytes are decoded by hand with an explicit nesting limit, because noak's decoder
//! recurses once per nesting level and a crafted attribute could otherwise exhaust the stack.

use super::bytes::ByteReader;
use super::model::{Annotation, ElementValue};
use super::pool::PoolResolver;

/// The deepest nesting of annotations and arrays accepted; real annotations nest a few levels.
const MAX_NESTING: usize = 64;

const TRUNCATED: &str = "truncated annotation attribute";

/// Decodes the body of a `Runtime(In)VisibleAnnotations` attribute.
pub(crate) fn decode_annotations(
    attribute: &[u8],
    visible: bool,
    pool: &PoolResolver<'_, '_>,
) -> Result<Vec<Annotation>, String> {
    let mut reader = ByteReader::new(attribute);
    let count = reader.u16().ok_or(TRUNCATED)?;
    // Each annotation takes at least four bytes, which bounds the allocation by the input size.
    let mut annotations = Vec::with_capacity(usize::from(count).min(reader.remaining() / 4));
    for _ in 0..count {
        annotations.push(decode_annotation(&mut reader, visible, pool, 0)?);
    }
    Ok(annotations)
}

fn decode_annotation(
    reader: &mut ByteReader<'_>,
    visible: bool,
    pool: &PoolResolver<'_, '_>,
    depth: usize,
) -> Result<Annotation, String> {
    if depth > MAX_NESTING {
        return Err(format!("annotations nested more than {MAX_NESTING} levels deep"));
    }
    let type_descriptor = pool.utf8(reader.u16().ok_or(TRUNCATED)?)?;
    let pair_count = reader.u16().ok_or(TRUNCATED)?;
    // Each element-value pair takes at least five bytes.
    let mut elements = Vec::with_capacity(usize::from(pair_count).min(reader.remaining() / 5));
    for _ in 0..pair_count {
        let name = pool.utf8(reader.u16().ok_or(TRUNCATED)?)?;
        let value = decode_element_value(reader, visible, pool, depth)?;
        elements.push((name, value));
    }
    Ok(Annotation {
        type_descriptor,
        visible,
        elements,
    })
}

fn decode_element_value(
    reader: &mut ByteReader<'_>,
    visible: bool,
    pool: &PoolResolver<'_, '_>,
    depth: usize,
) -> Result<ElementValue, String> {
    if depth > MAX_NESTING {
        return Err(format!("annotations nested more than {MAX_NESTING} levels deep"));
    }
    let tag = reader.u8().ok_or(TRUNCATED)?;
    Ok(match tag {
        b'B' | b'C' | b'I' | b'S' | b'Z' => {
            ElementValue::Int(char::from(tag), pool.integer(reader.u16().ok_or(TRUNCATED)?)?)
        }
        b'J' => ElementValue::Long(pool.long(reader.u16().ok_or(TRUNCATED)?)?),
        b'F' => ElementValue::Float(pool.float(reader.u16().ok_or(TRUNCATED)?)?),
        b'D' => ElementValue::Double(pool.double(reader.u16().ok_or(TRUNCATED)?)?),
        b's' => ElementValue::String(pool.utf8(reader.u16().ok_or(TRUNCATED)?)?),
        b'e' => {
            let type_descriptor = pool.utf8(reader.u16().ok_or(TRUNCATED)?)?;
            let constant = pool.utf8(reader.u16().ok_or(TRUNCATED)?)?;
            ElementValue::Enum {
                type_descriptor,
                constant,
            }
        }
        b'c' => ElementValue::Class(pool.utf8(reader.u16().ok_or(TRUNCATED)?)?),
        b'@' => ElementValue::Annotation(Box::new(decode_annotation(reader, visible, pool, depth + 1)?)),
        b'[' => {
            let count = reader.u16().ok_or(TRUNCATED)?;
            // Each element value takes at least three bytes.
            let mut values = Vec::with_capacity(usize::from(count).min(reader.remaining() / 3));
            for _ in 0..count {
                values.push(decode_element_value(reader, visible, pool, depth + 1)?);
            }
            ElementValue::Array(values)
        }
        other => return Err(format!("invalid annotation element tag 0x{other:02x}")),
    })
}
