//! The execution-backend seam: every runner of instances (validation, sequence exploration, Korat's
//! predicates) runs them through [`Backend`], whichever backend executes them.
//!
//! **Invariants:** a backend returns one result per instance, in the order of the instances; the
//! results do not depend on the backend (every backend agrees with the CPU backend bit for bit,
//! which the differential tests check); a fault of the interpreter on one instance ends that
//! instance as `Refused`, never the run.

use crate::value::{Outcome, Value};
use crate::vm::FieldRead;

/// A method of the package by class (internal name), name and descriptor.
pub type MethodRef<'a> = (&'a str, &'a str, &'a str);

/// Runs instances of packaged methods.
pub trait Backend: Sync {
    /// The name reports give the backend (with the device, where there is one).
    fn name(&self) -> String;

    /// Runs `method` on every instance; outcomes come in the order of `instances`. A method that
    /// is not an entry of the package gives every instance a `Refused` outcome.
    fn run(&self, method: MethodRef<'_>, instances: &[Vec<Value>]) -> Vec<Outcome>;

    /// Like [`Backend::run`], with the fields of input objects each instance read, in the order
    /// of their first read (see [`crate::Machine::run_traced`]).
    fn run_traced(&self, method: MethodRef<'_>, instances: &[Vec<Value>]) -> Vec<(Outcome, Vec<FieldRead>)>;

    /// Like [`Backend::run`], with the state of every argument after the instance (see
    /// [`crate::Machine::run_capturing`]).
    fn run_capturing(
        &self,
        method: MethodRef<'_>,
        instances: &[Vec<Value>],
    ) -> Vec<(Outcome, Result<Vec<Value>, String>)>;

    /// What the backend did so far beyond running instances (instances deferred to another
    /// backend, where its time went), for reports and benchmarks; `None` when there is nothing
    /// to say.
    fn statistics(&self) -> Option<String> {
        None
    }
}

/// Which backend runs instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// The CUDA backend where a device and its libraries are present, else the CPU backend.
    Auto,
    /// The Rust interpreter on every core (rayon).
    Cpu,
    /// The interpreter kernel compiled as C, on the host's cores.
    HostKernel,
    /// The interpreter kernel on a CUDA device.
    Cuda,
}

impl BackendKind {
    /// The kind `Auto` stands for on this machine, with the reason when it is not CUDA.
    pub fn resolve(self) -> (BackendKind, Option<String>) {
        match self {
            BackendKind::Auto => match crate::kernel::cuda::available() {
                Ok(_) => (BackendKind::Cuda, None),
                Err(why) => (BackendKind::Cpu, Some(why)),
            },
            other => (other, None),
        }
    }
}

/// The backends of one package: the program is prepared (and, for CUDA, copied to the device)
/// once, and each [`Backends::backend`] runs it with its own run configuration.
pub struct Backends<'p> {
    package: &'p crate::Package,
    device: Option<std::sync::Arc<dyn crate::kernel::Device + 'p>>,
    counts: std::sync::Arc<std::sync::Mutex<crate::kernel::KernelCounts>>,
    schedule: std::sync::Arc<crate::kernel::Schedule>,
}

impl<'p> Backends<'p> {
    /// Backends of `kind` (`Auto` resolved as [`BackendKind::resolve`] does); `Err` says why a
    /// CUDA backend cannot be had.
    pub fn new(kind: BackendKind, package: &'p crate::Package) -> Result<Backends<'p>, String> {
        use crate::kernel::{abi, cuda::CudaDevice, host::HostDevice};
        let device: Option<std::sync::Arc<dyn crate::kernel::Device + 'p>> = match kind.resolve().0 {
            BackendKind::HostKernel => Some(std::sync::Arc::new(HostDevice::new(abi::program_image(package)))),
            BackendKind::Cuda => Some(std::sync::Arc::new(CudaDevice::new(&abi::program_image(package))?)),
            BackendKind::Cpu | BackendKind::Auto => None,
        };
        Ok(Backends {
            package,
            device,
            counts: Default::default(),
            schedule: std::sync::Arc::new(crate::kernel::Schedule::new(crate::kernel::Mapping::default())),
        })
    }

    /// The same backends, mapping a kernel's instances to threads as `mapping` says.
    pub fn with_mapping(mut self, mapping: crate::kernel::Mapping) -> Backends<'p> {
        self.schedule = std::sync::Arc::new(crate::kernel::Schedule::new(mapping));
        self
    }

    pub fn package(&self) -> &'p crate::Package {
        self.package
    }

    /// What the kernel of every backend made so far ran and left to the CPU; `None` for the CPU
    /// backend.
    pub fn statistics(&self) -> Option<String> {
        self.device.as_ref()?;
        self.counts.lock().ok().map(|counts| counts.summary())
    }

    /// A backend running instances with `config`.
    pub fn backend(&self, config: crate::RunConfig) -> Box<dyn Backend + 'p> {
        match &self.device {
            Some(device) => Box::new(
                crate::kernel::KernelBackend::new(self.package, config, device.clone())
                    .sharing_counts(self.counts.clone())
                    .sharing_schedule(self.schedule.clone()),
            ),
            None => Box::new(crate::CpuBackend::new(self.package, config)),
        }
    }
}

/// A backend of `kind` for a package (see [`Backends`]).
pub fn make_backend<'p>(
    kind: BackendKind,
    package: &'p crate::Package,
    config: crate::RunConfig,
) -> Result<Box<dyn Backend + 'p>, String> {
    Ok(Backends::new(kind, package)?.backend(config))
}
