//! `declass krepeat`: cover text with its k-repeating substrings.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::Args;

use declass::krepeat::{Counting, CoverParams, cover};

use super::{Ctx, progress_spinner, write_output};

/// Suppress every character not inside a substring that occurs at least k times in the
/// input (Matsubara & Hasida 2014). Whitespace stays; the output has as many characters as the input.
#[derive(Args)]
pub struct KRepeatArgs {
    /// Text files, covered jointly (a repeat may come from any of them).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Minimum number of occurrences (default: krepeat.k in config).
    #[arg(long)]
    pub k: Option<usize>,
    /// Shortest repeat kept, the seed's l (default: krepeat.min_len).
    #[arg(long, value_name = "L")]
    pub min_len: Option<usize>,
    /// Count documents (files) instead of occurrences.
    #[arg(long)]
    pub per_document: bool,
    /// Threads of the suffix sort; 0: one per core (default: krepeat.threads). The output
    /// is the same for any value.
    #[arg(long, value_name = "N")]
    pub threads: Option<u16>,
    /// Character replacing suppressed ones (default: krepeat.mask_char).
    #[arg(long, value_name = "C")]
    pub mask_char: Option<char>,
    /// Write here instead of standard output (several files: their outputs in order).
    #[arg(long, value_name = "PATH", conflicts_with = "out_dir")]
    pub out: Option<PathBuf>,
    /// Write each file's output to DIR under the file's own name.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
}

pub fn run(ctx: &Ctx, args: KRepeatArgs) -> Result<()> {
    let config = &ctx.config.krepeat;
    let mut params = CoverParams::from_config(config);
    if let Some(k) = args.k {
        params.k = k;
    }
    if let Some(l) = args.min_len {
        params.min_len = l;
    }
    if let Some(threads) = args.threads {
        params.threads = threads;
    }
    if args.per_document {
        params.counting = Counting::Documents;
    }
    let mask = args.mask_char.unwrap_or(config.mask_char);
    if mask.is_whitespace() {
        bail!("--mask-char must not be whitespace");
    }
    let texts = args
        .files
        .iter()
        .map(|p| declass::io::read_text_file(p))
        .collect::<declass::Result<Vec<String>>>()?;
    let docs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let spinner = progress_spinner("covering with k-repeating substrings");
    let covers = cover(&docs, &params).context("covering with k-repeating substrings")?;
    spinner.finish_and_clear();
    let rendered: Vec<String> = covers
        .iter()
        .zip(&docs)
        .map(|(c, d)| c.render(d, mask))
        .collect();
    let total: usize = docs.iter().map(|d| d.chars().count()).sum();
    let suppressed: usize = covers
        .iter()
        .zip(&docs)
        .map(|(c, d)| c.suppressed_in(d, 0..d.len()).0)
        .sum();
    log::info!(
        "krepeat: {suppressed} of {total} characters suppressed (k = {}, l = {}, {:?})",
        params.k,
        params.min_len,
        params.counting
    );
    if let Some(dir) = &args.out_dir {
        for (path, text) in args.files.iter().zip(&rendered) {
            let name = path
                .file_name()
                .with_context(|| format!("{}: no file name", path.display()))?;
            declass::io::write_atomic(&dir.join(name), text.as_bytes())?;
        }
        return Ok(());
    }
    write_output(args.out.as_deref(), &rendered.concat())
}
