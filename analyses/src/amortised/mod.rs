//! Amortised resource analysis with separation logic (Atkey; RESA by Fenacci and MacKenzie).
pub mod abstraction;
pub mod assertion;
pub mod context;
pub mod engine;
pub mod entail;
pub mod limits;
pub mod program;
pub mod resolve;
pub mod resource;
pub mod session;
pub mod solve;
pub mod spec;
pub mod symbolic;
