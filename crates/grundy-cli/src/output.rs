//! Writing answers: buffered stdout, JSON documents and the answers of arithmetic commands.

use crate::error::CliError;
use std::io::{self, BufWriter, Write};

/// A buffered, locked stdout. Flush it (or drop it) before exiting.
pub fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// Prints one JSON document (and a newline) to stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), CliError> {
    let mut out = stdout();
    serde_json::to_writer(&mut out, value).map_err(|e| CliError::Io(e.into()))?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// A number of any size as an exact JSON integer (JSON numbers have no size limit; numbers
/// beyond 64 bits are written in full, never as strings or floats).
pub fn json_int(x: &impl ToString) -> Box<serde_json::value::RawValue> {
    serde_json::value::RawValue::from_string(x.to_string())
        .unwrap_or_else(|_| json_value(&serde_json::Value::Null))
}

/// Any serialisable value (a string, a list, null) as a JSON fragment.
pub fn json_value<T: serde::Serialize + ?Sized>(x: &T) -> Box<serde_json::value::RawValue> {
    serde_json::value::to_raw_value(x)
        .unwrap_or_else(|_| serde_json::value::to_raw_value(&()).expect("null is valid JSON"))
}

/// The JSON document of an arithmetic command (`grundy nimber mul`, `grundy ordinal nim-sum`,
/// ...): `{"op": NAME, "args": [...], "result": ...}`, the arguments as parsed (canonical form).
#[derive(serde::Serialize)]
pub struct OpDoc<'a> {
    /// The subcommand, e.g. `mul`, `nim-sum`.
    pub op: &'a str,
    /// The arguments: integers for natural numbers, strings for ordinals.
    pub args: Vec<Box<serde_json::value::RawValue>>,
    /// The answer.
    pub result: Box<serde_json::value::RawValue>,
}

/// Writes the answer of an arithmetic command: `text` as one line, or with `json` the document
/// [`OpDoc`] `{"op", "args", "result"}`.
pub fn print_op(
    json: bool,
    op: &str,
    args: Vec<Box<serde_json::value::RawValue>>,
    result: Box<serde_json::value::RawValue>,
    text: &dyn std::fmt::Display,
) -> Result<(), CliError> {
    if json {
        return print_json(&OpDoc { op, args, result });
    }
    let mut out = stdout();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}
