//! The `declass` command line: a thin front end; every command calls the library.

mod commands;

use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;

/// Loading the knowledge bases allocates and frees millions of small objects (the RDF
/// store's nodes and strings, the index); mimalloc does that in less time than the
/// system allocator (BENCHMARKS.md, knowledge bases).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = commands::Cli::parse();
    // A service's access log (info: methods, routes, sizes, times; never text) is on by
    // default; every other command logs warnings unless asked for more.
    let level = match cli.command {
        #[cfg(feature = "serve")]
        commands::Command::Serve(_) => cli.global.log_level().max(log::LevelFilter::Info),
        _ => cli.global.log_level(),
    };
    // The PDF reader's crates log what they meet in a file (fonts, glyph names, objects),
    // which may quote the document: only at debug, where sensitive terms may appear.
    let third_party = if level >= log::LevelFilter::Debug {
        level
    } else {
        log::LevelFilter::Off
    };
    env_logger::Builder::new()
        .filter_level(level)
        .filter_module("pdf_extract", third_party)
        .filter_module("lopdf", third_party)
        .format_timestamp(None)
        .init();
    // Standard output is buffered: what is still in the buffer is written here, so a write
    // error (a full disk) is reported instead of being lost when the process exits.
    let result = commands::run(cli).and_then(|()| {
        std::io::Write::flush(&mut std::io::stdout()).context("cannot write to standard output")
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`declass … | head`) is not a failure.
        Err(err)
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("declass: error: {}", describe(&err));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes joined by ": ", leaving out a cause whose text is already
/// said (the library's errors print their source themselves: "a.txt: not found" would
/// otherwise end in ": not found" again).
fn describe(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}
