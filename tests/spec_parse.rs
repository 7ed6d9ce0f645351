//! The assertion parser (`src/spec/parse.rs`, grammar `grammar/spec.pest`): examples from the
//! paper, golden diagnostics for malformed strings (`tests/data/spec/malformed.txt`), and property
//! tests: print → parse is the identity on random syntax trees, and no string makes it panic.

use jresa::spec::parse_assertions;
use jresa_analyses::amortised::assertion::{
    Assertion, Assertions, ClassName, DataAssertion, DataOp, HeapAssertion, LinearExpr, LinearTerm, Span, Term,
    TermKind, TypeName, TypedVar, KEYWORDS,
};
use proptest::prelude::*;
use std::path::Path;

#[test]
fn the_papers_annotations_parse_and_print_canonically() {
    let cases = [
        (
            "{ | lseg(1, @arg p, null) * lseg (0, @arg q, null)| 2 }",
            "{ | lseg(1, @arg p, null) * lseg(0, @arg q, null) | 2 }",
        ),
        (
            "{ | lseg(x1, @arg p, null) * lseg(x2, @arg q, null) | x3 }",
            "{ | lseg(x1, @arg p, null) * lseg(x2, @arg q, null) | x3 }",
        ),
        (
            "{ | lseg(0, @arg p, @var t) * lseg(1, @var t, null) * lseg(0, @arg q, null) | 0 }",
            "{ | lseg(0, @arg p, @var t) * lseg(1, @var t, null) * lseg(0, @arg q, null) | 0 }",
        ),
        ("{|lseg(3,@ret,null)|7}", "{ | lseg(3, @ret, null) | 7 }"),
        (
            "exists x:ref n:int. { @var t != null, x == @arg q | [(@var t).next:ref -> x], tree(3*r1 + 5*r2 + r3 + 7, x) | r1 - 2 }",
            "exists x:ref n:int. { @var t != null, x == @arg q | [(@var t).next:ref -> x] * tree(3*r1 + 5*r2 + r3 + 7, x) | r1 - 2 }",
        ),
        (
            "{ @ret == null | | 0 } || { | lseg(y, @ret, null) | }",
            "{ @ret == null | | 0 } || { | lseg(y, @ret, null) | 0 }",
        ),
        ("{ | [(@arg this).head:int -> ?] | }", "{ | [(@arg this).head:int -> ?] | 0 }"),
        // Existentials declared with their class: simple, nested and qualified names.
        (
            "exists f: Cell b:Queue.Cell c: Queue$Cell d: pkg.Outer$Inner n: int. { | lseg(0, f, b) | }",
            "exists f:Cell b:Queue.Cell c:Queue$Cell d:pkg.Outer$Inner n:int. { | lseg(0, f, b) | 0 }",
        ),
    ];
    for (text, canonical) in cases {
        let parsed = parse_assertions(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(parsed.to_string(), canonical, "printing {text}");
        let again = parse_assertions(canonical).expect("the canonical text parses");
        assert_eq!(again.without_spans(), parsed.without_spans(), "re-reading {canonical}");
    }
}

#[test]
fn spans_point_into_the_annotation() {
    let text = "{ | lseg(x1, @arg p, null) | x3 + 2 }";
    let parsed = parse_assertions(text).expect("parses");
    let HeapAssertion::Lseg {
        resource,
        from,
        to,
        span,
    } = &parsed.disjuncts[0].heap[0]
    else {
        panic!("an lseg");
    };
    assert_eq!(&text[span.start..span.end], "lseg(x1, @arg p, null)");
    assert_eq!(&text[resource.span.start..resource.span.end], "x1");
    assert_eq!(&text[from.span.start..from.span.end], "@arg p");
    assert_eq!(&text[to.span.start..to.span.end], "null");
    let resource = &parsed.disjuncts[0].resource;
    assert_eq!(&text[resource.span.start..resource.span.end], "x3 + 2");
}

/// Every line of `tests/data/spec/malformed.txt` that does not start with `#` or `=` is an
/// annotation string; the diagnostic printed under it (`= message @ start..end`) must match.
#[test]
fn malformed_annotations_give_clean_diagnostics() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/spec/malformed.txt");
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    let mut actual = String::new();
    let mut count = 0;
    for line in expected.lines() {
        if line.starts_with('=') {
            continue;
        }
        actual.push_str(line);
        actual.push('\n');
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        count += 1;
        match parse_assertions(line) {
            Ok(parsed) => actual.push_str(&format!("= parses as {parsed}\n")),
            Err(error) => {
                assert!(
                    error.span.start <= error.span.end && error.span.end <= line.len(),
                    "span out of range for {line}"
                );
                actual.push_str(&format!(
                    "= {} @ {}..{} `{}`\n",
                    error.message,
                    error.span.start,
                    error.span.end,
                    &line[error.span.start..error.span.end]
                ));
            }
        }
    }
    assert!(count >= 10, "only {count} malformed examples");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &actual).expect("write the expected file");
        return;
    }
    assert_eq!(
        expected, actual,
        "diagnostics differ (UPDATE_EXPECT=1 rewrites the file)"
    );
}

fn name() -> impl Strategy<Value = String> {
    "[a-z_][a-z0-9_]{0,5}".prop_filter("not a keyword", |n| !KEYWORDS.contains(&n.as_str()))
}

fn term(existentials: Vec<String>) -> impl Strategy<Value = Term> {
    let mut options = vec![
        name().prop_map(TermKind::Arg).boxed(),
        name().prop_map(TermKind::Var).boxed(),
        Just(TermKind::Ret).boxed(),
        Just(TermKind::Null).boxed(),
    ];
    if !existentials.is_empty() {
        options.push(
            proptest::sample::select(existentials)
                .prop_map(TermKind::Exists)
                .boxed(),
        );
    }
    proptest::strategy::Union::new(options).prop_map(|kind| Term {
        kind,
        span: Span::default(),
    })
}

fn linear() -> impl Strategy<Value = LinearExpr> {
    proptest::collection::vec(
        (-1000i64..1000, proptest::option::of(name())).prop_map(|(coefficient, variable)| LinearTerm {
            coefficient,
            variable,
            span: Span::default(),
        }),
        0..4,
    )
    .prop_map(|terms| LinearExpr {
        terms,
        span: Span::default(),
    })
}

/// A class name as users write it: dotted identifiers, possibly with `$` for nested classes.
fn class_name() -> impl Strategy<Value = Option<String>> {
    proptest::option::of("[A-Z][a-z]{0,3}([.$][A-Z][a-z0-9_]{0,3}){0,2}")
}

fn type_name() -> impl Strategy<Value = TypeName> {
    proptest::sample::select(vec![
        TypeName::Int,
        TypeName::Long,
        TypeName::Float,
        TypeName::Double,
        TypeName::Ref,
    ])
}

fn heap(existentials: Vec<String>) -> impl Strategy<Value = HeapAssertion> {
    let zero = Span::default();
    prop_oneof![
        (
            term(existentials.clone()),
            name(),
            type_name(),
            proptest::option::of(term(existentials.clone()))
        )
            .prop_map(move |(object, field, ty, target)| HeapAssertion::Field {
                object,
                field,
                ty,
                target,
                span: zero,
            }),
        (linear(), term(existentials.clone()), term(existentials.clone())).prop_map(move |(resource, from, to)| {
            HeapAssertion::Lseg {
                resource,
                from,
                to,
                span: zero,
            }
        }),
        (linear(), term(existentials)).prop_map(move |(resource, root)| HeapAssertion::Tree {
            resource,
            root,
            span: zero,
        }),
    ]
}

fn assertion(existentials: Vec<String>) -> impl Strategy<Value = Assertion> {
    let data = (
        term(existentials.clone()),
        proptest::bool::ANY,
        term(existentials.clone()),
    )
        .prop_map(|(lhs, equal, rhs)| DataAssertion {
            lhs,
            op: if equal { DataOp::Eq } else { DataOp::Ne },
            rhs,
            span: Span::default(),
        });
    (
        proptest::collection::vec(data, 0..3),
        proptest::collection::vec(heap(existentials), 0..4),
        linear(),
    )
        .prop_map(|(data, heap, resource)| Assertion {
            data,
            heap,
            resource,
            span: Span::default(),
        })
}

fn assertions() -> impl Strategy<Value = Assertions> {
    proptest::collection::btree_map(name(), (type_name(), class_name()), 0..3).prop_flat_map(|declared| {
        let names: Vec<String> = declared.keys().cloned().collect();
        let exists: Vec<TypedVar> = declared
            .into_iter()
            .map(|(name, (ty, class))| TypedVar {
                name,
                // A variable declared with a class is a reference.
                ty: if class.is_some() { TypeName::Ref } else { ty },
                class: class.map(|name| ClassName {
                    name,
                    span: Span::default(),
                }),
                span: Span::default(),
            })
            .collect();
        proptest::collection::vec(assertion(names), 1..3).prop_map(move |disjuncts| Assertions {
            exists: exists.clone(),
            disjuncts,
            span: Span::default(),
        })
    })
}

/// An empty linear expression prints as `0`, which reads back as the constant 0.
fn normalised(mut tree: Assertions) -> Assertions {
    let fix = |e: &mut LinearExpr| {
        if e.terms.is_empty() {
            *e = LinearExpr::constant(0);
        }
    };
    for disjunct in &mut tree.disjuncts {
        fix(&mut disjunct.resource);
        for heap in &mut disjunct.heap {
            if let HeapAssertion::Lseg { resource, .. } | HeapAssertion::Tree { resource, .. } = heap {
                fix(resource);
            }
        }
    }
    tree.without_spans()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn printing_then_parsing_gives_the_same_tree(tree in assertions()) {
        let text = tree.to_string();
        let parsed = parse_assertions(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e:?}")))?;
        prop_assert_eq!(parsed.without_spans(), normalised(tree), "{}", text);
        prop_assert_eq!(parsed.to_string(), text);
    }

    #[test]
    fn no_string_makes_the_parser_panic(text in "[{}()\\[\\]|*,.:@a-z0-9 =!?<>+-]{0,60}") {
        if let Err(error) = parse_assertions(&text) {
            prop_assert!(error.span.start <= error.span.end && error.span.end <= text.len());
            prop_assert!(text.is_char_boundary(error.span.start) && text.is_char_boundary(error.span.end));
        }
    }

    #[test]
    fn mutated_valid_annotations_never_panic(tree in assertions(), cut in 0usize..200, insert in "[{}()|*,@ ]") {
        let mut text = tree.to_string();
        let at = cut.min(text.len());
        text.insert_str(at, &insert);
        let _ = parse_assertions(&text);
        text.truncate(at);
        let _ = parse_assertions(&text);
    }
}
