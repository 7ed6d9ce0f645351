//! The packaging pipeline: the entries are checked, `closure` finds what to package, `layout` lays
//! it out and `encode` encodes it. Everything but running code: the library classes are initialised
//! afterwards, by `Package::build` (`crate::preinit`), which runs the interpreter on the result.

use super::closure::{self, MethodKey};
use super::{encode, layout, Package, PackageError};
use crate::source::ClassSource;

impl Package {
    /// Packages `entries` (methods by declaring class, name and descriptor) with everything they
    /// can reach, with no class initialised yet. An entry that does not exist is an error;
    /// everything else that cannot be packaged becomes a refusal inside the package.
    pub(crate) fn assemble(source: &dyn ClassSource, entries: &[MethodKey]) -> Result<Package, PackageError> {
        for (class, name, descriptor) in entries {
            let found = source
                .class(class)
                .is_some_and(|info| info.method(name, descriptor).is_some());
            if !found {
                return Err(PackageError {
                    message: format!("no method {}.{name}{descriptor}", class.replace('/', ".")),
                });
            }
        }
        let closure = closure::discover(source, entries);
        let (mut package, layout) = layout::lay_out(&closure);
        encode::encode(&closure, &layout, &mut package, entries)?;
        Ok(package)
    }
}
