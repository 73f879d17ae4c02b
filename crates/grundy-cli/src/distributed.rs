//! `--distributed`: the graph solver and the solver of games by their rules over the ranks of
//! an MPI job (cargo feature `mpi`).
//!
//! Every rank runs this same code: it reads its own byte range of the file (`graph solve`) or
//! loads the game (`solve`), takes part in the library's bulk-synchronous rounds
//! ([`grundy::distributed`]), and rank 0 prints the answer in the one-process command's format. Errors are agreed among ranks: rank 0 prints the one
//! error before MPI is finalized, and every rank exits with its status. MPI is finalized before the process exits, so
//! `mpirun` sees a clean end; a panic aborts the whole job (`MPI_Abort`).

use crate::cmd::graph::Input;
use crate::cmd::solve::SolveArgs;
use crate::error::CliError;
use crate::settings::Settings;

/// Without the `mpi` feature there are no ranks: a usage error saying how to build them.
#[cfg(not(feature = "mpi"))]
fn without_mpi() -> Result<(), CliError> {
    Err(CliError::usage(
        "--distributed: this grundy was built without MPI; build it with \
         `cargo build -p grundy-cli --release --features mpi` (see docs/distributed.md)",
    ))
}

/// `grundy graph solve --distributed` (needs the `mpi` feature).
#[cfg(not(feature = "mpi"))]
pub fn graph_solve(
    _input: &Input,
    _json: bool,
    _stats: bool,
    _checkpoint: Option<&std::path::Path>,
    _settings: &Settings,
) -> Result<(), CliError> {
    without_mpi()
}

/// `grundy solve --distributed` (needs the `mpi` feature).
#[cfg(not(feature = "mpi"))]
pub fn solve(_args: &SolveArgs, _settings: &Settings) -> Result<(), CliError> {
    without_mpi()
}

#[cfg(feature = "mpi")]
pub use with_mpi::{graph_solve, solve};

#[cfg(feature = "mpi")]
mod with_mpi {
    use super::*;
    use crate::cmd::graph::{in_source, json_end, json_start, json_vertex, text_line};
    use crate::output::stdout;
    use grundy::checksum::fnv1a;
    use grundy::control::Control;
    use grundy::distributed::checkpoint::Directory;
    use grundy::distributed::explore::Journal;
    use grundy::distributed::game::solve_loaded;
    use grundy::distributed::mpi::{abort_world, MpiComm};
    use grundy::distributed::{loopy, order, retrograde, Bsp, Comm};
    use grundy::notation::board::{parse_board_game, BoardGame, GraphSpec};
    use grundy::notation::graph::GraphFormat;
    use grundy::notation::graph_ranks;
    use grundy::solve::Play;
    use grundy::Error;
    use std::io::{Read, Seek, SeekFrom, Write};
    use std::path::Path;
    use std::time::Instant;

    /// `grundy graph solve FILE --distributed`.
    pub fn graph_solve(
        input: &Input,
        json: bool,
        stats: bool,
        checkpoint: Option<&Path>,
        settings: &Settings,
    ) -> Result<(), CliError> {
        if input.file == "-" {
            return Err(CliError::usage(
                "FILE: --distributed reads a file, each rank its own part: standard input \
                 cannot be shared among ranks",
            ));
        }
        on_ranks(settings, |comm| {
            solve_on(comm, input, json, stats, checkpoint, settings)
        })
    }

    /// The checkpoint directory of `graph solve --distributed`: its command names the flags
    /// that change the answer, and its input digest is the file's path, length and time of
    /// last change (hashing the contents would read the whole file on every rank).
    fn graph_checkpoint(
        input: &Input,
        dir: &Path,
        rank: usize,
        ranks: usize,
    ) -> Result<Directory, Error> {
        let meta = std::fs::metadata(&input.file)
            .map_err(|e| Error::invalid(format!("FILE: cannot read '{}': {e}", input.file)))?;
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        let id = format!("{}\n{}\n{modified}", input.file, meta.len());
        let mut command = String::from("graph solve");
        if input.edges {
            command.push_str(" --edges");
        }
        if input.misere {
            command.push_str(" --misere");
        }
        Directory::open(
            dir,
            &command,
            &format!("{:016x}", fnv1a(id.as_bytes())),
            rank,
            ranks,
        )
    }

    /// Runs `f` on this rank of the MPI job, then finalizes MPI; an error is printed once, by
    /// rank 0, and every rank exits with its status.
    fn on_ranks(
        settings: &Settings,
        f: impl FnOnce(&MpiComm) -> Result<(), CliError>,
    ) -> Result<(), CliError> {
        let comm = MpiComm::init()
            .ok_or_else(|| CliError::Lib(Error::Internal("MPI is already initialized".into())))?;
        abort_on_panic();
        let rank = comm.rank();
        let result = f(&comm).map_err(|e| {
            let e = e.finish(settings);
            // Rank 0 prints the one message before MPI_Finalize: once the other ranks are past
            // it they exit with the error's status, and mpirun then ends the job, rank 0 too.
            let status = if rank == 0 {
                e.report()
            } else {
                e.rendered().1
            };
            CliError::Quiet(status)
        });
        // MPI_Finalize: every rank ends the job cleanly, whatever its status.
        drop(comm);
        result
    }

    /// `grundy solve GAME --distributed`.
    pub fn solve(args: &SolveArgs, settings: &Settings) -> Result<(), CliError> {
        on_ranks(settings, |comm| solve_game_on(comm, args, settings))
    }

    /// A digest of what `grundy solve` reads: the game's notation and the bytes of the file it
    /// names (a graph file or a script), 64-bit FNV-1a in hex.
    fn input_digest(game: &BoardGame, notation: &str) -> Result<String, Error> {
        let mut bytes = notation.as_bytes().to_vec();
        let file = match game {
            BoardGame::NodeKayles(GraphSpec::File(path)) | BoardGame::Rules(path) => Some(path),
            _ => None,
        };
        if let Some(path) = file {
            bytes.push(b'\n');
            let read = std::fs::read(path)
                .map_err(|e| Error::invalid(format!("{}: cannot read it: {e}", path.display())))?;
            bytes.extend_from_slice(&read);
        }
        Ok(format!("{:016x}", fnv1a(&bytes)))
    }

    fn solve_game_on(
        comm: &MpiComm,
        args: &SolveArgs,
        settings: &Settings,
    ) -> Result<(), CliError> {
        let ctl = settings.interruptible();
        let bsp = Bsp::new(comm, &ctl);
        let game =
            bsp.check(parse_board_game(&args.game).map_err(|e| Error::Parse(e.in_source("GAME"))))?;
        if matches!(game, BoardGame::Rules(_)) {
            settings.start_script_clock();
        }
        let loaded = bsp.check(grundy::notation::board::load(&game, &ctl))?;
        let play = if args.misere {
            Play::Misere
        } else {
            Play::Normal
        };
        let mut journal = match &args.checkpoint {
            Some(dir) => {
                let opened = input_digest(&game, &args.game).and_then(|digest| {
                    Directory::open(dir, "solve", &digest, bsp.rank(), bsp.size())
                });
                let d = bsp.check(opened)?;
                if let (0, Some(round)) = (bsp.rank(), d.finished()) {
                    eprintln!(
                        "grundy: --checkpoint {}: resuming after round {round} of the \
                         exploration ({} rounds skipped)",
                        dir.display(),
                        round + 1
                    );
                }
                Some(d)
            }
            None => None,
        };
        if let (grundy::game::families::Loaded::Cram(b), Play::Normal, None) =
            (&loaded, play, &args.checkpoint)
        {
            if grundy::solve::cram::Shape::from_board(b).is_some() {
                return cram_on(&bsp, b, args);
            }
        }
        let c0 = cpu_seconds();
        let (s, work) = solve_loaded(
            &bsp,
            &loaded,
            play,
            args.moves,
            journal.as_mut().map(|d| d as &mut dyn Journal),
        )?;
        // The busiest rank's CPU time, in milliseconds.
        let cpu_ms = bsp.all_gather(&[((cpu_seconds() - c0) * 1000.0) as u64]);
        if bsp.rank() != 0 {
            return Ok(());
        }
        if args.verbose {
            let cpu = cpu_ms.iter().max().copied().unwrap_or(0) as f64 / 1000.0;
            let n = work.positions.max(1) as f64;
            eprintln!(
                "ranks {}, positions {}, arcs {}, exploration {} rounds ({} resumed) in {:.3} s, \
                 values {} rounds in {:.3} s, time {:.3} s, busiest rank {:.3} s CPU \
                 ({:.0} positions/s a rank), bytes sent a position {:.1} exploring and {:.1} \
                 settling, {:.1} bytes a position charged on rank 0",
                bsp.size(),
                work.positions,
                work.arcs,
                work.explore_rounds,
                work.resumed_rounds,
                work.seconds[0],
                work.value_rounds,
                work.seconds[1],
                s.seconds,
                cpu,
                n / bsp.size() as f64 / cpu.max(1e-9),
                work.bytes_sent[0] as f64 / n,
                work.bytes_sent[1] as f64 / n,
                work.bytes as f64 * bsp.size() as f64 / n,
            );
        }
        if args.json {
            crate::cmd::solve::write_json(&args.game, &s)
        } else {
            crate::cmd::solve::write_text(&s)
        }
    }

    /// A Cram board of at most 128 cells under normal play: the components engine over ranks
    /// ([`grundy::distributed::cram`]), rank 0 with the store of solved values.
    fn cram_on(
        bsp: &Bsp<'_, MpiComm>,
        board: &grundy::game::families::cram::Board,
        args: &SolveArgs,
    ) -> Result<(), CliError> {
        // The same on every rank: a malformed size fails on all of them, before any collective.
        let cap = crate::cmd::solve::cache_cap(args)?;
        let c0 = cpu_seconds();
        let (s, work) = if bsp.rank() == 0 {
            crate::cmd::solve::with_cram_store(board, cap, args.verbose, bsp.control(), |store| {
                grundy::distributed::cram::solve(bsp, board, args.moves, store)
            })?
        } else {
            grundy::distributed::cram::solve(bsp, board, args.moves, None)?
        };
        let cpu_ms = bsp.all_gather(&[((cpu_seconds() - c0) * 1000.0) as u64]);
        if bsp.rank() != 0 {
            return Ok(());
        }
        if args.verbose {
            let cpu = cpu_ms.iter().max().copied().unwrap_or(0) as f64 / 1000.0;
            eprintln!(
                "ranks {}, options shared out {}, rounds {}, positions searched {}, table hits \
                 {} of {} lookups ({:.1}%), regions received by rank 0 {}, bytes sent {}, \
                 time {:.3} s, busiest rank {:.3} s CPU",
                bsp.size(),
                work.options,
                work.rounds,
                s.stats.positions,
                s.stats.hits,
                s.stats.lookups,
                100.0 * s.stats.hit_rate(),
                work.received,
                work.bytes_sent,
                s.seconds,
                cpu,
            );
            eprintln!("method: the Cram engine over ranks, by components");
        }
        if args.json {
            crate::cmd::solve::write_json(&args.game, &s)
        } else {
            crate::cmd::solve::write_text(&s)
        }
    }

    /// A panic (a bug) is printed, then ends every rank of the job: the others would wait
    /// for this one in their next collective.
    fn abort_on_panic() {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            abort_world(1);
        }));
    }

    /// This rank's byte range of `file`: its offset and bytes.
    fn read_range(
        file: &str,
        rank: usize,
        ranks: usize,
        ctl: &Control,
    ) -> Result<(u64, Vec<u8>), Error> {
        let unreadable =
            |e: std::io::Error| Error::invalid(format!("FILE: cannot read '{file}': {e}"));
        let mut f = std::fs::File::open(file).map_err(unreadable)?;
        let len = f.metadata().map_err(unreadable)?.len();
        let (start, end) = graph_ranks::line_range(&mut f, len, rank, ranks).map_err(unreadable)?;
        let _held = ctl.reserve(end - start, "holding this rank's part of the file")?;
        f.seek(SeekFrom::Start(start)).map_err(unreadable)?;
        let mut bytes = Vec::with_capacity((end - start) as usize);
        f.take(end - start)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        Ok((start, bytes))
    }

    fn solve_on(
        comm: &MpiComm,
        input: &Input,
        json: bool,
        stats: bool,
        checkpoint: Option<&Path>,
        settings: &Settings,
    ) -> Result<(), CliError> {
        let ctl = settings.interruptible();
        let bsp = Bsp::new(comm, &ctl);
        let mut dir = match checkpoint {
            Some(d) => Some(bsp.check(graph_checkpoint(input, d, bsp.rank(), bsp.size()))?),
            None => None,
        };
        let say = |what: String| {
            if bsp.rank() == 0 {
                if let Some(d) = checkpoint {
                    eprintln!("grundy: --checkpoint {}: {what}", d.display());
                }
            }
        };
        let t0 = Instant::now();
        let c0 = cpu_seconds();
        let (offset, text) = bsp.check(read_range(&input.file, bsp.rank(), bsp.size(), &ctl))?;
        let format = if input.edges {
            GraphFormat::Arcs
        } else {
            GraphFormat::Adjacency
        };
        let part = graph_ranks::read(&bsp, &text, offset, format)
            .map_err(|e| in_source(e, &input.file))?;
        drop(text);
        let t_read = t0.elapsed().as_secs_f64();
        let c_read = cpu_seconds() - c0;
        let after_read = bsp.stats();
        let play = if input.misere {
            Play::Misere
        } else {
            Play::Normal
        };
        let done = dir.as_ref().filter(|d| d.get("outcomes") == Some("done"));
        let outcomes = match done {
            Some(d) => {
                say("outcomes resumed: their rounds are skipped".into());
                let bytes = d.load_part("outcomes");
                bsp.check(
                    bytes.and_then(|b| retrograde::PartOutcomes::from_bytes(&b, play, part.len())),
                )?
            }
            None => {
                let o = retrograde::solve(&bsp, &part, play)?;
                if let Some(d) = dir.as_mut() {
                    bsp.check(d.save_part("outcomes", &o.to_bytes()))?;
                    bsp.check(d.set("outcomes", "done"))?;
                }
                o
            }
        };
        let t_outcomes = t0.elapsed().as_secs_f64() - t_read;
        let c_outcomes = cpu_seconds() - c0 - c_read;
        let after_outcomes = bsp.stats();
        let values = match play {
            Play::Normal => {
                let from = dir.as_ref().and_then(|d| Some((d, d.get("values")?)));
                let from =
                    match from {
                        Some((d, stage)) => {
                            say(format!("values resumed before stage {stage}"));
                            let bytes = d.load_part(&format!("values-{stage}"));
                            Some(bsp.check(
                                bytes.and_then(|b| loopy::Stage::from_bytes(&b, part.len())),
                            )?)
                        }
                        None => None,
                    };
                Some(loopy::solve_from(
                    &bsp,
                    &part,
                    from,
                    &mut |s, committed| {
                        let Some(d) = dir.as_mut() else {
                            return Ok(());
                        };
                        let next = s.next();
                        if !committed {
                            return d.save_part(&format!("values-{next}"), &s.to_bytes());
                        }
                        d.set("values", &next.to_string())?;
                        // Two stages back: no manifest names it any more.
                        if next >= 2 {
                            d.remove_part(&format!("values-{}", next - 2));
                        }
                        Ok(())
                    },
                )?)
            }
            Play::Misere => None,
        };
        let t_values = t0.elapsed().as_secs_f64() - t_read - t_outcomes;
        let c_values = cpu_seconds() - c0 - c_read - c_outcomes;
        // CPU seconds go in the gather as milliseconds, the slowest rank's being reported.
        let ms = |c: f64| (c * 1000.0) as u64;
        let s = bsp.stats();
        let all = bsp.all_gather(&[
            after_read.bytes_sent,
            after_outcomes.rounds - after_read.rounds,
            after_outcomes.bytes_sent - after_read.bytes_sent,
            s.rounds - after_outcomes.rounds,
            s.bytes_sent - after_outcomes.bytes_sent,
            part.arc_count() as u64,
            ms(c_read),
            ms(c_outcomes),
            ms(c_values),
        ]);
        // Rank 0 writes; a failed write stops the merge on every rank.
        let mut out = stdout();
        let mut failed: Option<std::io::Error> = None;
        let mut first = true;
        if json && bsp.rank() == 0 {
            if let Err(e) = json_start(&mut out) {
                failed = Some(e);
            }
        }
        let merged = order::for_each(&bsp, &part, &outcomes, values.as_ref(), |line| {
            if failed.is_some() {
                return Err(Error::Cancelled(grundy::Interruption::Token));
            }
            let (name, o, r, v) = (
                &line.name,
                line.outcome,
                line.remoteness,
                line.value.as_ref(),
            );
            let written = if json {
                json_vertex(&mut out, first, name, o, r, v)
            } else {
                text_line(&mut out, name, o, r, v)
            };
            first = false;
            written.map_err(|e| {
                failed = Some(e);
                Error::Cancelled(grundy::Interruption::Token)
            })
        });
        if let Some(e) = failed {
            return Err(CliError::Io(e));
        }
        merged?;
        if bsp.rank() == 0 {
            if json {
                json_end(&mut out)?;
            }
            out.flush()?;
            if stats {
                let (n, e) = part.totals();
                print_stats(bsp.size(), n, e, &all, [t_read, t_outcomes, t_values]);
            }
        }
        Ok(())
    }

    /// Words a rank contributes to the statistics.
    const WORDS: usize = 9;

    /// The CPU time of this thread so far, in seconds (Linux: `/proc/thread-self/schedstat`;
    /// elsewhere 0).
    fn cpu_seconds() -> f64 {
        std::fs::read_to_string("/proc/thread-self/schedstat")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
            .map_or(0.0, |ns| ns as f64 / 1e9)
    }

    /// The work and traffic of the ranks, on stderr (rank 0): wall time, the most CPU time of a
    /// rank, rounds, bytes sent an arc (all ranks), arcs a second a rank (of wall time).
    fn print_stats(ranks: usize, n: u64, e: u64, all: &[u64], secs: [f64; 3]) {
        let sum = |j: usize| all.chunks(WORDS).map(|w| w[j]).sum::<u64>();
        let max = |j: usize| all.chunks(WORDS).map(|w| w[j]).max().unwrap_or(0);
        let cpu = |j: usize| max(j) as f64 / 1000.0;
        let per_arc = |b: u64| b as f64 / e.max(1) as f64;
        let rate = |s: f64| e as f64 / s.max(1e-9) / ranks as f64;
        eprintln!(
            "ranks {ranks}, vertices {n}, arcs {e}, reverse arcs a rank at most {}",
            max(5)
        );
        eprintln!(
            "read:     {:.3} s wall, {:.3} s CPU, {:.2} bytes sent an arc, {:.0} arcs/s a rank",
            secs[0],
            cpu(6),
            per_arc(sum(0)),
            rate(secs[0])
        );
        eprintln!(
            "outcomes: {:.3} s wall, {:.3} s CPU, {} rounds, {:.2} bytes sent an arc, {:.0} arcs/s a rank",
            secs[1],
            cpu(7),
            max(1),
            per_arc(sum(2)),
            rate(secs[1])
        );
        if secs[2] > 0.0 {
            eprintln!(
                "values:   {:.3} s wall, {:.3} s CPU, {} rounds, {:.2} bytes sent an arc, {:.0} arcs/s a rank",
                secs[2],
                cpu(8),
                max(3),
                per_arc(sum(4)),
                rate(secs[2])
            );
        }
    }
}
