//! The numeric abstract domain interface: what the fixpoint (`fixpoint.rs`), overflow handling
//! (`overflow.rs`), ranking functions (`bounds/ranking.rs`) and the cost solver (`bounds/cost.rs`)
//! ask of an abstract state over `dimensions` integer variables. Convex polyhedra
//! ([`Polyhedron`]) implement it; a cheaper domain (intervals, octagons) plugs in by implementing
//! it, without touching those clients.
//!
//! States speak linear constraints: they are built from them, export them (ranking and the cost
//! solver turn them into linear programs) and answer linear queries. Invariants every
//! implementation keeps: **every operation over-approximates** (a join contains both arguments, a
//! projection contains the image, `entails`/`includes` answer `true` only when it holds, `bounds`
//! returns bounds that hold for every integer point), and `widen` terminates every ascending
//! chain.

pub use super::polyhedra::{Constraint, Dimension, LinearExpr, Polyhedron, Rational, Relation};
use std::fmt;

/// An abstract state over `dimensions()` integer variables.
pub trait NumericDomain: Clone + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The whole space.
    fn universe(dimensions: usize) -> Self;
    /// The empty state.
    fn empty(dimensions: usize) -> Self;
    /// The state of a conjunction of constraints (those over dimensions `≥ dimensions` dropped).
    fn from_constraints(dimensions: usize, constraints: impl IntoIterator<Item = Constraint>) -> Self;
    fn dimensions(&self) -> usize;
    /// Linear constraints whose conjunction is the state (exactly, or over-approximating it).
    fn constraints(&self) -> &[Constraint];
    /// Intersects with more constraints.
    fn add_constraints(&mut self, constraints: impl IntoIterator<Item = Constraint>);
    fn add_constraint(&mut self, constraint: Constraint) {
        self.add_constraints(std::iter::once(constraint));
    }
    fn meet(&self, other: &Self) -> Self;
    /// Whether the state has no (rational) point.
    fn is_empty(&self) -> bool;
    fn is_universe(&self) -> bool;
    /// Whether every point satisfies `constraint`.
    fn entails(&self, constraint: &Constraint) -> bool;
    /// Whether `other ⊆ self`.
    fn includes(&self, other: &Self) -> bool;
    /// The lower and upper bounds of `expression` over the state (`None`: unbounded).
    fn bounds(&self, expression: &LinearExpr) -> (Option<Rational>, Option<Rational>);
    /// The same state with redundant constraints removed.
    fn minimized(&self) -> Self;
    /// Existentially quantifies `dimensions` (they stay, unconstrained).
    fn eliminate(&self, dimensions: &[Dimension]) -> Self;
    /// Projects `dimensions` out, reporting whether the projection is exact.
    fn project_out_reporting_exactness(&self, dimensions: &[Dimension]) -> (Self, bool);
    fn project_out(&self, dimensions: &[Dimension]) -> Self {
        self.project_out_reporting_exactness(dimensions).0
    }
    /// `count` unconstrained dimensions appended.
    fn add_dims(&self, count: usize) -> Self;
    /// `dimensions` projected out and removed, the others renumbered in order.
    fn remove_dims(&self, dimensions: &[Dimension]) -> Self;
    /// Dimension `d` moved to `mapping[d]` (projected out where `None`) in a space of
    /// `new_dimensions` dimensions.
    fn map_dims(&self, mapping: &[Option<Dimension>], new_dimensions: usize) -> Self;
    /// The least upper bound (convex hull for polyhedra), reporting whether it is exact.
    fn join_reporting_exactness(&self, other: &Self) -> (Self, bool);
    fn join(&self, other: &Self) -> Self {
        self.join_reporting_exactness(other).0
    }
    /// Widening of `self` by `newer`, keeping the `thresholds` that still hold.
    fn widen(&self, newer: &Self, thresholds: &[Constraint]) -> Self;
    /// Narrowing of `self` by `newer`.
    fn narrow(&self, newer: &Self) -> Self;
}

impl NumericDomain for Polyhedron {
    fn universe(dimensions: usize) -> Self {
        Polyhedron::universe(dimensions)
    }
    fn empty(dimensions: usize) -> Self {
        Polyhedron::empty(dimensions)
    }
    fn from_constraints(dimensions: usize, constraints: impl IntoIterator<Item = Constraint>) -> Self {
        Polyhedron::from_constraints(dimensions, constraints)
    }
    fn dimensions(&self) -> usize {
        Polyhedron::dimensions(self)
    }
    fn constraints(&self) -> &[Constraint] {
        Polyhedron::constraints(self)
    }
    fn add_constraints(&mut self, constraints: impl IntoIterator<Item = Constraint>) {
        Polyhedron::add_constraints(self, constraints)
    }
    fn add_constraint(&mut self, constraint: Constraint) {
        Polyhedron::add_constraint(self, constraint)
    }
    fn meet(&self, other: &Self) -> Self {
        Polyhedron::meet(self, other)
    }
    fn is_empty(&self) -> bool {
        Polyhedron::is_empty(self)
    }
    fn is_universe(&self) -> bool {
        Polyhedron::is_universe(self)
    }
    fn entails(&self, constraint: &Constraint) -> bool {
        Polyhedron::entails(self, constraint)
    }
    fn includes(&self, other: &Self) -> bool {
        Polyhedron::includes(self, other)
    }
    fn bounds(&self, expression: &LinearExpr) -> (Option<Rational>, Option<Rational>) {
        Polyhedron::bounds(self, expression)
    }
    fn minimized(&self) -> Self {
        Polyhedron::minimized(self)
    }
    fn eliminate(&self, dimensions: &[Dimension]) -> Self {
        Polyhedron::eliminate(self, dimensions)
    }
    fn project_out_reporting_exactness(&self, dimensions: &[Dimension]) -> (Self, bool) {
        Polyhedron::project_out_reporting_exactness(self, dimensions)
    }
    fn project_out(&self, dimensions: &[Dimension]) -> Self {
        Polyhedron::project_out(self, dimensions)
    }
    fn add_dims(&self, count: usize) -> Self {
        Polyhedron::add_dims(self, count)
    }
    fn remove_dims(&self, dimensions: &[Dimension]) -> Self {
        Polyhedron::remove_dims(self, dimensions)
    }
    fn map_dims(&self, mapping: &[Option<Dimension>], new_dimensions: usize) -> Self {
        Polyhedron::map_dims(self, mapping, new_dimensions)
    }
    fn join_reporting_exactness(&self, other: &Self) -> (Self, bool) {
        Polyhedron::join_reporting_exactness(self, other)
    }
    fn join(&self, other: &Self) -> Self {
        Polyhedron::join(self, other)
    }
    fn widen(&self, newer: &Self, thresholds: &[Constraint]) -> Self {
        Polyhedron::widen(self, newer, thresholds)
    }
    fn narrow(&self, newer: &Self) -> Self {
        Polyhedron::narrow(self, newer)
    }
}
