//! Games whose rules are a [Rhai](https://rhai.rs) script (`rules:PATH`).
//!
//! The script defines positions as values built from integers, strings, characters, booleans
//! and arrays of them, and the functions
//!
//! * `start()`: the starting position;
//! * `moves(p)`: the array of positions one move away from `p` (empty when `p` is terminal);
//!
//! and optionally
//!
//! * `canonical(p)`: a position with the same game graph as `p`, the same for symmetric
//!   positions (a sorted array, the least rotation of a board, …);
//! * `split(p)`: an array of positions whose disjunctive sum is `p` (independent parts: no move
//!   touches two of them); their values xor;
//! * `show(p)`: a string for `p` in move listings (otherwise Rhai's own rendering).
//!
//! The engine trusts `canonical` and `split`: a wrong one gives wrong values. The game must be
//! finite (every sequence of moves ends); a script that loops back to a position on the current
//! line of search is reported as an error, not searched forever.
//!
//! Scripts run in the shared sandbox of [`crate::script`]: a budget of operations per call and
//! sizes of values, the cancel token, deadline and memory budget of the [`Control`] that built
//! the family. A position nests arrays at most [`MAX_VALUE_DEPTH`](crate::script::MAX_VALUE_DEPTH)
//! levels deep; a script returning a deeper value is refused, and the value is dropped without
//! recursion.

use crate::control::Control;
use crate::error::{Error, Result};
use rhai::{Array, Dynamic, Engine, Scope, AST};
use std::path::Path;

/// A position of a scripted game, in a form that can be hashed and compared.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A character.
    Char(char),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Value>),
}

impl Value {
    fn from_dynamic(d: Dynamic, context: &dyn Fn() -> String) -> Result<Value> {
        if d.is_array() {
            let a: Array = d.cast();
            return a
                .into_iter()
                .map(|x| Value::from_dynamic(x, context))
                .collect::<Result<Vec<_>>>()
                .map(Value::Array);
        }
        if let Ok(i) = d.as_int() {
            return Ok(Value::Int(i));
        }
        if let Ok(b) = d.as_bool() {
            return Ok(Value::Bool(b));
        }
        if let Ok(c) = d.as_char() {
            return Ok(Value::Char(c));
        }
        if d.is_string() {
            return Ok(Value::Str(d.into_string().unwrap_or_default()));
        }
        Err(Error::invalid(format!(
            "{}: a position holds a value of type {}; expected integers, strings, characters, \
             booleans and arrays of them",
            context(),
            d.type_name()
        )))
    }

    fn to_dynamic(&self) -> Dynamic {
        match self {
            Value::Bool(b) => Dynamic::from(*b),
            Value::Int(i) => Dynamic::from(*i),
            Value::Char(c) => Dynamic::from(*c),
            Value::Str(s) => Dynamic::from(s.clone()),
            Value::Array(a) => Dynamic::from_array(a.iter().map(Value::to_dynamic).collect()),
        }
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<Value>()
            + match self {
                Value::Str(s) => s.len(),
                Value::Array(a) => a.iter().map(Value::bytes).sum(),
                _ => 0,
            }
    }
}

impl std::fmt::Display for Value {
    /// Rhai's literal syntax: `[1, 2, "ab"]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Char(c) => write!(f, "'{c}'"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::Array(a) => {
                f.write_str("[")?;
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// `text` with every control character (line breaks, escape sequences of terminals, ...)
/// written as Rust writes it in a literal (`\n`, `\u{1b}`), so that a script's `show` can
/// neither add lines to a listing of moves nor drive the terminal.
pub fn escape_controls(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A game defined by a script.
pub struct Rules {
    engine: Engine,
    ast: AST,
    name: String,
    has_canonical: bool,
    has_split: bool,
    has_show: bool,
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rules({})", self.name)
    }
}

impl Rules {
    /// Reads and compiles the script at `path`, watching `ctl` (see [`Rules::compile`]).
    pub fn load(path: &Path, ctl: &Control) -> Result<Rules> {
        let source = crate::script::read_source(path)?;
        Rules::compile(
            &source,
            &path.display().to_string(),
            crate::script::MAX_OPERATIONS,
            ctl,
        )
    }

    /// Compiles `source` (named `name` in messages) with at most `max_operations` operations
    /// per call, every call watching the cancel token and deadline of `ctl`. The script must
    /// define `start()` and `moves(p)`.
    pub fn compile(source: &str, name: &str, max_operations: u64, ctl: &Control) -> Result<Rules> {
        let mut engine = crate::script::engine(max_operations);
        crate::script::watch(&mut engine, ctl);
        let ast = engine
            .compile(source)
            .map_err(|e| Error::invalid(format!("script {name}: {e}")))?;
        let has = |f: &str, arity: usize| {
            ast.iter_functions()
                .any(|x| x.name == f && x.params.len() == arity)
        };
        for (f, arity, what) in [("start", 0, "fn start()"), ("moves", 1, "fn moves(p)")] {
            if !has(f, arity) {
                return Err(Error::invalid(format!(
                    "script {name}: expected a function `{what}` (see the games-by-rules guide)"
                )));
            }
        }
        Ok(Rules {
            has_canonical: has("canonical", 1),
            has_split: has("split", 1),
            has_show: has("show", 1),
            engine,
            ast,
            name: name.to_string(),
        })
    }

    fn call(&self, f: &str, args: Vec<Dynamic>, shown: &dyn Fn() -> String) -> Result<Dynamic> {
        let mut scope = Scope::new();
        let context = || format!("script {}: {f}({})", self.name, shown());
        let answer = self
            .engine
            .call_fn::<Dynamic>(&mut scope, &self.ast, f, args)
            .map_err(|e| crate::script::call_error(e, &context()))?;
        // A list of positions is one level deeper than a position.
        crate::script::too_deep(answer, crate::script::MAX_VALUE_DEPTH + 1, &context)
    }

    fn call_on(&self, f: &str, p: &Value) -> Result<Dynamic> {
        self.call(f, vec![p.to_dynamic()], &|| p.to_string())
    }

    fn positions(&self, f: &str, p: &Value, out: &mut Vec<Value>) -> Result<()> {
        let context = || format!("script {}: {f}({p})", self.name);
        let answer = self.call_on(f, p)?;
        let list: Array = answer.try_cast::<Array>().ok_or_else(|| {
            Error::invalid(format!("{}: expected an array of positions", context()))
        })?;
        for q in list {
            out.push(Value::from_dynamic(q, &context)?);
        }
        Ok(())
    }

    /// The starting position, `start()`.
    pub fn start(&self) -> Result<Value> {
        let d = self.call("start", Vec::new(), &String::new)?;
        Value::from_dynamic(d, &|| format!("script {}: start()", self.name))
    }
}

impl crate::Game for Rules {
    type Position = Value;

    fn options(&self, p: &Value, out: &mut Vec<Value>) -> Result<()> {
        self.positions("moves", p, out)
    }

    /// A script's moves may lead back to a position already on the line of play.
    fn surely_finite(&self) -> bool {
        false
    }
}

impl crate::game::Components for Rules {
    fn split(&self, p: &Value, out: &mut Vec<Value>) -> Result<()> {
        if self.has_split {
            self.positions("split", p, out)
        } else {
            out.push(p.clone());
            Ok(())
        }
    }
}

impl crate::game::Canonical for Rules {
    fn canonical(&self, p: &Value) -> Result<Value> {
        if !self.has_canonical {
            return Ok(p.clone());
        }
        let d = self.call_on("canonical", p)?;
        Value::from_dynamic(d, &|| format!("script {}: canonical({p})", self.name))
    }
}

impl crate::game::Show for Rules {
    fn show(&self, p: &Value) -> Result<String> {
        if !self.has_show {
            return Ok(p.to_string());
        }
        let d = self.call_on("show", p)?;
        let text = if d.is_string() {
            d.into_string().unwrap_or_default()
        } else {
            d.to_string()
        };
        Ok(escape_controls(&text))
    }
}

impl crate::game::Footprint for Rules {
    fn bytes(&self, p: &Value) -> usize {
        p.bytes()
    }
}

/// A tag (0 false, 1 true, 2 integer, 3 character, 4 string, 5 array), then the integer
/// (zigzag: `2i` for `i ≥ 0`, `−2i − 1` below), the character's code point, the string's length
/// and bytes, or the array's length and elements.
impl crate::game::Encoding for Rules {
    fn encode(&self, p: &Value, out: &mut Vec<u8>) {
        use crate::varint::put;
        match p {
            Value::Bool(b) => put(out, u64::from(*b)),
            Value::Int(i) => {
                put(out, 2);
                put(out, ((*i << 1) ^ (*i >> 63)) as u64);
            }
            Value::Char(c) => {
                put(out, 3);
                put(out, u64::from(*c));
            }
            Value::Str(s) => {
                put(out, 4);
                crate::varint::put_bytes(out, s.as_bytes());
            }
            Value::Array(a) => {
                put(out, 5);
                put(out, a.len() as u64);
                for x in a {
                    self.encode(x, out);
                }
            }
        }
    }

    fn decode(&self, bytes: &[u8]) -> Result<Value> {
        fn value(r: &mut crate::varint::Read<'_>) -> Result<Value> {
            let bad = || Error::Internal("a malformed script position".into());
            Ok(match r.get()? {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                2 => {
                    let z = r.get()?;
                    Value::Int(((z >> 1) as i64) ^ -((z & 1) as i64))
                }
                3 => Value::Char(
                    u32::try_from(r.get()?)
                        .ok()
                        .and_then(char::from_u32)
                        .ok_or_else(bad)?,
                ),
                4 => Value::Str(r.get_str()?.to_string()),
                5 => {
                    let n = r.get()?;
                    let mut a = Vec::new();
                    for _ in 0..n {
                        a.push(value(r)?);
                    }
                    Value::Array(a)
                }
                _ => return Err(bad()),
            })
        }
        crate::varint::decode_all(bytes, value)
    }
}
