//! `grundy nimber ...`: nimber arithmetic.
//!
//! Every argument is a natural number of any size (decimal, or hexadecimal after `0x`). Inputs
//! below `2^128` go through the fixed-width type [`Nim128`] (fast kernels), larger ones through
//! the any-size [`NimBig`]; the answers are the same, only the speed differs.

use crate::error::CliError;
use crate::output::stdout;
use clap::Subcommand;
use grundy::nimber::{algebra, Nim128, NimBig, NimberField};
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
    },
    /// Nim-product of the arguments (any size).
    #[command(after_help = "Examples:\n  grundy nimber mul 8 9          # 5\n  \
                            grundy nimber mul 2 3 4 5      # 2⊗3⊗4⊗5\n  \
                            grundy nimber mul 0x10000000000000000 0x10000000000000000")]
    Mul {
        /// Nimbers, decimal or 0x-hexadecimal, any size.
        #[arg(required = true)]
        values: Vec<String>,
    },
    /// Nim-quotient A ⊗ B⁻¹ (B must not be 0).
    #[command(after_help = "Example:\n  grundy nimber div 5 9          # 8, since 8⊗9 = 5")]
    Div {
        /// The dividend.
        a: String,
        /// The divisor, nonzero.
        b: String,
    },
    /// Nim-inverse of A (A must not be 0).
    #[command(after_help = "Example:\n  grundy nimber inv 2            # 3, since 2⊗3 = 1")]
    Inv {
        /// A nonzero nimber.
        a: String,
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
    },
    /// Nim-square root of A (every nimber has exactly one).
    #[command(after_help = "Example:\n  grundy nimber sqrt 123456789    # 98433322")]
    Sqrt {
        /// A nimber.
        a: String,
    },
    /// Multiplicative order of A ≠ 0: the least n ≥ 1 with A^n = 1 (nimbers below 2^256).
    #[command(after_help = "Examples:\n  grundy nimber order 2          # 3\n  \
                            grundy nimber order 0x10000000000000000")]
    Order {
        /// A nonzero nimber below 2^256.
        a: String,
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
enum Nimber {
    Small(Nim128),
    Big(NimBig),
}

fn nimber(arg: &str, name: &str) -> Result<Nimber, CliError> {
    let x = NimBig::from_biguint(&parse(arg, name)?);
    Ok(match x.to_u128() {
        Some(v) => Nimber::Small(Nim128(v)),
        None => Nimber::Big(x),
    })
}

impl Nimber {
    fn big(&self) -> NimBig {
        match self {
            Nimber::Small(x) => NimBig::from(x.0),
            Nimber::Big(x) => x.clone(),
        }
    }
}

/// Writes lines to stdout.
fn print_lines<I: IntoIterator<Item = D>, D: Display>(lines: I) -> Result<(), CliError> {
    let mut out = stdout();
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}

fn print_one(x: impl Display) -> Result<(), CliError> {
    print_lines([x])
}

fn named_values(values: &[String]) -> Result<Vec<Nimber>, CliError> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| nimber(v, &format!("argument {}", i + 1)))
        .collect()
}

/// Runs a nimber subcommand.
pub fn run(command: NimberCommand) -> Result<(), CliError> {
    match command {
        NimberCommand::Product { max_input_mib } => super::nimber_product::run(max_input_mib),
        NimberCommand::Add { values } => {
            let mut sum = BigUint::default();
            for (i, v) in values.iter().enumerate() {
                sum ^= parse(v, &format!("argument {}", i + 1))?;
            }
            print_one(sum)
        }
        NimberCommand::Mul { values } => {
            let xs = named_values(&values)?;
            let smalls: Option<Vec<Nim128>> = xs
                .iter()
                .map(|x| match x {
                    Nimber::Small(v) => Some(*v),
                    Nimber::Big(_) => None,
                })
                .collect();
            match smalls {
                Some(v) => print_one(v.into_iter().fold(Nim128(1), |p, x| p * x)),
                None => print_one(xs.iter().fold(NimBig::one(), |p, x| &p * &x.big())),
            }
        }
        NimberCommand::Div { a, b } => {
            let (a, b) = (nimber(&a, "A")?, nimber(&b, "B")?);
            let zero = || Error::invalid("division by zero: B is 0");
            match (a, b) {
                (Nimber::Small(a), Nimber::Small(b)) => {
                    print_one(a.checked_div(b).ok_or_else(zero)?)
                }
                (a, b) => print_one(a.big().checked_div(&b.big()).ok_or_else(zero)?),
            }
        }
        NimberCommand::Inv { a } => {
            let zero = || Error::invalid("0 has no inverse");
            match nimber(&a, "A")? {
                Nimber::Small(a) => print_one(a.inv().ok_or_else(zero)?),
                Nimber::Big(a) => print_one(a.inv().ok_or_else(zero)?),
            }
        }
        NimberCommand::Pow { a, e } => {
            let a = nimber(&a, "A")?;
            let e = parse(&e, "E")?;
            match a {
                Nimber::Small(a) => print_one(algebra::pow(&a, &e)),
                Nimber::Big(a) => print_one(a.checked_pow(&e)?),
            }
        }
        NimberCommand::Sqrt { a } => match nimber(&a, "A")? {
            Nimber::Small(a) => print_one(a.sqrt()),
            Nimber::Big(a) => print_one(a.sqrt()),
        },
        NimberCommand::Order { a } => match nimber(&a, "A")? {
            Nimber::Small(a) => print_one(algebra::order(&a)?),
            Nimber::Big(a) => print_one(algebra::order(&a)?),
        },
        NimberCommand::Log { a, b } => {
            let answer = match (nimber(&a, "A")?, nimber(&b, "B")?) {
                (Nimber::Small(a), Nimber::Small(b)) => algebra::log(&a, &b)?,
                (a, b) => algebra::log(&a.big(), &b.big())?,
            };
            match answer {
                Some(x) => print_one(x),
                None => print_one("none"),
            }
        }
        NimberCommand::Solve { b, c } => {
            let (b, c) = (nimber(&b, "B")?.big(), nimber(&c, "C")?.big());
            print_lines(NimBig::solve_quadratic(&b, &c)?)
        }
    }
}
