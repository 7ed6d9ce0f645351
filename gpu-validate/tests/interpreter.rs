//! The interpreter on hand-written IR, without a JDK: a class source over parsed IR text runs
//! loops, recursion, guards, `long` and `double` arithmetic and procedure calls, and an instance
//! that needs a JDK class the source lacks ends as a refusal that names it (never a panic or a
//! wrong value). The fixtures compiled with `javac` (`tests/vm_*.rs` of the root crate) cover the
//! rest against the real JVM. Every run here also runs on the interpreter kernel compiled for the
//! host, whose outcomes must be the CPU backend's.

use jresa_analyses::ir::{parse_program, MethodIr};
use jresa_gpu_validate::{
    make_backend, Backend, BackendKind, ClassInfo, ClassSource, CpuBackend, Ending, MethodInfo, Package, Rendered,
    RunConfig, Value,
};

/// Classes made of the methods of IR text; no superclasses, no fields.
struct IrSource {
    methods: Vec<MethodIr>,
}

impl ClassSource for IrSource {
    fn class(&self, name: &str) -> Option<ClassInfo> {
        let methods: Vec<MethodInfo> = self
            .methods
            .iter()
            .filter(|m| m.class == name)
            .map(|m| MethodInfo {
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                access: if m.is_static { 0x0008 } else { 0 },
                has_code: true,
            })
            .collect();
        (!methods.is_empty()).then(|| ClassInfo {
            name: name.to_owned(),
            super_name: None,
            interfaces: Vec::new(),
            access: 0x0001,
            fields: Vec::new(),
            methods,
            library: false,
            lambdas: Vec::new(),
        })
    }

    fn method_ir(&self, class: &str, name: &str, descriptor: &str) -> Result<MethodIr, String> {
        self.methods
            .iter()
            .find(|m| m.class == class && m.name == name && m.descriptor == descriptor)
            .cloned()
            .ok_or_else(|| format!("no method {class}.{name}{descriptor}"))
    }
}

const PROGRAM: &str = r#"
method T.gcd:(II)I static
  vars ret:int a:int b:int t:int
  entry b0
  proc b0(a, b; ret) block @0
    rule bc=3 when b == 0
      @1#3 ret = a
    rule bc=6 when b != 0
      @4#5 t = irem a, b
      @5#6 call b0(b, t; ret)
method T.divide:(II)I static
  vars ret:int a:int b:int t:int
  entry b0
  proc b0(a, b; ret) block @0
    rule bc=4
      @2#3 t = idiv a, b
      @3#4 ret = t
method T.sumTo:(I)J static
  vars ret:long n:int s.out:long i:int s:long s.1:long i.1:int t:long
  entry b0
  proc b0(n; ret) block @0
    rule bc=4
      @3#4 call loop4(n, 1, 0L; s.1)
      @3#4 ret = s.1
  proc loop4(n, i, s; s.out) loop @4
    rule bc=3 when i > n
      @6#3 s.out = s
    rule bc=8 when i <= n
      @9#5 t = i2l i
      @10#6 s.1 = ladd s, t
      @12#7 i.1 = iadd i, 1
      @13#8 call loop4(n, i.1, s.1; s.out)
method T.twice:(I)I static
  vars ret:int n:int t:int u:int
  entry b0
  proc b0(n; ret) block @0
    rule bc=6
      @2#3 t = invokestatic T.gcd:(II)I (n, 12)
      @4#5 u = imul t, 2
      @5#6 ret = u
method T.compare:(DD)I static
  vars ret:int a:double b:double c:int
  entry b0
  proc b0(a, b; ret) block @0
    rule bc=4
      @2#3 c = dcmpg a, b
      @3#4 ret = c
"#;

fn package() -> (Package, Vec<MethodIr>) {
    let program = parse_program(PROGRAM).expect("the IR parses");
    let source = IrSource {
        methods: program.methods.clone(),
    };
    let entries: Vec<(String, String, String)> = program
        .methods
        .iter()
        .map(|m| (m.class.clone(), m.name.clone(), m.descriptor.clone()))
        .collect();
    (
        Package::build(&source, &entries).expect("the package builds"),
        program.methods,
    )
}

fn run(package: &Package, name: &str, descriptor: &str, instances: &[Vec<Value>]) -> Vec<(Ending, u64)> {
    let backend = CpuBackend::new(package, RunConfig::default());
    let outcomes = backend.run(("T", name, descriptor), instances);
    let kernel = make_backend(BackendKind::HostKernel, package, RunConfig::default()).expect("the host kernel");
    assert_eq!(
        outcomes,
        kernel.run(("T", name, descriptor), instances),
        "the kernel differs on T.{name}"
    );
    outcomes.into_iter().map(|o| (o.ending, o.metrics.bytecodes)).collect()
}

fn int(value: i32) -> Ending {
    Ending::Returned {
        value: Rendered::Int { ty: 'I', value },
    }
}

#[test]
fn recursion_loops_calls_and_floating_point_comparisons() {
    let (package, _) = package();
    // gcd: 3 bytecodes at the base, 6 per step.
    let gcd = run(
        &package,
        "gcd",
        "(II)I",
        &[vec![Value::Int(12), Value::Int(18)], vec![Value::Int(7), Value::Int(0)]],
    );
    assert_eq!(gcd, vec![(int(6), 3 + 6 * 3), (int(7), 3)]);
    // sumTo: 4 at entry, 8 per iteration, 3 at the exit.
    let sums = run(
        &package,
        "sumTo",
        "(I)J",
        &[vec![Value::Int(100_000)], vec![Value::Int(0)]],
    );
    assert_eq!(
        sums[0],
        (
            Ending::Returned {
                value: Rendered::Long(5_000_050_000)
            },
            4 + 8 * 100_000 + 3
        )
    );
    assert_eq!(
        sums[1],
        (
            Ending::Returned {
                value: Rendered::Long(0)
            },
            7
        )
    );
    // A call: the callee's bytecodes count too.
    let twice = run(&package, "twice", "(I)I", &[vec![Value::Int(18)]]);
    assert_eq!(twice, vec![(int(12), 6 + 3 + 6 * 2)]);
    // dcmpg: NaN compares as greater.
    let nan = f64::NAN.to_bits();
    let compare = run(
        &package,
        "compare",
        "(DD)I",
        &[
            vec![Value::Double(1.0f64.to_bits()), Value::Double(2.0f64.to_bits())],
            vec![Value::Double(nan), Value::Double(0.0f64.to_bits())],
            vec![Value::Double((-0.0f64).to_bits()), Value::Double(0.0f64.to_bits())],
        ],
    );
    let values: Vec<Ending> = compare.into_iter().map(|(e, _)| e).collect();
    assert_eq!(values, vec![int(-1), int(1), int(0)]);
}

#[test]
fn missing_jdk_classes_and_bad_inputs_are_refusals_that_name_the_cause() {
    let (package, _) = package();
    let outcomes = run(
        &package,
        "divide",
        "(II)I",
        &[vec![Value::Int(7), Value::Int(2)], vec![Value::Int(1), Value::Int(0)]],
    );
    assert_eq!(outcomes[0], (int(3), 4));
    match &outcomes[1].0 {
        Ending::Refused { reason } => assert!(reason.contains("not on the class path"), "{reason}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    // Inputs of the wrong type or number, and methods that are not entries.
    let wrong = run(
        &package,
        "gcd",
        "(II)I",
        &[vec![Value::Long(1), Value::Int(2)], vec![Value::Int(1)]],
    );
    for (ending, _) in wrong {
        assert!(matches!(ending, Ending::Refused { .. }), "{ending:?}");
    }
    let backend = CpuBackend::new(&package, RunConfig::default());
    let absent = backend.run(("T", "absent", "()V"), &[Vec::new()]);
    assert!(matches!(&absent[0].ending, Ending::Refused { reason } if reason.contains("not an entry")));
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let (package, _) = package();
    let instances: Vec<Vec<Value>> = (0..200)
        .map(|k| vec![Value::Int(k * 7 % 50), Value::Int(k % 13)])
        .collect();
    let many = run(&package, "gcd", "(II)I", &instances);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a thread pool");
    let one = pool.install(|| run(&package, "gcd", "(II)I", &instances));
    assert_eq!(many, one);
}
