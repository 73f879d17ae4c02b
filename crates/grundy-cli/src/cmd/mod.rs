//! One module per command, named after it (`grundy seq` is `seq.rs`); a command with
//! subcommands or helpers of its own has them beside it under its name (`nimber_product.rs`
//! for `grundy nimber product`, `ordinal_nim.rs` for the nim arithmetic of `grundy ordinal`,
//! `disguised.rs` for the boards `grundy solve` answers as heap games, `play/`).

pub mod analyze;
pub mod completions;
pub mod count;
pub mod disguised;
pub mod graph;
pub mod manpage;
pub mod misere;
pub mod nimber;
pub mod nimber_product;
pub mod ordinal;
pub mod ordinal_nim;
pub mod play;
pub mod position;
pub mod seq;
pub mod solve;
pub mod value;

use crate::error::CliError;
use crate::settings::Settings;
use grundy::heap::HeapGame;

/// The heap game of the GAME argument of `seq`, `position`, `analyze` and `value`, watched by
/// the run's settings: a script stops on Ctrl-C between two of its operations, and at the
/// script time limit.
pub(crate) fn heap_game(game: &str, settings: &Settings) -> Result<HeapGame, CliError> {
    let spec = grundy::notation::game::parse_game(game).map_err(|e| e.in_source("GAME"))?;
    let mut game = HeapGame::from_spec(spec)?;
    settings.watch_game(&mut game);
    Ok(game)
}
