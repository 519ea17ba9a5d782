//! Evaluation: scoring outputs against annotated data.

pub mod tab;
