//! Resolution of constant-pool references (by raw index) into the owned model's strings and values.

use noak::error::DecodeError;
use noak::reader::cpool::{self, ConstantPool, Item, MethodKind};
use noak::MStr;

use super::model::{Constant, FieldRef, MethodRef};

/// Converts a modified UTF-8 string to a Rust string; lone surrogates become U+FFFD.
pub(crate) fn mstr_to_string(string: &MStr) -> String {
    // Most strings are plain ASCII or ordinary UTF-8, which modified UTF-8 encodes identically.
    match std::str::from_utf8(string.as_bytes()) {
        Ok(plain) => plain.to_owned(),
        Err(_) => string.chars_lossy().collect(),
    }
}

/// Resolves raw constant-pool indices against one class's pool; errors are plain messages that
/// the caller attributes to a place in the class.
#[derive(Clone, Copy)]
pub(crate) struct PoolResolver<'pool, 'input> {
    pool: &'pool ConstantPool<'input>,
}

fn index<I>(raw: u16) -> Result<cpool::Index<I>, String> {
    cpool::Index::new(raw).map_err(|_| "constant pool index 0 is not a valid reference".to_owned())
}

fn describe(error: &DecodeError, expected: &str, raw: u16) -> String {
    format!("constant pool index {raw}: expected {expected} ({})", error.kind())
}

impl<'pool, 'input> PoolResolver<'pool, 'input> {
    pub(crate) fn new(pool: &'pool ConstantPool<'input>) -> PoolResolver<'pool, 'input> {
        PoolResolver { pool }
    }

    /// The underlying noak constant pool.
    pub(crate) fn noak_pool(&self) -> &'pool ConstantPool<'input> {
        self.pool
    }

    /// The `CONSTANT_Utf8` at `raw`, as a Rust string.
    pub(crate) fn utf8(&self, raw: u16) -> Result<String, String> {
        self.utf8_mstr(raw).map(mstr_to_string)
    }

    /// The `CONSTANT_Utf8` at `raw`, as noak's borrowed string.
    pub(crate) fn utf8_mstr(&self, raw: u16) -> Result<&'input MStr, String> {
        self.pool
            .retrieve(index::<cpool::Utf8<'input>>(raw)?)
            .map_err(|error| describe(&error, "a UTF-8 string", raw))
    }

    /// The internal name (or array descriptor) of the `CONSTANT_Class` at `raw`.
    pub(crate) fn class_name(&self, raw: u16) -> Result<String, String> {
        self.pool
            .retrieve(index::<cpool::Class<'input>>(raw)?)
            .map(|class| mstr_to_string(class.name))
            .map_err(|error| describe(&error, "a class", raw))
    }

    fn name_and_type(&self, at: cpool::Index<cpool::NameAndType<'input>>) -> Result<(String, String), String> {
        let raw = at.as_u16();
        let name_and_type = self
            .pool
            .retrieve(at)
            .map_err(|error| describe(&error, "a name and type", raw))?;
        Ok((
            mstr_to_string(name_and_type.name),
            mstr_to_string(name_and_type.descriptor),
        ))
    }

    fn class_at(&self, at: cpool::Index<cpool::Class<'input>>) -> Result<String, String> {
        self.class_name(at.as_u16())
    }

    /// The `CONSTANT_Fieldref` at `raw`.
    pub(crate) fn field_ref(&self, raw: u16) -> Result<FieldRef, String> {
        let field = self
            .pool
            .get(index::<cpool::FieldRef<'input>>(raw)?)
            .map_err(|error| describe(&error, "a field reference", raw))?;
        let class = self.class_at(field.class)?;
        let (name, descriptor) = self.name_and_type(field.name_and_type)?;
        Ok(FieldRef {
            class,
            name,
            descriptor,
        })
    }

    /// The `CONSTANT_Methodref` or `CONSTANT_InterfaceMethodref` at `raw`.
    pub(crate) fn method_ref(&self, raw: u16) -> Result<MethodRef, String> {
        let item = self
            .pool
            .get(index::<Item<'input>>(raw)?)
            .map_err(|error| describe(&error, "a method reference", raw))?;
        let (class, name_and_type, interface) = match item {
            Item::MethodRef(method) => (method.class, method.name_and_type, false),
            Item::InterfaceMethodRef(method) => (method.class, method.name_and_type, true),
            _ => return Err(format!("constant pool index {raw}: expected a method reference")),
        };
        let class = self.class_at(class)?;
        let (name, descriptor) = self.name_and_type(name_and_type)?;
        Ok(MethodRef {
            class,
            name,
            descriptor,
            interface,
        })
    }

    /// The name, descriptor and bootstrap method index of the `CONSTANT_InvokeDynamic` at `raw`.
    pub(crate) fn invoke_dynamic(&self, raw: u16) -> Result<(String, String, u16), String> {
        let dynamic = self
            .pool
            .get(index::<cpool::InvokeDynamic<'input>>(raw)?)
            .map_err(|error| describe(&error, "an invokedynamic constant", raw))?;
        let (name, descriptor) = self.name_and_type(dynamic.name_and_type)?;
        Ok((name, descriptor, dynamic.bootstrap_method_attr))
    }

    /// The loadable constant at `raw` (the operand of `ldc`, `ldc_w` and `ldc2_w`).
    pub(crate) fn loadable(&self, raw: u16) -> Result<Constant, String> {
        let item = self
            .pool
            .get(index::<Item<'input>>(raw)?)
            .map_err(|error| describe(&error, "a loadable constant", raw))?;
        Ok(match item {
            Item::Integer(integer) => Constant::Int(integer.value),
            Item::Float(float) => Constant::Float(float.value),
            Item::Long(long) => Constant::Long(long.value),
            Item::Double(double) => Constant::Double(double.value),
            Item::String(string) => Constant::String(self.utf8(string.string.as_u16())?),
            Item::Class(class) => Constant::Class(self.utf8(class.name.as_u16())?),
            Item::MethodType(method_type) => Constant::MethodType(self.utf8(method_type.descriptor.as_u16())?),
            Item::MethodHandle(handle) => Constant::MethodHandle(self.method_handle(handle.kind, handle.reference)?),
            Item::Dynamic(dynamic) => {
                let (name, descriptor) = self.name_and_type(dynamic.name_and_type)?;
                Constant::Dynamic { name, descriptor }
            }
            _ => return Err(format!("constant pool index {raw}: not a loadable constant")),
        })
    }

    /// Renders a method handle as `kind owner.name:descriptor`.
    fn method_handle(&self, kind: MethodKind, reference: cpool::Index<Item<'input>>) -> Result<String, String> {
        let kind_name = match kind {
            MethodKind::GetField => "getfield",
            MethodKind::GetStatic => "getstatic",
            MethodKind::PutField => "putfield",
            MethodKind::PutStatic => "putstatic",
            MethodKind::InvokeVirtual => "invokevirtual",
            MethodKind::InvokeStatic => "invokestatic",
            MethodKind::InvokeSpecial => "invokespecial",
            MethodKind::NewInvokeSpecial => "newinvokespecial",
            MethodKind::InvokeInterface => "invokeinterface",
        };
        let raw = reference.as_u16();
        let item = self
            .pool
            .get(reference)
            .map_err(|error| describe(&error, "a method handle reference", raw))?;
        let (class, name_and_type) = match item {
            Item::FieldRef(field) => (field.class, field.name_and_type),
            Item::MethodRef(method) => (method.class, method.name_and_type),
            Item::InterfaceMethodRef(method) => (method.class, method.name_and_type),
            _ => {
                return Err(format!(
                    "constant pool index {raw}: a method handle must refer to a field or method"
                ))
            }
        };
        let owner = self.class_at(class)?;
        let (name, descriptor) = self.name_and_type(name_and_type)?;
        Ok(format!("{kind_name} {owner}.{name}:{descriptor}"))
    }

    /// The `CONSTANT_Integer` at `raw` (annotation values of kind `B`, `C`, `I`, `S`, `Z`).
    pub(crate) fn integer(&self, raw: u16) -> Result<i32, String> {
        self.pool
            .get(index::<cpool::Integer>(raw)?)
            .map(|integer| integer.value)
            .map_err(|error| describe(&error, "an integer", raw))
    }

    /// The `CONSTANT_Long` at `raw`.
    pub(crate) fn long(&self, raw: u16) -> Result<i64, String> {
        self.pool
            .get(index::<cpool::Long>(raw)?)
            .map(|long| long.value)
            .map_err(|error| describe(&error, "a long", raw))
    }

    /// The `CONSTANT_Float` at `raw`.
    pub(crate) fn float(&self, raw: u16) -> Result<f32, String> {
        self.pool
            .get(index::<cpool::Float>(raw)?)
            .map(|float| float.value)
            .map_err(|error| describe(&error, "a float", raw))
    }

    /// The `CONSTANT_Double` at `raw`.
    pub(crate) fn double(&self, raw: u16) -> Result<f64, String> {
        self.pool
            .get(index::<cpool::Double>(raw)?)
            .map(|double| double.value)
            .map_err(|error| describe(&error, "a double", raw))
    }
}
