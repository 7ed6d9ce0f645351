//! Benchmark of the polyhedra domain on 10-dimensional cases shaped like value-analysis states:
//! join (convex hull), projection, minimisation, inclusion and widening.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use jresa_analyses::value::polyhedra::{Constraint, LinearExpr, Polyhedron};
use std::time::Duration;

const DIMENSIONS: usize = 10;

fn expression(terms: &[(usize, i64)], constant: i64) -> LinearExpr {
    LinearExpr::from_terms(terms, constant).expect("small numbers")
}

/// `lower ≤ x_d ≤ upper` for every dimension, plus `x_{d+1} ≥ x_d + step` chains: the shape of a
/// loop state with ordered indices.
fn chained_box(lower: i64, upper: i64, step: i64) -> Polyhedron {
    let mut constraints = Vec::new();
    for dimension in 0..DIMENSIONS {
        constraints.push(Constraint::greater_or_equal_zero(expression(&[(dimension, 1)], -lower)));
        constraints.push(Constraint::greater_or_equal_zero(expression(&[(dimension, -1)], upper)));
        if dimension + 1 < DIMENSIONS {
            constraints.push(Constraint::greater_or_equal_zero(expression(
                &[(dimension + 1, 1), (dimension, -1)],
                -step,
            )));
        }
    }
    Polyhedron::from_constraints(DIMENSIONS, constraints)
}

/// The single point `x_d = values(d)`.
fn point(values: impl Fn(usize) -> i64) -> Polyhedron {
    Polyhedron::from_constraints(
        DIMENSIONS,
        (0..DIMENSIONS).map(|dimension| Constraint::equal_zero(expression(&[(dimension, 1)], -values(dimension)))),
    )
}

/// A deterministic pseudo-random polyhedron: `count` constraints with coefficients in -3..=3 on
/// three dimensions each, around the origin (so it is not empty).
fn random_polyhedron(seed: u64, count: usize) -> Polyhedron {
    let mut state = seed;
    let mut next = move |modulus: u64| -> i64 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % modulus) as i64
    };
    let mut constraints = Vec::new();
    for _ in 0..count {
        let terms: Vec<(usize, i64)> = (0..3)
            .map(|_| (next(DIMENSIONS as u64) as usize, next(7) - 3))
            .collect();
        constraints.push(Constraint::greater_or_equal_zero(expression(&terms, 5 + next(10))));
    }
    Polyhedron::from_constraints(DIMENSIONS, constraints)
}

fn polyhedra(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("polyhedra-10d");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));

    let origin = point(|_| 0);
    let diagonal = point(|dimension| dimension as i64 + 1);
    group.bench_function("join two points", |bencher| {
        bencher.iter(|| black_box(origin.join(&diagonal)))
    });

    let first_box = chained_box(0, 20, 1);
    let second_box = chained_box(5, 30, 2);
    group.bench_function("join two chained boxes", |bencher| {
        bencher.iter(|| black_box(first_box.join(&second_box)))
    });

    let segment = origin.join(&diagonal);
    let next_point = point(|dimension| 2 * (dimension as i64 + 1));
    group.bench_function("join segment and point", |bencher| {
        bencher.iter(|| black_box(segment.join(&next_point)))
    });

    let first_random = random_polyhedron(1, 15);
    let second_random = random_polyhedron(2, 15);
    group.bench_function("join two random 15-constraint polyhedra", |bencher| {
        bencher.iter(|| black_box(first_random.join(&second_random)))
    });

    group.bench_function("project out 5 of a chained box", |bencher| {
        bencher.iter(|| black_box(first_box.project_out(&[1, 3, 5, 7, 9])))
    });
    group.bench_function("project out 5 of a random polyhedron", |bencher| {
        bencher.iter(|| black_box(first_random.project_out(&[0, 2, 4, 6, 8])))
    });

    group.bench_function("minimize chained box", |bencher| {
        bencher.iter(|| black_box(first_box.minimized()))
    });
    group.bench_function("includes (chained boxes)", |bencher| {
        bencher.iter(|| black_box(second_box.includes(&first_box)))
    });
    group.bench_function("is_empty (random)", |bencher| {
        bencher.iter(|| black_box(first_random.is_empty()))
    });
    let joined = first_box.join(&second_box);
    group.bench_function("widen chained boxes", |bencher| {
        bencher.iter(|| black_box(first_box.widen(&joined, &[])))
    });
    group.finish();
}

criterion_group!(benches, polyhedra);
criterion_main!(benches);
