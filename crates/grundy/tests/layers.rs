//! The library's layers point one way.
//!
//! Every top-level module of `crates/grundy/src` belongs to one layer, and a module may use
//! (`crate::…`) only modules of its own layer or of a layer below:
//!
//! ```text
//! 4 loading   notation, serde_impls            text and documents -> typed values
//! 3 engines   heap, solve, misere, pattern,    compute answers
//!             count, distributed, transfinite
//! 2 games     game                             what a game is, and the families
//! 1 fields    nimber, ordinal                  arithmetic
//! 0 ground    checksum, error, control, file,     errors, budgets, files written whole, the
//!             script, gf2, varint, document     script sandbox, polynomials over GF(2), bytes
//!                                              of positions, exact integers of documents
//! ```
//!
//! `lib.rs` and `prelude` sit above all of them (they re-export), and test code (`tests.rs`
//! files and `#[cfg(test)]` modules) may use anything. The check reads the sources as text:
//! comments and string literals are dropped, then every path `crate::m…` and every group
//! `crate::{m…, …}` names a module `m`.
//!
//! The test fails on any import against the order, naming the file and the module it uses.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Layer of each top-level module; modules not listed (lib, prelude) are not checked.
const LAYERS: &[(&str, u8)] = &[
    ("checksum", 0),
    ("error", 0),
    ("control", 0),
    ("file", 0),
    ("script", 0),
    ("gf2", 0),
    ("varint", 0),
    ("document", 0),
    ("nimber", 1),
    ("ordinal", 1),
    ("game", 2),
    ("heap", 3),
    ("solve", 3),
    ("misere", 3),
    ("pattern", 3),
    ("count", 3),
    ("distributed", 3),
    ("transfinite", 3),
    ("notation", 4),
    ("serde_impls", 4),
    ("figure", 4),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// The source without comments, string literals and `#[cfg(test)]` modules.
///
/// Character literals are kept (they cannot hold `crate::`); raw strings are treated as plain
/// strings, which is enough for the sources checked here.
fn code_of(source: &str) -> String {
    let b = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            let c = source[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    strip_test_modules(&out)
}

/// Drops every `#[cfg(test)] [pub[(crate)]] mod name { … }` block (braces counted; strings are already gone).
fn strip_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        let after = after
            .strip_prefix("pub(crate)")
            .or_else(|| after.strip_prefix("pub"))
            .unwrap_or(after)
            .trim_start();
        let is_mod_block = after.starts_with("mod ")
            && after
                .find(['{', ';'])
                .is_some_and(|k| after.as_bytes()[k] == b'{');
        if !is_mod_block {
            out.push_str("#[cfg(test)]");
            rest = &rest[at + "#[cfg(test)]".len()..];
            continue;
        }
        let open = after.find('{').unwrap();
        let mut depth = 0usize;
        let mut end = after.len();
        for (k, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The top-level modules that `code` names through `crate::`.
fn used_modules(code: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut used = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = code[at + "crate::".len()..].trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of the group: split at commas outside nested braces.
            let mut depth = 0usize;
            let mut start = 0;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        used.insert(ident(group[start..k].trim_start()));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        used.insert(ident(group[start..k].trim_start()));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
        } else {
            used.insert(ident(rest));
        }
    }
    used.remove("");
    used
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every import against the order: (file under `src/`, module it uses).
fn violations() -> BTreeSet<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut found = BTreeSet::new();
    for file in files {
        let rel = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let name = rel.rsplit('/').next().unwrap();
        if name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let top = rel.split('/').next().unwrap().trim_end_matches(".rs");
        let Some(own) = layer(top) else { continue };
        let code = code_of(&std::fs::read_to_string(&file).unwrap());
        for used in used_modules(&code) {
            if layer(&used).is_some_and(|l| l > own) {
                found.insert((rel.clone(), used));
            }
        }
    }
    found
}

#[test]
fn layers_point_one_way() {
    let found = violations();
    assert!(
        found.is_empty(),
        "imports against the layer order (a module may use only its own layer or below): {found:?}"
    );
}

#[test]
fn every_top_level_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_file() && path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        if matches!(name.as_str(), "lib" | "prelude") {
            continue;
        }
        assert!(
            layer(&name).is_some(),
            "module `{name}` has no layer in LAYERS"
        );
    }
}

#[test]
fn the_reader_sees_through_comments_strings_and_groups() {
    let code = code_of(
        "use crate::error::Error; // crate::notation\n\
         /* crate::heap */ let s = \"crate::solve\";\n\
         use crate::{control::Control, game::{Game, graph::Graph}, ordinal};\n\
         #[cfg(test)]\nmod tests { use crate::distributed; fn f() { {} } }\n\
         fn g() { crate::misere::x(); }",
    );
    let used: Vec<String> = used_modules(&code).into_iter().collect();
    assert_eq!(used, ["control", "error", "game", "misere", "ordinal"]);
}
