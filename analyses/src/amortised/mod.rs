//! Amortised resource analysis with separation logic (Atkey; RESA by Fenacci and MacKenzie).
pub mod assertion;
pub mod spec;
