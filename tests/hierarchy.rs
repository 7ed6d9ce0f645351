//! Call resolution on the hierarchy of a compiled fixture: JVM resolution for static and special
//! calls, class-hierarchy analysis for virtual and interface calls, through the JDK's classes.
use jresa::classfile::{read_inputs, ClassPath};
use jresa::program::build_hierarchy;
use jresa_analyses::hierarchy::{Hierarchy, Target};
use jresa_analyses::ir::{CallKind, MethodRef};
use std::path::Path;
use std::sync::OnceLock;

fn hierarchy() -> &'static Hierarchy {
    static HIERARCHY: OnceLock<Hierarchy> = OnceLock::new();
    HIERARCHY.get_or_init(|| {
        let out = std::env::temp_dir().join(format!("jresa-hierarchy-{}", std::process::id()));
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lift/Objects.java");
        let status = crate::javac()
            .args(["-g", "-d"])
            .arg(&out)
            .arg(source)
            .status()
            .expect("javac runs");
        assert!(status.success());
        let loaded = read_inputs(std::slice::from_ref(&out));
        assert!(loaded.errors.is_empty());
        let classpath = ClassPath::default_jdk().expect("the JDK's java.base");
        let hierarchy = build_hierarchy(&loaded.classes, Some(&classpath));
        let _ = std::fs::remove_dir_all(out);
        hierarchy
    })
}

fn method(class: &str, name: &str, descriptor: &str) -> MethodRef {
    MethodRef {
        class: class.into(),
        name: name.into(),
        descriptor: descriptor.into(),
    }
}

fn target(class: &str, name: &str, descriptor: &str) -> Target {
    Target {
        class: class.into(),
        name: name.into(),
        descriptor: descriptor.into(),
    }
}

fn targets(kind: CallKind, m: MethodRef) -> Vec<Target> {
    let found = hierarchy().targets(kind, &m);
    assert!(found.complete, "resolution of {m:?} should be complete");
    found.targets
}

#[test]
fn interface_call_reaches_every_implementation() {
    let found = targets(CallKind::Interface, method("Objects$Shape", "area", "()I"));
    assert_eq!(
        found,
        vec![
            target("Objects$Rect", "area", "()I"),
            target("Objects$Square", "area", "()I")
        ]
    );
}

#[test]
fn default_method_is_selected_for_classes_that_do_not_override_it() {
    let found = targets(CallKind::Interface, method("Objects$Shape", "doubledArea", "()I"));
    assert!(
        found.contains(&target("Objects$Shape", "doubledArea", "()I")),
        "{found:?}"
    );
}

#[test]
fn virtual_call_through_the_abstract_class() {
    let found = targets(CallKind::Virtual, method("Objects$Base", "sides", "()I"));
    assert_eq!(
        found,
        vec![
            target("Objects$Rect", "sides", "()I"),
            target("Objects$Square", "sides", "()I")
        ]
    );
}

#[test]
fn special_and_static_calls_resolve_up_the_superclasses() {
    let found = targets(CallKind::Special, method("Objects$Square", "describe", "()I"));
    assert_eq!(found, vec![target("Objects$Square", "describe", "()I")]);
    let inherited = targets(CallKind::Special, method("Objects$Square", "hashCode", "()I"));
    assert_eq!(inherited, vec![target("java/lang/Object", "hashCode", "()I")]);
}

#[test]
fn subtyping_follows_interfaces() {
    let h = hierarchy();
    assert!(h.is_subtype("Objects$Square", "Objects$Shape"));
    assert!(!h.is_subtype("Objects$Shape", "Objects$Square"));
    assert!(h.is_subtype("java/lang/String", "java/lang/CharSequence"));
}

#[test]
fn virtual_call_of_a_native_method_selects_it() {
    // `getClass` has no bytecode but is the implementation every class inherits.
    let found = targets(
        CallKind::Virtual,
        method("Objects$Rect", "getClass", "()Ljava/lang/Class;"),
    );
    assert_eq!(
        found,
        vec![target("java/lang/Object", "getClass", "()Ljava/lang/Class;")]
    );
}

#[test]
fn a_class_added_after_a_call_was_resolved_is_among_its_targets() {
    use jresa_analyses::hierarchy::{ClassDecl, MethodDecl};
    let mut copy = hierarchy().clone();
    let area = method("Objects$Shape", "area", "()I");
    assert_eq!(copy.targets(CallKind::Interface, &area).targets.len(), 2);
    copy.add(ClassDecl {
        name: "Objects$Triangle".into(),
        super_name: Some("java/lang/Object".into()),
        interfaces: vec!["Objects$Shape".into()],
        access: 0,
        methods: vec![MethodDecl {
            name: "area".into(),
            descriptor: "()I".into(),
            access: 0,
            has_code: true,
        }],
        fields: Vec::new(),
    });
    let found = copy.targets(CallKind::Interface, &area).targets;
    assert!(found.contains(&target("Objects$Triangle", "area", "()I")), "{found:?}");
    assert_eq!(found.len(), 3);
    // Resolving again gives what was remembered, and the original hierarchy is unchanged.
    assert_eq!(copy.targets(CallKind::Interface, &area).targets, found);
    assert_eq!(hierarchy().targets(CallKind::Interface, &area).targets.len(), 2);
}

#[test]
fn a_final_method_is_the_only_target_of_a_virtual_call_to_it() {
    // An abstract class that no class of the program extends: CHA finds no receiver class, but
    // no class may override a final method, so the call runs the declared one.
    let out = std::env::temp_dir().join(format!("jresa-hierarchy-final-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("a temporary directory");
    let source = out.join("Named.java");
    let text = "abstract class Named { final int tag() { return 1; } abstract int size(); }";
    std::fs::write(&source, text).expect("the source is written");
    let status = crate::javac()
        .arg("-d")
        .arg(&out)
        .arg(&source)
        .status()
        .expect("javac runs");
    assert!(status.success());
    let loaded = read_inputs(std::slice::from_ref(&out));
    let _ = std::fs::remove_dir_all(&out);
    assert!(loaded.errors.is_empty());
    let classpath = ClassPath::default_jdk().expect("the JDK's java.base");
    let hierarchy = build_hierarchy(&loaded.classes, Some(&classpath));
    let tag = hierarchy.targets(CallKind::Virtual, &method("Named", "tag", "()I"));
    assert!(tag.complete);
    assert_eq!(tag.targets, vec![target("Named", "tag", "()I")]);
    // An abstract method of the same class still has no target.
    let size = hierarchy.targets(CallKind::Virtual, &method("Named", "size", "()I"));
    assert!(size.targets.is_empty());
}
