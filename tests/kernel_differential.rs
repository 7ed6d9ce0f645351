//! The interpreter kernel (`gpu-validate/kernel/interp.cu`), compiled as C for the host, against
//! the CPU backend: every instance of every VM fixture (`tests/data/vm/*.java`) must have the same
//! outcome on both, bit for bit (ending, returned value, thrown class, the four counters inside and
//! outside class initialisation, the failed initialiser, the calling-context tree). Instances the
//! kernel defers run on the CPU backend; the test also requires that the kernel itself ran most of
//! them, so a kernel that deferred everything would fail. The kernel runs every instance twice:
//! one per thread (the automatic mapping, which moves a divergent method to warps after its first
//! launch) and one per warp (`CF_SPREAD` 32: the host loops over the 32 threads of each instance
//! as the device would, and only the first runs it). Instances of primitive parameters that form a
//! grid decode their inputs from their numbers on the kernel (`kernel/grid.rs`); the test requires
//! some to.

use crate::analyze_support;
use crate::vm_support;
use jresa_gpu_validate::kernel::cuda::{self, CudaDevice};
use jresa_gpu_validate::kernel::{abi, host::HostDevice, Device, KernelBackend, Mapping, Schedule};
use jresa_gpu_validate::{Backend, CpuBackend, Limits, Package, RunConfig};
use std::sync::Arc;

#[test]
fn the_host_compiled_kernel_agrees_with_the_cpu_backend_on_every_fixture_instance() {
    let fixtures = vm_support::fixtures();
    let dir = analyze_support::scratch("kernel-differential", "classes");
    let mut sources = fixtures.clone();
    sources.push(vm_support::resource_source());
    let classes = vm_support::compile(&sources, &dir);
    let source = vm_support::source(&classes);
    let subjects: Vec<vm_support::Subject> = fixtures
        .iter()
        .flat_map(|f| vm_support::subjects(f, &classes))
        .collect();
    let entries: Vec<(String, String, String)> = subjects
        .iter()
        .map(|s| (s.class.clone(), s.name.clone(), s.descriptor.clone()))
        .collect();
    let package = Package::build(&source, &entries).expect("the fixtures package");
    let config = RunConfig {
        cct: true,
        limits: Limits {
            max_bytecodes: 5_000_000,
            heap_words: 1 << 22,
            ..Default::default()
        },
    };
    let cpu = CpuBackend::new(&package, config);
    let image = abi::program_image(&package);
    let mut devices: Vec<(&str, Arc<dyn Device>)> = vec![("host", Arc::new(HostDevice::new(image.clone())))];
    // On a machine with an NVIDIA device the kernel also runs there, compiled by NVRTC.
    if let Ok(name) = cuda::available() {
        eprintln!("also on the CUDA device: {name}");
        devices.push((
            "cuda",
            Arc::new(CudaDevice::new(&image).expect("the program loads on the device")),
        ));
    }
    let kernels: Vec<(String, KernelBackend)> = devices
        .iter()
        .flat_map(|(device_name, device)| {
            [(Mapping::Auto, "thread"), (Mapping::Warp, "warp")].map(|(mapping, mapping_name)| {
                let backend = KernelBackend::new(&package, config, device.clone())
                    .sharing_schedule(Arc::new(Schedule::new(mapping)));
                (format!("{device_name}, one per {mapping_name}"), backend)
            })
        })
        .collect();
    let mut instances = 0;
    let mut mismatches = Vec::new();
    for subject in &subjects {
        let key = (
            subject.class.as_str(),
            subject.name.as_str(),
            subject.descriptor.as_str(),
        );
        let expected = cpu.run(key, &subject.instances);
        instances += expected.len();
        for (mapping, kernel) in &kernels {
            let actual = kernel.run(key, &subject.instances);
            assert_eq!(expected.len(), actual.len());
            for (k, (e, a)) in expected.iter().zip(&actual).enumerate() {
                if e != a {
                    mismatches.push(format!(
                        "{}.{}{} instance {k} {:?} ({mapping}):\n  cpu:    {:?} {:?} {:?}\n  kernel: {:?} {:?} {:?}",
                        subject.class,
                        subject.name,
                        subject.descriptor,
                        subject.instances[k],
                        e.ending,
                        e.metrics,
                        e.initialization,
                        a.ending,
                        a.metrics,
                        a.initialization
                    ));
                }
            }
        }
    }
    for pair in kernels.chunks(2) {
        check_counts(instances, &pair[0], &pair[1]);
    }
    assert!(
        mismatches.is_empty(),
        "{} of {instances} instances differ:\n{}",
        mismatches.len(),
        mismatches.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(instances >= 100, "too few fixture instances: {instances}");
}

/// What one device's kernel ran under the two mappings: the same instances, most of them, some
/// decoding their inputs, and every one per warp under the warp mapping.
fn check_counts(instances: usize, (name, auto): &(String, KernelBackend), (_, warp): &(String, KernelBackend)) {
    let counts = auto.counts();
    let warp = warp.counts();
    eprintln!(
        "{instances} instances ({name}): the kernel ran {} ({} of them one per warp, {} decoding their inputs), deferred {:?}; one per warp, it ran {}",
        counts.ran, counts.ran_per_warp, counts.ran_decoded, counts.deferred, warp.ran
    );
    assert_eq!(
        warp.ran, warp.ran_per_warp,
        "the warp mapping launched instances one per thread"
    );
    assert_eq!(counts.ran, warp.ran, "the mappings differ in what the kernel ran");
    assert!(
        counts.ran_decoded > 0 && counts.ran_decoded == warp.ran_decoded,
        "no instance decoded its inputs on the kernel (or the mappings differ): {} and {}",
        counts.ran_decoded,
        warp.ran_decoded
    );
    assert!(
        counts.ran * 2 > instances as u64,
        "the kernel ran only {} of {instances} instances itself: {:?}",
        counts.ran,
        counts.deferred
    );
}
