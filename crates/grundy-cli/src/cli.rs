//! Subcommands whose definition is built only when the command line names them.
//!
//! clap's derive builds the whole command tree (every subcommand, every argument, every help
//! text) before it reads the first argument; for `grundy`, with its fifteen commands and their
//! nested ones, that is most of what the process does on a short run such as
//! `grundy solve cram:4x10`. [`Later`] wraps a subcommand's arguments (or its own subcommands)
//! so that clap's [`clap::Command::defer`] adds them only when parsing enters that
//! subcommand. Help shows the same texts either way; what walks the whole tree (completions,
//! manual pages, suggestions for a mistyped nested command) asks for it whole, [`whole`].

use clap::{ArgMatches, Args, Command, CommandFactory, FromArgMatches, Subcommand};
use std::cell::Cell;

thread_local! {
    /// Whether [`Later`] adds what it wraps at once (set by [`whole`] while it builds).
    static WHOLE: Cell<bool> = const { Cell::new(false) };
}

/// The whole command tree, nothing deferred: for the generators that walk every subcommand
/// (clap's help subcommand mirrors the tree as it stands when the root is built, so a tree
/// with deferred parts would give completions without `help nimber mul`).
pub fn whole() -> Command {
    WHOLE.set(true);
    let cmd = crate::Cli::command();
    WHOLE.set(false);
    cmd
}

/// `cmd` with `augment` applied now under [`whole`], else when parsing enters `cmd`.
fn defer(cmd: Command, augment: fn(Command) -> Command) -> Command {
    match WHOLE.get() {
        true => augment(cmd),
        false => cmd.defer(augment),
    }
}

/// The arguments `T` of a subcommand (or its subcommands), added to its definition only when
/// the command line selects it; parsed into the `T` it wraps.
#[derive(Debug)]
pub struct Later<T>(pub T);

impl<T: FromArgMatches> FromArgMatches for Later<T> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Later)
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Later)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

impl<T: Args> Args for Later<T> {
    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }

    fn augment_args(cmd: Command) -> Command {
        defer(cmd, |cmd| keep_texts(cmd, T::augment_args))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        defer(cmd, |cmd| keep_texts(cmd, T::augment_args_for_update))
    }
}

impl<T: Subcommand> Subcommand for Later<T> {
    fn augment_subcommands(cmd: Command) -> Command {
        defer(cmd, |cmd| keep_texts(cmd, T::augment_subcommands))
    }

    fn augment_subcommands_for_update(cmd: Command) -> Command {
        defer(cmd, |cmd| {
            keep_texts(cmd, T::augment_subcommands_for_update)
        })
    }

    fn has_subcommand(name: &str) -> bool {
        T::has_subcommand(name)
    }
}

/// Runs `augment` on `cmd`, then gives back the texts the subcommand's own definition had set
/// (its about, long about and the help after it): without deferring, the derive sets them after
/// the wrapped type's, so that a variant's doc comment wins over its arguments' struct's.
fn keep_texts(cmd: Command, augment: fn(Command) -> Command) -> Command {
    let about = cmd.get_about().cloned();
    let long_about = cmd.get_long_about().cloned();
    let after = cmd.get_after_help().cloned();
    let after_long = cmd.get_after_long_help().cloned();
    let mut cmd = augment(cmd);
    if let Some(about) = about {
        // A doc comment of one paragraph sets no long about: the derive resets it.
        cmd = cmd.about(about).long_about(None::<&'static str>);
        if let Some(long) = long_about {
            cmd = cmd.long_about(long);
        }
    }
    if let Some(after) = after {
        cmd = cmd.after_help(after);
    }
    if let Some(after) = after_long {
        cmd = cmd.after_long_help(after);
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::whole;
    use crate::Cli;
    use clap::error::ErrorKind;
    use clap::{Command, CommandFactory};

    /// Every path of subcommands in `cmd` (`["nimber", "mul"]`, ...), `help` left out.
    fn paths(cmd: &Command, prefix: &[String], out: &mut Vec<Vec<String>>) {
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut path = prefix.to_vec();
            path.push(sub.get_name().to_string());
            out.push(path.clone());
            paths(sub, &path, out);
        }
    }

    /// The text `cmd` prints for `grundy PATH FLAG` (FLAG `--help` or `-h`).
    fn help(cmd: Command, path: &[String], flag: &str) -> String {
        let args = std::iter::once("grundy")
            .chain(path.iter().map(String::as_str))
            .chain([flag]);
        match cmd.try_get_matches_from(args) {
            Err(e) if e.kind() == ErrorKind::DisplayHelp => e.render().to_string(),
            other => panic!("{path:?} {flag}: no help: {other:?}"),
        }
    }

    /// The whole tree passes clap's own consistency checks, and its subcommands carry their
    /// arguments (`solve` its `--misere`, `nimber mul` its operands).
    #[test]
    fn the_whole_tree_is_whole() {
        let mut cli = whole();
        cli.build();
        cli.clone().debug_assert();
        let solve = cli.find_subcommand("solve").expect("solve");
        assert!(solve.get_arguments().any(|a| a.get_id() == "misere"));
        let mul = cli
            .find_subcommand("nimber")
            .and_then(|n| n.find_subcommand("mul"))
            .expect("nimber mul");
        assert!(mul.get_positionals().count() > 0);
    }

    /// Before parsing reaches it, a subcommand has no arguments of its own: the work of
    /// building them is left for the one command a run names.
    #[test]
    fn subcommands_are_built_only_when_named() {
        let cli = Cli::command();
        let solve = cli.find_subcommand("solve").expect("solve");
        assert!(!solve.get_arguments().any(|a| a.get_id() == "misere"));
        let m = cli
            .try_get_matches_from(["grundy", "solve", "cram:2x2", "--misere"])
            .expect("parses");
        let (name, sub) = m.subcommand().expect("a subcommand");
        assert_eq!(name, "solve");
        assert!(sub.get_flag("misere"));
    }

    /// Deferring changes no help text: for every command, `--help` and `-h` print the same
    /// from the deferred tree as from the whole one.
    #[test]
    fn every_help_text_is_that_of_the_whole_tree() {
        let mut all = vec![vec![]];
        let mut built = whole();
        built.build();
        paths(&built, &[], &mut all);
        assert!(all.len() > 40, "{} commands", all.len());
        for path in &all {
            for flag in ["--help", "-h"] {
                assert_eq!(
                    help(Cli::command(), path, flag),
                    help(whole(), path, flag),
                    "{path:?} {flag}"
                );
            }
        }
    }
}
