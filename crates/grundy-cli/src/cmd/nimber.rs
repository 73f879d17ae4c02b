//! `grundy nimber ...`: nimber arithmetic.

use crate::error::CliError;
use crate::output::stdout;
use clap::Subcommand;
use std::io::Write;

/// Nimber subcommands.
#[derive(Subcommand, Debug)]
pub enum NimberCommand {
    /// Nim-sum (xor) of the arguments.
    ///
    /// Example: `grundy nimber add 5 3` prints 6.
    Add {
        /// Nimbers, decimal or 0x-hexadecimal, any size.
        #[arg(required = true)]
        values: Vec<String>,
    },
}

/// Runs a nimber subcommand.
pub fn run(command: NimberCommand) -> Result<(), CliError> {
    match command {
        NimberCommand::Add { values } => {
            let mut sum = num_bigint::BigUint::default();
            for (i, v) in values.iter().enumerate() {
                let x = grundy::notation::number::parse_natural(v)
                    .map_err(|e| e.in_source(format!("argument {}", i + 1)))?;
                sum ^= x;
            }
            let mut out = stdout();
            writeln!(out, "{sum}")?;
            out.flush()?;
            Ok(())
        }
    }
}
