//! The error type for inputs that could not be read or parsed.

use std::fmt;

/// Why an input (a path, an archive entry, or one class) could not be read or parsed.
///
/// Display renders it as `origin: method name(descriptor) at offset 12: message`, leaving out the
/// parts that are not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The file path, or `archive!entry` for a member of a jar or jmod.
    pub origin: String,
    /// The method's `name + descriptor` when the error lies within a method.
    pub method: Option<String>,
    /// The bytecode offset when `method` is set; otherwise the byte position in the class file
    /// where the problem was found, when known.
    pub offset: Option<u32>,
    /// What went wrong.
    pub message: String,
}

impl InputError {
    /// Creates an error for a whole input, with no method and no offset.
    pub fn new(origin: impl Into<String>, message: impl Into<String>) -> InputError {
        InputError {
            origin: origin.into(),
            method: None,
            offset: None,
            message: message.into(),
        }
    }

    /// Returns the same error with the given byte offset.
    pub fn at_offset(mut self, offset: Option<u32>) -> InputError {
        self.offset = offset;
        self
    }

    /// Returns the same error attributed to the given method (`name + descriptor`).
    pub fn in_method(mut self, method: impl Into<String>) -> InputError {
        self.method = Some(method.into());
        self
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}: ", self.origin)?;
        match (&self.method, self.offset) {
            (Some(method), Some(offset)) => write!(formatter, "method {method} at offset {offset}: ")?,
            (Some(method), None) => write!(formatter, "method {method}: ")?,
            (None, Some(offset)) => write!(formatter, "at offset {offset}: ")?,
            (None, None) => {}
        }
        formatter.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}
