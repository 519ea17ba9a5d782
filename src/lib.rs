//! declass: sanitizes English documents before release by generalizing sensitive terms
//! and the terms that give them away, measured with information content and pointwise
//! mutual information from a reference corpus (Sánchez, Batet & Viejo 2014).
//!
//! Data flows forward through the modules: [`text`] → detect → stats / kb → sanitize →
//! render / eval. No stage reaches back into an earlier one.

pub mod config;
pub mod data;
pub mod detect;
pub mod error;
pub mod eval;
pub mod io;
pub mod kanon;
pub mod krepeat;
pub mod pipeline;
pub mod sanitize;
pub mod serve;
pub mod setup;
pub mod stats;
pub mod table;
pub mod text;

pub use config::Config;
pub use error::{Error, Result};
pub mod kb;
