//! Building a package: the packaging of `package` (closure, layout, encoding), then the
//! pre-initialisation of library classes, which runs the interpreter of `vm`. This step sits above
//! both modules so that the dependency between them is one-way: `vm` runs a `package::Package`,
//! and `package` never names `vm`.

use crate::package::{MethodKey, Package, PackageError};
use crate::source::ClassSource;
use crate::vm::{Limits, Machine, RunConfig};

impl Package {
    /// Packages `entries` (methods by declaring class, name and descriptor) with everything they
    /// can reach. An entry that does not exist is an error; everything else that cannot be
    /// packaged becomes a refusal inside the package.
    pub fn build(source: &dyn ClassSource, entries: &[MethodKey]) -> Result<Package, PackageError> {
        let mut package = Package::assemble(source, entries)?;
        package.preinitialize();
        Ok(package)
    }

    /// Initialises the library classes that packaged code may initialise, once, into the images
    /// every instance starts from (a JVM has initialised its library long before a program's
    /// method runs; program classes stay uninitialised until their first active use). A class
    /// whose initialisation fails, is refused or would initialise a program class is left
    /// uninitialised, with everything its attempt changed undone, so that instances meet it lazily.
    fn preinitialize(&mut self) {
        self.initial_class_state = vec![0; self.class_names.len()];
        self.initial_mirrors = vec![0; self.class_names.len()];
        let config = RunConfig {
            limits: Limits {
                max_bytecodes: 50_000_000,
                ..Limits::default()
            },
            cct: false,
        };
        let image = {
            let mut machine = Machine::new(self, config);
            machine.preinitialize(&self.library_initializers, &self.class_library);
            machine.into_image()
        };
        (
            self.initial_heap,
            self.initial_statics,
            self.initial_class_state,
            self.initial_mirrors,
        ) = image;
    }
}
