//! `grundy ordinal ...`: ordinal arithmetic and games with transfinite Grundy values.

use crate::error::CliError;
use crate::output::{json_int, json_value, print_json, print_op, stdout};
use clap::{Args, Subcommand};
use grundy::notation::ordinal::{
    parse_heap_graph, parse_matrix, parse_ordinal, parse_row, parse_token_heap, MAX_PRODUCT_TERMS,
};
use grundy::ordinal::nim_sum::nim_sum_all;
use grundy::ordinal::Ordinal;
use grundy::transfinite::games::{
    cascade_value, increases_value, FreeSet, IncreaseRule, LevelGame, LevelMove, NimWithIncreases,
};
use num_bigint::BigUint;
use serde::Serialize;
use std::io::{Read, Write};

/// Ordinal subcommands.
///
#[derive(Subcommand, Debug)]
pub enum OrdinalCommand {
    /// Nim product of ordinals below ω^(ω^ω), the algebraic closure of GF(2).
    NimMul(super::ordinal_nim::NimMulArgs),
    /// Nim inverse of a nonzero ordinal below ω^(ω^ω).
    NimInv(super::ordinal_nim::NimInvArgs),
    /// Nim power A^E of an ordinal below ω^(ω^ω), E a natural number.
    NimPow(super::ordinal_nim::NimPowArgs),
    /// Lenstra's excess m_p of the odd prime P (α_p = κ_f(p) + m_p).
    Excess(super::ordinal_nim::ExcessArgs),
    /// Nim-sum of ordinals: coefficient-wise xor on the powers of ω.
    #[command(
        after_help = "Example:\n  grundy ordinal nim-sum 'w^(w)*4+w^3*9+11' 'w^(w)*6+w^3*5+w'\n  \
                            prints w^(w)*2+w^3*12+w+11"
    )]
    NimSum {
        /// Ordinals in Cantor normal form, e.g. w^2*3+w+1.
        #[arg(required = true)]
        values: Vec<String>,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Ordinal sum A + B + ... (left to right; not commutative: 1+w = w).
    #[command(
        after_help = "Example:\n  grundy ordinal add w 1   prints w+1\n  grundy ordinal add 1 w   prints w"
    )]
    Add {
        /// Ordinals in Cantor normal form.
        #[arg(required = true)]
        values: Vec<String>,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Ordinal product A · B · ... (left to right; not commutative: 2*w = w).
    #[command(after_help = "Example:\n  grundy ordinal mul w+1 2   prints w*2+1")]
    Mul {
        /// Ordinals in Cantor normal form.
        #[arg(required = true)]
        values: Vec<String>,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Ordinal power A^N for a natural N.
    #[command(after_help = "Example:\n  grundy ordinal pow w+1 3   prints w^3+w^2+w+1")]
    Pow {
        /// The base, an ordinal.
        base: String,
        /// The exponent, a natural number.
        exponent: String,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Compares two ordinals: prints <, = or >.
    #[command(after_help = "Example:\n  grundy ordinal cmp 'w^(w)' 'w^100*7'   prints >")]
    Cmp {
        /// The first ordinal.
        a: String,
        /// The second ordinal.
        b: String,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Cascading nim: the Grundy value of rows of piles (leftmost the highest power).
    ///
    /// A move takes from one pile and sets any piles to its right (in the same row) to any
    /// natural numbers. A row [a_n, ..., a_0] is worth a_n·ω^n + ... + a_0; rows add by
    /// nim-sum.
    #[command(
        after_help = "Example:\n  grundy ordinal cascade 1,0 0,3   prints w+3\n  \
                            grundy ordinal cascade 1,0 0,3 --move   also prints a winning move"
    )]
    Cascade {
        /// Rows: comma-separated piles, leftmost the highest power.
        #[arg(required = true)]
        rows: Vec<String>,
        #[command(flatten)]
        out: GameOutput,
    },
    /// The matrix game of Codeforces 1451F ("Nullify The Matrix").
    ///
    /// A move lowers a cell and changes the cells of a right/down path from it. The
    /// anti-diagonal r+c = d (0-based) is the coefficient of ω^(n+m-2-d): its xor.
    #[command(
        after_help = "Example:\n  printf '1 2\\n3 4\\n' > m.txt; grundy ordinal matrix m.txt   prints w^2+w+4\n\n\
                            FILE: one row a line, entries separated by spaces; '-' reads stdin."
    )]
    Matrix {
        /// The matrix file ('-' for stdin).
        file: String,
        #[command(flatten)]
        out: GameOutput,
    },
    /// The DAG path game: lower a vertex's heap, then set the heaps along any path from it.
    ///
    /// A vertex counts at ω^L, L the length of the longest path from it.
    #[command(
        after_help = "Example:\n  printf 'a=1: b\\nb=2: c\\nc=3\\n' > g.txt; grundy ordinal dag g.txt   prints w^2+w*2+3\n\n\
                            FILE: lines `V[=HEAP][: W1 W2 ...]` (heap default 0); '#' starts a comment line; '-' reads stdin."
    )]
    Dag {
        /// The heap-graph file ('-' for stdin).
        file: String,
        #[command(flatten)]
        out: GameOutput,
    },
    /// The game of Codeforces 1149E ("Election Promises"): lower a vertex's heap, then set its
    /// successors' heaps to anything.
    ///
    /// A vertex counts at ω^L, L = mex of its successors' levels.
    #[command(
        after_help = "Example:\n  printf 'a=1: b c\\nb=1: c\\nc=1\\n' > g.txt; grundy ordinal election g.txt   prints w^2+w+1\n\n\
                            FILE: as for `grundy ordinal dag`."
    )]
    Election {
        /// The heap-graph file ('-' for stdin).
        file: String,
        #[command(flatten)]
        out: GameOutput,
    },
    /// Nim with increases: heaps N:T (a heap of N with T increase tokens).
    ///
    /// A move removes stones from one heap, or spends one of its tokens to set it to a larger
    /// size. --zero lets an increase add nothing; --forced makes increases the only moves while
    /// a heap has tokens.
    #[command(
        after_help = "Examples:\n  grundy ordinal increases --zero 0:2   prints w+1\n  \
                            grundy ordinal increases --zero 0:1 5:1 --move   prints w+4, then a winning move"
    )]
    Increases {
        /// Heaps, N or N:T.
        #[arg(required = true)]
        heaps: Vec<String>,
        /// Increases may add zero.
        #[arg(long)]
        zero: bool,
        /// While a heap has tokens, its only moves are increases.
        #[arg(long)]
        forced: bool,
        #[command(flatten)]
        out: GameOutput,
    },
}

/// Output options shared by the game subcommands.
#[derive(Args, Debug)]
pub struct GameOutput {
    /// Also print the outcome (P: the player to move loses) or a winning move.
    #[arg(long = "move")]
    show_move: bool,
    /// Print one JSON document: {"value", "outcome", "winning_move"}.
    #[arg(long)]
    json: bool,
}

/// Runs an ordinal subcommand.
pub fn run(command: OrdinalCommand, settings: &crate::settings::Settings) -> Result<(), CliError> {
    match command {
        OrdinalCommand::NimMul(a) => super::ordinal_nim::nim_mul(a, settings),
        OrdinalCommand::NimInv(a) => super::ordinal_nim::nim_inv(a, settings),
        OrdinalCommand::NimPow(a) => super::ordinal_nim::nim_pow(a, settings),
        OrdinalCommand::Excess(a) => super::ordinal_nim::excess(a, settings),
        OrdinalCommand::NimSum { values, json } => {
            let xs = parse_all(&values)?;
            print_ordinal(json, "nim-sum", ordinals(&xs), &nim_sum_all(&xs))
        }
        OrdinalCommand::Add { values, json } => {
            let xs = parse_all(&values)?;
            let mut sum = Ordinal::zero();
            for x in &xs {
                sum.add_assign(x);
            }
            print_ordinal(json, "add", ordinals(&xs), &sum)
        }
        OrdinalCommand::Mul { values, json } => {
            let xs = parse_all(&values)?;
            let mut product = Ordinal::one();
            for (i, x) in xs.iter().enumerate() {
                if product.terms().len() > MAX_PRODUCT_TERMS {
                    return Err(grundy::Error::limit(
                        grundy::LimitKind::Fixed,
                        format!(
                            "the product of arguments 1..{i} has more than {MAX_PRODUCT_TERMS} \
                             terms"
                        ),
                        "multiply fewer or smaller ordinals",
                    )
                    .into());
                }
                product = product.mul(x);
            }
            print_ordinal(json, "mul", ordinals(&xs), &product)
        }
        OrdinalCommand::Pow {
            base,
            exponent,
            json,
        } => {
            let a = parse_ordinal(&base).map_err(|e| e.in_source("BASE"))?;
            let n = grundy::notation::number::parse_natural(&exponent)
                .map_err(|e| e.in_source("EXPONENT"))?;
            let power = a.pow(&n, 1 << 20, 1 << 16)?;
            let args = vec![json_value(&a.to_string()), json_int(&n)];
            print_ordinal(json, "pow", args, &power)
        }
        OrdinalCommand::Cmp { a, b, json } => {
            let x = parse_ordinal(&a).map_err(|e| e.in_source("A"))?;
            let y = parse_ordinal(&b).map_err(|e| e.in_source("B"))?;
            let s = match x.cmp(&y) {
                std::cmp::Ordering::Less => "<",
                std::cmp::Ordering::Equal => "=",
                std::cmp::Ordering::Greater => ">",
            };
            print_op(json, "cmp", ordinals(&[x, y]), json_value(s), &s)
        }
        OrdinalCommand::Cascade { rows, out } => {
            let parsed = rows
                .iter()
                .enumerate()
                .map(|(i, r)| parse_row(r).map_err(|e| e.in_source(format!("row {}", i + 1))))
                .collect::<Result<Vec<_>, _>>()?;
            let lens: Vec<usize> = parsed.iter().map(Vec::len).collect();
            let game = LevelGame::cascade(&lens)?;
            let names: Vec<String> = parsed
                .iter()
                .enumerate()
                .flat_map(|(r, row)| (0..row.len()).map(move |p| format!("r{}p{}", r + 1, p + 1)))
                .collect();
            let heaps: Vec<BigUint> = parsed.iter().flatten().cloned().collect();
            debug_assert_eq!(game.value(&heaps)?, cascade_value(&parsed));
            level_game_output(&game, &heaps, &names, &out)
        }
        OrdinalCommand::Matrix { file, out } => {
            let rows = parse_matrix(&read_input(&file)?).map_err(|e| e.in_source(&file))?;
            let (n, m) = (rows.len(), rows[0].len());
            let game = LevelGame::grid(n, m)?;
            let names: Vec<String> = (0..n * m)
                .map(|i| format!("({},{})", i / m + 1, i % m + 1))
                .collect();
            let heaps: Vec<BigUint> = rows.into_iter().flatten().collect();
            level_game_output(&game, &heaps, &names, &out)
        }
        OrdinalCommand::Dag { file, out } => graph_game(&file, FreeSet::Path, &out),
        OrdinalCommand::Election { file, out } => graph_game(&file, FreeSet::Successors, &out),
        OrdinalCommand::Increases {
            heaps,
            zero,
            forced,
            out,
        } => {
            let rule = IncreaseRule {
                forced,
                zero_allowed: zero,
            };
            let parsed = heaps
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    parse_token_heap(h).map_err(|e| e.in_source(format!("heap {}", i + 1)))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let values: Vec<Ordinal> = parsed
                .iter()
                .map(|(n, t)| increases_value(rule, n, *t))
                .collect();
            let value = nim_sum_all(&values);
            let mv = NimWithIncreases(rule).winning_move(&parsed)?;
            let described = mv.map(|(i, (n, t))| {
                let (n0, t0) = &parsed[i];
                MoveJson {
                    at: format!("heap {}", i + 1),
                    from: format!("{n0}:{t0}"),
                    to: format!("{n}:{t}"),
                    set: Vec::new(),
                }
            });
            report(&value, described, &out)
        }
    }
}

fn parse_all(values: &[String]) -> Result<Vec<Ordinal>, CliError> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            parse_ordinal(v).map_err(|e| CliError::from(e.in_source(format!("argument {}", i + 1))))
        })
        .collect()
}

/// Ordinals as JSON strings in canonical form.
pub(super) fn ordinals(xs: &[Ordinal]) -> Vec<Box<serde_json::value::RawValue>> {
    xs.iter().map(|x| json_value(&x.to_string())).collect()
}

/// Writes the ordinal `x`, the answer of `op`, as a line or (with `json`) as the document
/// `{"op", "args", "result"}`, ordinals as strings.
pub(super) fn print_ordinal(
    json: bool,
    op: &str,
    args: Vec<Box<serde_json::value::RawValue>>,
    x: &Ordinal,
) -> Result<(), CliError> {
    print_op(json, op, args, json_value(&x.to_string()), x)
}

/// The largest input file read (bytes).
const MAX_INPUT: u64 = 64 << 20;

fn read_input(file: &str) -> Result<String, CliError> {
    let mut text = String::new();
    let read = if file == "-" {
        std::io::stdin()
            .take(MAX_INPUT + 1)
            .read_to_string(&mut text)
    } else {
        std::fs::File::open(file)
            .map_err(|e| CliError::usage(format!("{file}: cannot open: {e}")))?
            .take(MAX_INPUT + 1)
            .read_to_string(&mut text)
    };
    read.map_err(|e| CliError::usage(format!("{file}: cannot read as UTF-8 text: {e}")))?;
    if text.len() as u64 > MAX_INPUT {
        return Err(grundy::Error::limit(
            grundy::LimitKind::Input,
            format!("{file} is larger than {} MiB", MAX_INPUT >> 20),
            "split the input",
        )
        .into());
    }
    Ok(text)
}

fn graph_game(file: &str, rule: FreeSet, out: &GameOutput) -> Result<(), CliError> {
    let g = parse_heap_graph(&read_input(file)?).map_err(|e| e.in_source(file))?;
    let game = LevelGame::new(g.succ, rule).map_err(|e| match e {
        grundy::Error::Invalid(m) => {
            // Name the vertex by its name rather than its index.
            grundy::Error::invalid(format!("{file}: {}", rename_vertex(&m, &g.names)))
        }
        other => other,
    })?;
    level_game_output(&game, &g.heaps, &g.names, out)
}

/// Replaces "vertex N" in a library message by the vertex's name.
fn rename_vertex(message: &str, names: &[String]) -> String {
    let mut words: Vec<String> = message.split(' ').map(str::to_string).collect();
    for i in 1..words.len() {
        if words[i - 1] == "vertex" {
            let digits: String = words[i].chars().take_while(char::is_ascii_digit).collect();
            if let Some(name) = digits.parse::<usize>().ok().and_then(|v| names.get(v)) {
                words[i] = format!("{name}{}", &words[i][digits.len()..]);
            }
        }
    }
    words.join(" ")
}

#[derive(Serialize)]
struct MoveJson {
    at: String,
    from: String,
    to: String,
    set: Vec<SetJson>,
}

#[derive(Serialize)]
struct SetJson {
    at: String,
    to: String,
}

#[derive(Serialize)]
struct GameJson {
    value: String,
    outcome: &'static str,
    winning_move: Option<MoveJson>,
}

fn level_game_output(
    game: &LevelGame,
    heaps: &[BigUint],
    names: &[String],
    out: &GameOutput,
) -> Result<(), CliError> {
    let value = game.value(heaps)?;
    let mv = if out.show_move || out.json {
        game.winning_move(heaps)?
    } else {
        None
    };
    let described = mv.map(
        |LevelMove {
             vertex,
             from,
             to,
             set,
             ..
         }| MoveJson {
            at: names[vertex].clone(),
            from: from.to_string(),
            to: to.to_string(),
            set: set
                .into_iter()
                .map(|(u, x)| SetJson {
                    at: names[u].clone(),
                    to: x.to_string(),
                })
                .collect(),
        },
    );
    report(&value, described, out)
}

/// Prints the value, then (with `--move`) `P` or the winning move `AT: FROM -> TO[, set U = X ...]`;
/// or the JSON document.
fn report(value: &Ordinal, mv: Option<MoveJson>, out: &GameOutput) -> Result<(), CliError> {
    let outcome = if value.is_zero() { "P" } else { "N" };
    if out.json {
        return print_json(&GameJson {
            value: value.to_string(),
            outcome,
            winning_move: mv,
        });
    }
    let mut w = stdout();
    writeln!(w, "{value}")?;
    if out.show_move {
        match mv {
            None => writeln!(w, "P")?,
            Some(m) => {
                write!(w, "{}: {} -> {}", m.at, m.from, m.to)?;
                for s in &m.set {
                    write!(w, ", set {} = {}", s.at, s.to)?;
                }
                writeln!(w)?;
            }
        }
    }
    w.flush()?;
    Ok(())
}
