//! `grundy nimber ...`: nimber arithmetic.
//!
//! Every argument is a natural number of any size (decimal, or hexadecimal after `0x`). Inputs
//! below `2^128` go through the fixed-width type (fast kernels), larger ones through the any-size
//! one ([`AnyNimber`]); the answers are the same, only the speed differs.

use crate::error::CliError;
use crate::output::{json_int, json_value, print_json, stdout, OpDoc};
use crate::progress::spinner;
use crate::settings::Settings;
use clap::Subcommand;
use grundy::nimber::{algebra, AnyNimber, NimBig, NimberField};
use grundy::notation::number::parse_natural;
use grundy::Error;
use num_bigint::BigUint;
use std::fmt::Display;
use std::io::Write;

/// Nimber subcommands.
#[derive(Subcommand, Debug)]
pub enum NimberCommand {
    /// Nim-sum (xor) of the arguments.
    #[command(after_help = "Example:\n  grundy nimber add 5 3          # 6")]
    Add {
        /// Nimbers, decimal or 0x-hexadecimal, any size.
        #[arg(required = true)]
        values: Vec<String>,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Nim-product of the arguments (any size).
    #[command(after_help = "Examples:\n  grundy nimber mul 8 9          # 5\n  \
                            grundy nimber mul 2 3 4 5      # 2⊗3⊗4⊗5\n  \
                            grundy nimber mul 0x10000000000000000 0x10000000000000000")]
    Mul {
        /// Nimbers, decimal or 0x-hexadecimal, any size.
        #[arg(required = true)]
        values: Vec<String>,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Nim-quotient A ⊗ B⁻¹ (B must not be 0).
    #[command(after_help = "Example:\n  grundy nimber div 5 9          # 8, since 8⊗9 = 5")]
    Div {
        /// The dividend.
        a: String,
        /// The divisor, nonzero.
        b: String,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Nim-inverse of A (A must not be 0).
    #[command(after_help = "Example:\n  grundy nimber inv 2            # 3, since 2⊗3 = 1")]
    Inv {
        /// A nonzero nimber.
        a: String,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Nim-power A^E (A multiplied by itself E times; A^0 = 1).
    #[command(
        after_help = "Examples:\n  grundy nimber pow 2 3          # 2⊗2⊗2 = 1\n  \
                            grundy nimber pow 16 0x123456789abcdef0123456789"
    )]
    Pow {
        /// The base.
        a: String,
        /// The exponent, a natural number of any size.
        e: String,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Nim-square root of A (every nimber has exactly one).
    #[command(after_help = "Example:\n  grundy nimber sqrt 123456789    # 98433322")]
    Sqrt {
        /// A nimber.
        a: String,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Multiplicative order of A ≠ 0: the least n ≥ 1 with A^n = 1 (nimbers below 2^256).
    #[command(after_help = "Examples:\n  grundy nimber order 2          # 3\n  \
                            grundy nimber order 0x10000000000000000")]
    Order {
        /// A nonzero nimber below 2^256.
        a: String,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Discrete logarithm: the smallest x ≥ 0 with A^x = B, or `none` (A below 2^128).
    #[command(
        after_help = "Examples:\n  grundy nimber log 2 3          # 2, since 2⊗2 = 3\n  \
                            grundy nimber log 2 4          # none: 4 is not a power of 2\n\n\
                            With 0^0 = 1: log 0 1 is 0, log 0 0 is 1."
    )]
    Log {
        /// The base.
        a: String,
        /// The power sought.
        b: String,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// All roots of x² ⊕ B·x ⊕ C = 0, ascending, one a line (a double root once).
    #[command(
        after_help = "Examples:\n  grundy nimber solve 1 1        # 2 and 3 (x²+x+1 = 0)\n  \
                      grundy nimber solve 0 2        # 3, the double root √2\n\n\
                      Roots always exist among the nimbers (their field is quadratically \
                      closed), possibly in the field one level above B and C."
    )]
    Solve {
        /// The coefficient of x.
        b: String,
        /// The constant term.
        c: String,
        /// Print one JSON document {"op", "args", "result"} instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Bulk nim products, Library Checker "Nim Product" format: reads `T` then `T` lines `A B`
    /// (`0 <= A, B < 2^64`, decimal or 0x-hexadecimal) from stdin and writes `T` lines `A⊗B`.
    #[command(
        after_help = "Example:\n  printf '3\\n1 1\\n2 2\\n8 9\\n' | grundy nimber product   # 1, 3, 5\n\n\
                      The whole input is checked before anything is written: a malformed line \
                      (named with its column), a number of 2^64 or more, or a count T that does \
                      not match the lines given exits with status 2 and no output."
    )]
    Product {
        /// The largest input accepted, in MiB (the whole input is held in memory, with 16 bytes
        /// a line for the parsed pairs); larger inputs exit with status 3.
        #[arg(long, value_name = "MIB", default_value_t = 4096)]
        max_input_mib: u64,
    },
}

/// Parses the argument `name` (e.g. `A`, `argument 2`), naming it in any error.
fn parse(arg: &str, name: &str) -> Result<BigUint, CliError> {
    Ok(parse_natural(arg).map_err(|e| e.in_source(name))?)
}

/// A nimber argument, in the fast fixed-width type when it fits.
fn nimber(arg: &str, name: &str) -> Result<AnyNimber, CliError> {
    Ok(AnyNimber::from_biguint(&parse(arg, name)?))
}

/// A command's answer, before it is written as text or JSON.
enum Answer {
    /// One number.
    One(String),
    /// No answer (`nimber log` when no power matches): `none`, or JSON null.
    NoneFound,
    /// Numbers one a line (`nimber solve`), or a JSON list.
    Many(Vec<String>),
}

fn one(x: impl Display) -> Answer {
    Answer::One(x.to_string())
}

/// Writes `answer`: text lines, or with `json` the document `{"op", "args", "result"}` with the
/// arguments (already validated) in decimal and every number an exact JSON integer.
fn write_answer(op: &str, args: &[String], json: bool, answer: Answer) -> Result<(), CliError> {
    if json {
        let args = args
            .iter()
            .enumerate()
            .map(|(i, a)| Ok(json_int(&parse(a, &format!("argument {}", i + 1))?)))
            .collect::<Result<Vec<_>, CliError>>()?;
        let result = match answer {
            Answer::One(x) => json_int(&x),
            Answer::NoneFound => json_value(&()),
            Answer::Many(xs) => json_int(&format!("[{}]", xs.join(","))),
        };
        return print_json(&OpDoc { op, args, result });
    }
    let mut out = stdout();
    match answer {
        Answer::One(x) => writeln!(out, "{x}")?,
        Answer::NoneFound => writeln!(out, "none")?,
        Answer::Many(xs) => {
            for x in xs {
                writeln!(out, "{x}")?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn named_values(values: &[String]) -> Result<Vec<AnyNimber>, CliError> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| nimber(v, &format!("argument {}", i + 1)))
        .collect()
}

/// Runs a nimber subcommand.
pub fn run(command: NimberCommand, settings: &Settings) -> Result<(), CliError> {
    let (op, args, json, answer) = match command {
        NimberCommand::Product { max_input_mib } => {
            return super::nimber_product::run(max_input_mib, settings)
        }
        NimberCommand::Add { values, json } => {
            let mut sum = BigUint::default();
            for (i, v) in values.iter().enumerate() {
                sum ^= parse(v, &format!("argument {}", i + 1))?;
            }
            ("add", values, json, one(sum))
        }
        NimberCommand::Mul { values, json } => {
            let xs = named_values(&values)?;
            let product = xs.iter().fold(AnyNimber::one(), |p, x| p.nim_mul(x));
            ("mul", values, json, one(product))
        }
        NimberCommand::Div { a, b, json } => {
            let zero = || Error::invalid("division by zero: B is 0");
            let (x, y) = (nimber(&a, "A")?, nimber(&b, "B")?);
            let q = x.nim_mul(&y.nim_inv().ok_or_else(zero)?);
            ("div", vec![a, b], json, one(q))
        }
        NimberCommand::Inv { a, json } => {
            let zero = || Error::invalid("A: 0 has no inverse");
            let inv = nimber(&a, "A")?.nim_inv().ok_or_else(zero)?;
            ("inv", vec![a], json, one(inv))
        }
        NimberCommand::Pow { a, e, json } => {
            let x = nimber(&a, "A")?;
            let n = parse(&e, "E")?;
            let power = match x {
                AnyNimber::Fixed(x) => one(algebra::pow(&x, &n)),
                AnyNimber::Big(x) => one(x.checked_pow(&n)?),
            };
            ("pow", vec![a, e], json, power)
        }
        NimberCommand::Sqrt { a, json } => {
            let root = nimber(&a, "A")?.nim_sqrt();
            ("sqrt", vec![a], json, one(root))
        }
        NimberCommand::Order { a, json } => {
            let x = nimber(&a, "A")?;
            let bar = spinner(settings, "computing the order");
            let ctl = settings.interruptible();
            let order = match x {
                AnyNimber::Fixed(x) => algebra::order_with(&x, &ctl).map(one),
                AnyNimber::Big(x) => algebra::order_with(&x, &ctl).map(one),
            };
            bar.finish_and_clear();
            let order = order?;
            ("order", vec![a], json, order)
        }
        NimberCommand::Log { a, b, json } => {
            let (x, y) = (nimber(&a, "A")?, nimber(&b, "B")?);
            let bar = spinner(settings, "computing the logarithm");
            let ctl = settings.interruptible();
            let log = match (x, y) {
                (AnyNimber::Fixed(x), AnyNimber::Fixed(y)) => algebra::log_with(&x, &y, &ctl),
                (x, y) => algebra::log_with(&x.to_big(), &y.to_big(), &ctl),
            };
            bar.finish_and_clear();
            let log = log?;
            ("log", vec![a, b], json, log.map_or(Answer::NoneFound, one))
        }
        NimberCommand::Solve { b, c, json } => {
            let (x, y) = (nimber(&b, "B")?.to_big(), nimber(&c, "C")?.to_big());
            let roots = NimBig::solve_quadratic(&x, &y)?;
            let roots = Answer::Many(roots.iter().map(ToString::to_string).collect());
            ("solve", vec![b, c], json, roots)
        }
    };
    write_answer(op, &args, json, answer)
}
