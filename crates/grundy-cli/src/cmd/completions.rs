//! `grundy completions SHELL`: a shell completion script for `grundy`, generated from the
//! command-line definition itself (clap_complete), so that it always matches the commands.

use crate::error::CliError;
use crate::output::stdout;
use clap::Args;
use clap_complete::Shell;
use std::io::Write;

/// Arguments of `grundy completions`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:\n  \
    grundy completions bash > ~/.local/share/bash-completion/completions/grundy\n  \
    grundy completions zsh > ~/.zfunc/_grundy      # with fpath+=(~/.zfunc) before compinit\n  \
    grundy completions fish > ~/.config/fish/completions/grundy.fish\n  \
    grundy completions powershell >> $PROFILE")]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum, value_name = "SHELL")]
    shell: Shell,
}

/// Runs `grundy completions`: writes the script to stdout. The script is generated into memory
/// first: `clap_complete::generate` panics when its writer fails, and a reader that goes away
/// (`grundy completions bash | head -1`) makes stdout fail, which ends the command quietly.
pub fn run(args: CompletionsArgs) -> Result<(), CliError> {
    let mut command = crate::cli::whole();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "grundy", &mut script);
    let mut out = stdout();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}
