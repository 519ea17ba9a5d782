//! The integration tests: the `declass` binary run the way a user runs it, one module per
//! area, linked into one test binary. Every run starts from [`common::declass_process`]
//! (through [`common::declass`] and its variants), which always passes a temporary
//! `--data-dir`. Tests that need the annotated development data (see
//! [`common::dev_data`]) are `#[ignore]`d; run them with `cargo test -- --ignored`, as
//! `.ci/run` does.

mod common;
mod serve_support;

mod collections;
mod compare;
mod corpus;
mod detect;
mod email;
mod eval_ic;
mod eval_tab;
mod formats;
mod kb;
mod krepeat_kanon;
mod national_ids;
mod office_suite;
mod operators;
mod outputs;
mod parsers_never_panic;
mod pdf;
mod protect;
mod robustness;
mod sanitize;
mod serve_api;
mod serve_browser;
mod serve_files;
mod table;
mod text;
