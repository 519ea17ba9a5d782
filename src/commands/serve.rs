//! `declass serve`: opens the engine once and serves it over HTTP (`declass::serve`).

use anyhow::{Context, Result};
use clap::Args;

use declass::detect::Registry;
use declass::pipeline::Engine;
use declass::serve::{ServeOptions, run};

use super::Ctx;

#[derive(Args)]
pub struct ServeArgs {
    /// Address and port to listen on (default: `serve.addr`, 127.0.0.1:8000; port 0
    /// lets the system choose). Anything but loopback needs a bearer token
    /// (`serve.token` or DECLASS_SERVE_TOKEN).
    #[arg(long, value_name = "IP:PORT")]
    pub addr: Option<String>,
    /// Detectors to run on every route, comma-separated; default: `[detect] default`,
    /// and for `/analyze` also `serve.analyze_extra_detectors` (`--help` lists them).
    #[arg(long, value_delimiter = ',', long_help = Registry::builtin().detect_help(true))]
    pub detect: Vec<String>,
}

pub fn run_serve(ctx: &Ctx, args: ServeArgs) -> Result<()> {
    let options = ServeOptions::resolve(&ctx.config.serve, args.addr.as_deref())?;
    let engine = Engine::builder(&ctx.config, &ctx.data)
        .detectors(&args.detect)
        .model_dirs(ctx.model_dirs())
        .auto_setup(ctx.auto_setup)
        .open()
        .context("cannot open the engine (nothing is served)")?;
    // Named detectors are what every route runs; else `/analyze` adds its own.
    let engine = if args.detect.is_empty() {
        engine
            .with_analysis_detectors(&ctx.config.serve.analyze_extra_detectors)
            .context("cannot open serve.analyze_extra_detectors (nothing is served)")?
    } else {
        engine
    };
    let token = options.token.is_some();
    run(engine, options, |addr| {
        // The one line a supervisor (or a test) waits for; the port is the bound one.
        eprintln!(
            "declass: serving on http://{addr}/{}",
            if token {
                " (bearer token required)"
            } else {
                ""
            }
        );
    })?;
    Ok(())
}
