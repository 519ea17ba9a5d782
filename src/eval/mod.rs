//! Evaluation: scoring outputs against annotated data, and comparing strategies and
//! configurations side by side.

pub mod compare;
pub mod ic;
pub mod identifying;
pub mod ner;
#[cfg(feature = "plots")]
pub mod plot;
pub mod tab;
