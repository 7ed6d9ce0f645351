//! Parsing one classfile with noak into the owned, resolved model.

use noak::error::{Context, DecodeError};
use noak::reader::attributes::{BootstrapMethods, Code as NoakCode, LocalVariableTable, SourceFile};
use noak::reader::{Attribute, AttributeContent, Class, DecodeMany};

use super::annotations::decode_annotations;
use super::bytecode::{check_exception_table, decode_bytecode};
use super::bytes::ByteReader;
use super::model::{
    Annotation, BootstrapMethod, ClassFile, Code, CodeError, Constant, ExceptionHandler, Field, LocalVariable, Method,
};
use super::pool::PoolResolver;
use super::InputError;

/// The oldest accepted major version (Java 1.1).
pub const MIN_MAJOR_VERSION: u16 = 45;
/// The newest accepted major version (Java 21).
pub const MAX_MAJOR_VERSION: u16 = 65;

/// Parses one classfile and resolves every constant-pool reference into the owned model.
///
/// `origin` names where the bytes came from and is recorded in the result and in errors.
/// A method whose `Code` attribute cannot be decoded gets `code: Some(Err(..))` and the rest of the
/// class is still returned; anything else that is malformed makes the whole class an error.
pub fn parse_class(bytes: &[u8], origin: &str) -> Result<ClassFile, InputError> {
    check_header(bytes, origin)?;
    let class = Class::new(bytes).map_err(|error| decode_error(origin, &error))?;
    let version = class.version();
    let pool = PoolResolver::new(class.pool());
    let class_error = |message: String| InputError::new(origin, message);

    let name = pool
        .class_name(class.this_class().as_u16())
        .map_err(|message| class_error(format!("this_class: {message}")))?;
    let super_name = class
        .super_class()
        .map(|index| pool.class_name(index.as_u16()))
        .transpose()
        .map_err(|message| class_error(format!("super_class: {message}")))?;
    let mut interfaces = Vec::new();
    for interface in class.interfaces() {
        let interface = interface.map_err(|error| decode_error(origin, &error))?;
        interfaces.push(
            pool.class_name(interface.as_u16())
                .map_err(|message| class_error(format!("interfaces: {message}")))?,
        );
    }

    let mut fields = Vec::new();
    for field in class.fields() {
        let field = field.map_err(|error| decode_error(origin, &error))?;
        let field_name = pool
            .utf8(field.name().as_u16())
            .map_err(|message| class_error(format!("field name: {message}")))?;
        let descriptor = pool
            .utf8(field.descriptor().as_u16())
            .map_err(|message| class_error(format!("field {field_name} descriptor: {message}")))?;
        let mut annotations = Vec::new();
        let mut constant_value = None;
        for attribute in field.attributes() {
            let attribute = attribute.map_err(|error| decode_error(origin, &error))?;
            let attribute_name = pool.utf8_mstr(attribute.name().as_u16()).map_err(class_error)?;
            if attribute_name.as_bytes() == b"ConstantValue" {
                let index = ByteReader::new(attribute.content())
                    .u16()
                    .ok_or_else(|| class_error(format!("field {field_name}: truncated ConstantValue attribute")))?;
                let constant = pool
                    .loadable(index)
                    .map_err(|message| class_error(format!("field {field_name}: ConstantValue: {message}")))?;
                constant_value = Some(constant);
                continue;
            }
            collect_annotations(&attribute, &pool, &mut annotations)
                .map_err(|message| class_error(format!("field {field_name}: {message}")))?;
        }
        fields.push(Field {
            name: field_name,
            descriptor,
            access: field.access_flags().bits(),
            annotations,
            constant_value,
        });
    }

    let mut methods = Vec::new();
    for method in class.methods() {
        let method = method.map_err(|error| decode_error(origin, &error))?;
        let method_name = pool
            .utf8(method.name().as_u16())
            .map_err(|message| class_error(format!("method name: {message}")))?;
        let descriptor = pool
            .utf8(method.descriptor().as_u16())
            .map_err(|message| class_error(format!("method {method_name} descriptor: {message}")))?;
        let method_error =
            |message: String| InputError::new(origin, message).in_method(format!("{method_name}{descriptor}"));
        let mut annotations = Vec::new();
        let mut code = None;
        for attribute in method.attributes() {
            let attribute = attribute
                .map_err(|error| decode_error(origin, &error).in_method(format!("{method_name}{descriptor}")))?;
            let attribute_name = pool.utf8_mstr(attribute.name().as_u16()).map_err(&method_error)?;
            if attribute_name.as_bytes() == b"Code" {
                code = Some(match code {
                    None => decode_code(&attribute, &pool),
                    Some(_) => Err(CodeError {
                        offset: None,
                        message: "more than one Code attribute".to_owned(),
                    }),
                });
            } else {
                collect_annotations(&attribute, &pool, &mut annotations).map_err(&method_error)?;
            }
        }
        methods.push(Method {
            name: method_name,
            descriptor,
            access: method.access_flags().bits(),
            code,
            annotations,
        });
    }

    let mut source_file = None;
    let mut bootstrap_methods = Vec::new();
    let mut annotations = Vec::new();
    for attribute in class.attributes() {
        let attribute = attribute.map_err(|error| decode_error(origin, &error))?;
        let attribute_name = pool.utf8_mstr(attribute.name().as_u16()).map_err(class_error)?;
        if attribute_name.as_bytes() == b"SourceFile" {
            if source_file.is_none() {
                let content = attribute
                    .read_content(class.pool())
                    .and_then(SourceFile::try_from)
                    .map_err(|error| class_error(format!("SourceFile attribute: {}", error.kind())))?;
                source_file = Some(
                    pool.utf8(content.source_file().as_u16())
                        .map_err(|message| class_error(format!("SourceFile attribute: {message}")))?,
                );
            }
        } else if attribute_name.as_bytes() == b"BootstrapMethods" {
            bootstrap_methods = read_bootstrap_methods(&attribute, &pool).map_err(class_error)?;
        } else {
            collect_annotations(&attribute, &pool, &mut annotations).map_err(class_error)?;
        }
    }

    Ok(ClassFile {
        name,
        super_name,
        interfaces,
        access: class.access_flags().bits(),
        major_version: version.major,
        minor_version: version.minor,
        source_file,
        fields,
        methods,
        annotations,
        bootstrap_methods,
        origin: origin.to_owned(),
    })
}

/// The entries of a `BootstrapMethods` attribute: each method handle and its static arguments.
fn read_bootstrap_methods(
    attribute: &Attribute<'_>,
    pool: &PoolResolver<'_, '_>,
) -> Result<Vec<BootstrapMethod>, String> {
    let content = attribute
        .read_content(pool.noak_pool())
        .and_then(BootstrapMethods::try_from)
        .map_err(|error| format!("BootstrapMethods attribute: {}", error.kind()))?;
    let mut out = Vec::new();
    for method in content.methods().iter() {
        let method = method.map_err(|error| format!("BootstrapMethods attribute: {}", error.kind()))?;
        let Constant::MethodHandle(handle) = pool.loadable(method.method_ref().as_u16())? else {
            return Err("BootstrapMethods attribute: an entry is not a method handle".into());
        };
        let mut arguments = Vec::new();
        for argument in method.arguments().iter() {
            let argument = argument.map_err(|error| format!("BootstrapMethods attribute: {}", error.kind()))?;
            arguments.push(pool.loadable(argument.as_u16())?);
        }
        out.push(BootstrapMethod { handle, arguments });
    }
    Ok(out)
}

/// Checks the magic number and the version before handing the bytes to noak.
fn check_header(bytes: &[u8], origin: &str) -> Result<(), InputError> {
    let mut reader = ByteReader::new(bytes);
    let magic = reader.u32();
    let minor = reader.u16();
    let major = reader.u16();
    match (magic, minor, major) {
        (Some(0xCAFE_BABE), Some(minor), Some(major)) => {
            if (MIN_MAJOR_VERSION..=MAX_MAJOR_VERSION).contains(&major) {
                Ok(())
            } else {
                Err(InputError::new(
                    origin,
                    format!(
                        "unsupported classfile version {major}.{minor} (supported major versions are \
                         {MIN_MAJOR_VERSION} to {MAX_MAJOR_VERSION})"
                    ),
                )
                .at_offset(Some(4)))
            }
        }
        (Some(0xCAFE_BABE), _, _) => Err(InputError::new(origin, "truncated classfile header").at_offset(Some(4))),
        (Some(_), _, _) => Err(InputError::new(origin, "not a classfile (bad magic number)").at_offset(Some(0))),
        (None, _, _) => Err(InputError::new(
            origin,
            "not a classfile (shorter than its magic number)",
        )),
    }
}

/// Converts a noak decoding error into an input error at the byte position noak reports.
fn decode_error(origin: &str, error: &DecodeError) -> InputError {
    let message = if error.context() == Context::None {
        format!("malformed classfile: {}", error.kind())
    } else {
        format!("malformed classfile: {} in {}", error.kind(), error.context())
    };
    InputError::new(origin, message).at_offset(error.position().and_then(|position| u32::try_from(position).ok()))
}

/// Appends the annotations of `attribute` to `annotations` when it is an annotations attribute.
fn collect_annotations(
    attribute: &Attribute<'_>,
    pool: &PoolResolver<'_, '_>,
    annotations: &mut Vec<Annotation>,
) -> Result<(), String> {
    let attribute_name = pool.utf8_mstr(attribute.name().as_u16())?;
    let visible = match attribute_name.as_bytes() {
        b"RuntimeVisibleAnnotations" => true,
        b"RuntimeInvisibleAnnotations" => false,
        _ => return Ok(()),
    };
    let decoded = decode_annotations(attribute.content(), visible, pool).map_err(|message| {
        let kind = if visible {
            "RuntimeVisibleAnnotations"
        } else {
            "RuntimeInvisibleAnnotations"
        };
        format!("{kind} attribute: {message}")
    })?;
    annotations.extend(decoded);
    Ok(())
}

fn code_error(message: String) -> CodeError {
    CodeError { offset: None, message }
}

/// Decodes a `Code` attribute: the bytecode, the exception table and the debug tables.
fn decode_code(attribute: &Attribute<'_>, pool: &PoolResolver<'_, '_>) -> Result<Code, CodeError> {
    let noak_pool = pool.noak_pool();
    let code: NoakCode<'_> = match attribute.read_content(noak_pool) {
        Ok(AttributeContent::Code(code)) => code,
        Ok(_) => return Err(code_error("the Code attribute has unexpected content".to_owned())),
        Err(error) => return Err(code_error(format!("malformed Code attribute: {}", error.kind()))),
    };
    // noak exposes the bytecode only through its own decoder, so slice it from the attribute.
    let mut header = ByteReader::new(attribute.content());
    let bytecode = header
        .skip(4)
        .and_then(|()| header.u32())
        .and_then(|length| usize::try_from(length).ok())
        .and_then(|length| header.take(length))
        .ok_or_else(|| code_error("truncated Code attribute".to_owned()))?;
    let instructions = decode_bytecode(bytecode, pool)?;
    let code_length = u32::try_from(bytecode.len()).unwrap_or(u32::MAX);

    let mut exception_table = Vec::new();
    for handler in code.exception_handlers() {
        let catch_type = handler
            .catch_type()
            .map(|index| pool.class_name(index.as_u16()))
            .transpose()
            .map_err(|message| code_error(format!("exception table: {message}")))?;
        exception_table.push(ExceptionHandler {
            start: handler.start().as_u32(),
            end: handler.end().as_u32(),
            handler: handler.handler().as_u32(),
            catch_type,
        });
    }
    check_exception_table(&exception_table, &instructions, code_length)?;

    let mut line_numbers = Vec::new();
    let mut local_variables = Vec::new();
    collect_debug_tables(code.attributes(), pool, &mut line_numbers, &mut local_variables)?;
    line_numbers.sort_by_key(|(pc, _)| *pc);

    Ok(Code {
        max_stack: code.max_stack(),
        max_locals: code.max_locals(),
        instructions,
        exception_table,
        line_numbers,
        local_variables,
        code_length,
    })
}

/// Appends the `(start_pc, line)` entries of a `LineNumberTable` body; `None` when truncated.
fn decode_line_numbers(attribute: &[u8], line_numbers: &mut Vec<(u32, u32)>) -> Option<()> {
    let mut reader = ByteReader::new(attribute);
    let count = reader.u16()?;
    line_numbers.reserve(usize::from(count).min(reader.remaining() / 4));
    for _ in 0..count {
        let start = reader.u16()?;
        let line = reader.u16()?;
        line_numbers.push((u32::from(start), u32::from(line)));
    }
    Some(())
}

/// Reads every `LineNumberTable` and `LocalVariableTable` among a `Code` attribute's attributes.
fn collect_debug_tables<'input>(
    attributes: DecodeMany<'input, Attribute<'input>, u16>,
    pool: &PoolResolver<'_, 'input>,
    line_numbers: &mut Vec<(u32, u32)>,
    local_variables: &mut Vec<LocalVariable>,
) -> Result<(), CodeError> {
    let malformed = |what: &str, error: DecodeError| code_error(format!("malformed {what}: {}", error.kind()));
    for attribute in attributes {
        let attribute = attribute.map_err(|error| malformed("Code attribute", error))?;
        let attribute_name = pool.utf8_mstr(attribute.name().as_u16()).map_err(code_error)?;
        match attribute_name.as_bytes() {
            b"LineNumberTable" => {
                // noak 0.7 decodes each entry's start_pc as a u32 (the format has a u16), so the
                // table is read by hand.
                decode_line_numbers(attribute.content(), line_numbers)
                    .ok_or_else(|| code_error("malformed LineNumberTable: truncated".to_owned()))?;
            }
            b"LocalVariableTable" => {
                let table = attribute
                    .read_content(pool.noak_pool())
                    .and_then(LocalVariableTable::try_from)
                    .map_err(|error| malformed("LocalVariableTable", error))?;
                for local in table.locals() {
                    let local = local.map_err(|error| malformed("LocalVariableTable", error))?;
                    let range = local.range();
                    let start = range.start.as_u32();
                    let length = range.end.as_u32().saturating_sub(start);
                    let described = |message: String| code_error(format!("LocalVariableTable: {message}"));
                    let name = pool.utf8(local.name().as_u16()).map_err(described)?;
                    let descriptor = pool.utf8(local.descriptor().as_u16()).map_err(described)?;
                    local_variables.push(LocalVariable {
                        start,
                        length,
                        name,
                        descriptor,
                        index: local.index(),
                    });
                }
            }
            _ => {}
        }
    }
    Ok(())
}
