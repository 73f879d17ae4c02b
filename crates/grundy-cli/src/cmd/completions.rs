//! `grundy completions SHELL`: a shell completion script for `grundy`, generated from the
//! command-line definition itself (clap_complete), so that it always matches the commands.

use crate::error::CliError;
use crate::output::stdout;
use clap::{Args, CommandFactory};
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

/// Runs `grundy completions`: writes the script to stdout.
pub fn run(args: CompletionsArgs) -> Result<(), CliError> {
    let mut command = crate::Cli::command();
    let mut out = stdout();
    clap_complete::generate(args.shell, &mut command, "grundy", &mut out);
    out.flush()?;
    Ok(())
}
