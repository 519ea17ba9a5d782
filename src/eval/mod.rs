//! Evaluation: scoring outputs against annotated data, and comparing strategies and
//! configurations side by side.

pub mod compare;
pub mod identifying;
pub mod plot;
pub mod tab;
