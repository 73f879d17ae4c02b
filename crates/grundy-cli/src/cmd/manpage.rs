//! `grundy manpage [--dir DIR]`: manual pages in roff, generated from the command-line
//! definition itself (clap_mangen), so that they always match the commands.

use crate::error::CliError;
use crate::output::stdout;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `grundy manpage`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    grundy manpage > grundy.1 && man ./grundy.1\n  \
    grundy manpage --dir ~/.local/share/man/man1    # grundy.1, grundy-seq.1, grundy-nimber-mul.1, ...")]
pub struct ManpageArgs {
    /// Write one page per command (grundy.1, grundy-seq.1, grundy-nimber-mul.1, ...) into this
    /// existing directory instead of the main page to stdout.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Runs `grundy manpage`.
pub fn run(args: ManpageArgs) -> Result<(), CliError> {
    let command = crate::cli::whole();
    match args.dir {
        Some(dir) => {
            if !dir.is_dir() {
                return Err(CliError::usage(format!(
                    "--dir {}: expected an existing directory",
                    dir.display()
                )));
            }
            clap_mangen::generate_to(command, &dir).map_err(|e| {
                CliError::usage(format!(
                    "--dir {}: cannot write the pages: {e}",
                    dir.display()
                ))
            })
        }
        None => {
            let mut out = stdout();
            clap_mangen::Man::new(command).render(&mut out)?;
            out.flush()?;
            Ok(())
        }
    }
}
