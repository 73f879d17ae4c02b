//! `--json` on every analysis command: one valid JSON document whose result is the text answer.
//!
//! The arithmetic commands (`nimber add|mul|div|inv|pow|sqrt|order|log|solve`, `ordinal
//! nim-sum|add|mul|pow|cmp|nim-mul|nim-inv|nim-pow|excess`) print `{"op", "args", "result"}`:
//! nimbers and natural numbers as exact JSON integers of any size, ordinals as strings in
//! canonical form. Each document is checked against the same command's text output.

mod cli_tree;

use assert_cmd::Command;
use grundy::count::CountDocument;
use grundy::heap::position::PositionDocument;
use grundy::misere::QuotientDocument;
use grundy::pattern::value::AnalysisDocument;
use grundy::solve::loopy::GraphDocument;
use grundy::solve::search::SolutionDocument;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::BTreeMap;

fn grundy() -> Command {
    Command::cargo_bin("grundy").unwrap()
}

fn text(args: &[&str]) -> String {
    let out = grundy().args(args).output().unwrap();
    assert!(out.status.success(), "grundy {args:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The one JSON document printed by `grundy ARGS --json` (numbers kept exact).
fn json(args: &[&str]) -> Value {
    let out = text(&[args, &["--json"]].concat());
    assert_eq!(out.lines().count(), 1, "one document: {out}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

/// A JSON number or string as the text it stands for (numbers read from the document's own
/// text, so that integers beyond 64 bits stay exact).
fn plain(v: &RawValue) -> String {
    match serde_json::from_str::<Value>(v.get()).unwrap() {
        Value::String(s) => s,
        Value::Number(_) => v.get().to_string(),
        other => panic!("expected a number or a string, found {other}"),
    }
}

/// Checks `{"op", "args", "result"}` against the text answer of the same command.
fn check_op(args: &[&str], op: &str, expected_args: &[&str]) -> Value {
    let doc = json(args);
    let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["args", "op", "result"], "{args:?}");
    assert_eq!(doc["op"], op);
    let line = text(&[args, &["--json"]].concat());
    let raw: BTreeMap<String, Box<RawValue>> = serde_json::from_str(&line).unwrap();
    let got_args: Vec<Box<RawValue>> = serde_json::from_str(raw["args"].get()).unwrap();
    let got: Vec<String> = got_args.iter().map(|a| plain(a)).collect();
    assert_eq!(got, expected_args, "{args:?}");
    let answer = text(args);
    let result = raw["result"].get();
    if result.starts_with('[') {
        let xs: Vec<Box<RawValue>> = serde_json::from_str(result).unwrap();
        let lines: Vec<String> = answer.lines().map(str::to_string).collect();
        assert_eq!(
            xs.iter().map(|x| plain(x)).collect::<Vec<_>>(),
            lines,
            "{args:?}"
        );
    } else if result == "null" {
        assert_eq!(answer, "none\n");
    } else {
        assert_eq!(format!("{}\n", plain(&raw["result"])), answer, "{args:?}");
    }
    doc
}

#[test]
fn nimber_operations() {
    check_op(
        &["nimber", "add", "5", "3", "0x10"],
        "add",
        &["5", "3", "16"],
    );
    let d = check_op(&["nimber", "mul", "8", "9"], "mul", &["8", "9"]);
    assert_eq!(d["result"], 5);
    check_op(&["nimber", "div", "5", "9"], "div", &["5", "9"]);
    check_op(&["nimber", "inv", "2"], "inv", &["2"]);
    check_op(&["nimber", "pow", "2", "3"], "pow", &["2", "3"]);
    check_op(&["nimber", "sqrt", "123456789"], "sqrt", &["123456789"]);
    check_op(&["nimber", "order", "2"], "order", &["2"]);
    let d = check_op(&["nimber", "log", "2", "3"], "log", &["2", "3"]);
    assert_eq!(d["result"], 2);
    let d = check_op(&["nimber", "log", "2", "4"], "log", &["2", "4"]);
    assert!(d["result"].is_null());
    let d = check_op(&["nimber", "solve", "1", "1"], "solve", &["1", "1"]);
    assert_eq!(d["result"], serde_json::json!([2, 3]));
}

#[test]
fn nimbers_beyond_64_bits_are_exact_integers() {
    let out = text(&[
        "nimber",
        "mul",
        "0x10000000000000000",
        "0x10000000000000000",
        "--json",
    ]);
    // Written in full as JSON numbers (not strings, not floats).
    assert!(
        out.contains("\"args\":[18446744073709551616,18446744073709551616]"),
        "{out}"
    );
    check_op(
        &[
            "nimber",
            "mul",
            "0x10000000000000000",
            "0x10000000000000000",
        ],
        "mul",
        &["18446744073709551616", "18446744073709551616"],
    );
    let big = "340282366920938463463374607431768211457"; // 2^128 + 1
    check_op(&["nimber", "inv", big], "inv", &[big]);
}

#[test]
fn ordinal_operations() {
    let d = check_op(
        &["ordinal", "nim-sum", "w+1", "w+2"],
        "nim-sum",
        &["w+1", "w+2"],
    );
    assert_eq!(d["result"], "3");
    check_op(&["ordinal", "add", "1", "w"], "add", &["1", "w"]);
    check_op(&["ordinal", "mul", "w+1", "2"], "mul", &["w+1", "2"]);
    let d = check_op(&["ordinal", "pow", "w+1", "3"], "pow", &["w+1", "3"]);
    assert!(d["args"][1].is_u64(), "the exponent is a number");
    check_op(
        &["ordinal", "cmp", "w^(w)", "w^100*7"],
        "cmp",
        &["w^(w)", "w^100*7"],
    );
    // Arguments come back in canonical form.
    check_op(&["ordinal", "nim-sum", "w^1*1+0"], "nim-sum", &["w"]);
}

#[test]
fn ordinal_nim_products() {
    fn with<'a>(a: &[&'a str]) -> Vec<&'a str> {
        [a, &["--no-cache"]].concat()
    }
    let d = check_op(
        &with(&["ordinal", "nim-mul", "w", "w^2"]),
        "nim-mul",
        &["w", "w^2"],
    );
    assert_eq!(d["result"], "2");
    check_op(&with(&["ordinal", "nim-inv", "w"]), "nim-inv", &["w"]);
    check_op(
        &with(&["ordinal", "nim-pow", "w", "3"]),
        "nim-pow",
        &["w", "3"],
    );
    let d = check_op(&with(&["ordinal", "excess", "19"]), "excess", &["19"]);
    assert_eq!(d["result"], 4);
}

#[test]
fn bad_input_with_json_still_exits_2() {
    grundy()
        .args(["nimber", "div", "5", "0", "--json"])
        .assert()
        .code(2)
        .stdout("");
    grundy()
        .args(["ordinal", "nim-sum", "w+", "--json"])
        .assert()
        .code(2)
        .stdout("");
}

/// Commands that print something other than an analysis, so no `--json`.
const NOT_ANALYSIS: &[&str] = &[
    "nimber product", // the Library Checker line format
    "graph dot",      // Graphviz DOT
    "completions",    // a shell script
    "serve",
    "play",
    "manpage",
];

#[test]
fn every_analysis_command_has_json() {
    let without: Vec<String> = cli_tree::tree()
        .into_iter()
        .filter(|(_, help)| cli_tree::subcommands(help).is_empty())
        .map(|(path, help)| (path.join(" "), help))
        .filter(|(name, help)| !NOT_ANALYSIS.contains(&name.as_str()) && !help.contains("--json"))
        .map(|(name, _)| name)
        .collect();
    assert!(without.is_empty(), "no --json: {without:?}");
}

/// The keys of a JSON object, sorted.
fn keys(doc: &Value) -> Vec<&str> {
    doc.as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

#[test]
fn heap_and_graph_documents_have_the_spec_fields() {
    // (analyze: tests/pattern.rs.)
    let d = json(&["seq", "kayles", "-n", "5"]);
    assert_eq!(keys(&d), ["game", "values"]);
    assert_eq!(d["values"], serde_json::json!([0, 1, 2, 3, 1]));
    let d = json(&["position", "nim", "1", "2", "3"]);
    assert_eq!(keys(&d), ["nim_sum", "outcome", "winning_moves"]);
    assert_eq!(d["outcome"], "P");
    let graph = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("json-graph.txt");
    std::fs::write(&graph, "a: b\nb:\n").unwrap();
    let d = json(&["graph", "solve", graph.to_str().unwrap()]);
    assert_eq!(keys(&d), ["vertices"]);
    assert_eq!(d["vertices"][0]["outcome"], "N");
}

#[test]
fn value_document_has_exact_integers() {
    let line = text(&[
        "value",
        "kayles",
        "1000000000000000000000000",
        "5",
        "--json",
    ]);
    assert_eq!(
        line,
        "{\"game\":\"octal:0.77\",\"heaps\":[1000000000000000000000000,5],\"values\":[1,4]}\n"
    );
    // The values are those of the text output.
    assert_eq!(
        text(&["value", "kayles", "1000000000000000000000000", "5"]),
        "1\n4\n"
    );
}

#[test]
fn the_game_field_is_canonical_in_every_document() {
    for args in [
        &["seq", "kayles", "-n", "3"][..],
        &["analyze", "kayles"],
        &["value", "kayles", "3"],
        &["count", "kayles", "--heaps", "2", "--max", "5"],
    ] {
        let d = json(args);
        assert_eq!(d["game"], "octal:0.77", "{args:?}");
    }
    let d = json(&["seq", "sub:4,1,3,1", "-n", "3"]);
    assert_eq!(d["game"], "sub:1,3-4");
}

/// The answer documents' JSON Schemas in `docs/schemas/` are those generated from the library's
/// document types; `GRUNDY_WRITE_SCHEMAS=1 cargo test -p grundy-cli --test json schemas`
/// rewrites them after a change of a type.
#[test]
fn schemas_in_docs_are_generated_from_the_documents() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schemas");
    let write = std::env::var_os("GRUNDY_WRITE_SCHEMAS").is_some();
    // One row per answer document.
    let documents = vec![
        ("analysis", schemars::schema_for!(AnalysisDocument)),
        ("solution", schemars::schema_for!(SolutionDocument)),
        ("position", schemars::schema_for!(PositionDocument)),
        ("quotient", schemars::schema_for!(QuotientDocument)),
        ("count", schemars::schema_for!(CountDocument)),
        ("graph", schemars::schema_for!(GraphDocument)),
    ];
    for (name, schema) in documents {
        let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        let path = dir.join(format!("{name}.json"));
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == text,
            "docs/schemas/{name}.json is not the schema of the type: run \
             GRUNDY_WRITE_SCHEMAS=1 cargo test -p grundy-cli --test json schemas"
        );
    }
}

/// `analyze --json` prints exactly the library's document: it reads into the type, which refuses
/// unknown keys, and writes back to the same text, so no key is missing or reordered either.
#[test]
fn analysis_documents_are_the_library_type() {
    for args in [
        &["analyze", "kayles"][..],
        &["analyze", "squares", "--max", "300"],
        &["analyze", "nim"],
        &["analyze", "divide:2,3"],
    ] {
        let out = text(&[args, &["--json"]].concat());
        let doc: AnalysisDocument =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"));
        assert_eq!(
            serde_json::to_string(&doc).unwrap(),
            out.trim_end(),
            "{args:?}"
        );
    }
    // divide:D covers every heap below 2^64: the count is an exact integer past 64 bits.
    assert!(
        text(&["analyze", "divide:2,3", "--json"]).contains("\"computed\":18446744073709551616,")
    );
}

/// The document `grundy ARGS --json` prints, read into the library type `T` (which refuses
/// unknown keys) and checked to write back to the same text, so no key is missing or
/// reordered either.
fn round_trip<T>(args: &[&str]) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let out = text(&[args, &["--json"]].concat());
    let doc: T = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"));
    assert_eq!(
        serde_json::to_string(&doc).unwrap(),
        out.trim_end(),
        "{args:?}"
    );
    doc
}

/// `solve --json` prints the library's `SolutionDocument`, whose fields are those of the text
/// answer.
#[test]
fn solution_documents_are_the_library_type() {
    for args in [
        &["solve", "cram:3x3"][..],
        &["solve", "chomp:3,2,2", "--moves"],
        &["solve", "wythoff:3,5", "--misere", "--moves"],
        &["solve", "node-kayles:path:7", "--moves"],
        &["solve", "wythoff:4,7", "--moves"],
    ] {
        let doc: SolutionDocument = round_trip(args);
        assert_eq!(doc.game, args[1]);
        let mut lines = vec![doc.outcome.to_string()];
        lines.extend(doc.value.map(|v| format!("value {v}")));
        lines.extend(
            doc.winning_moves
                .iter()
                .map(|m| format!("{}: {}", m.name, m.after)),
        );
        assert_eq!(lines.join("\n") + "\n", text(args), "{args:?}");
        assert!(doc.stats.hits <= doc.stats.lookups, "{args:?}");
    }
    let d = json(&["solve", "chomp:3,2,2", "--moves"]);
    assert_eq!(
        keys(&d),
        ["game", "outcome", "stats", "value", "winning_moves"]
    );
    assert_eq!(keys(&d["winning_moves"][0]), ["after", "move"]);
}

/// `position --json` prints the library's `PositionDocument`: heaps numbered from 1, numbers
/// exact at any size, the same moves as the text answer.
#[test]
fn position_documents_are_the_library_type() {
    let big = "340282366920938463463374607431768211457"; // 2^128 + 1
    for args in [
        &["position", "nim", "1", "2", "3"][..],
        &["position", "kayles", "5", "7", "13"],
        &["position", "nim", "3", "4", "--misere"],
        &["position", "kayles", "100000", "7"],
        &["position", "nim", big, "5"],
    ] {
        let doc: PositionDocument = round_trip(args);
        let mut lines = vec![doc.outcome.to_string()];
        for m in &doc.winning_moves {
            let to: Vec<String> = m.to.iter().map(ToString::to_string).collect();
            lines.push(format!("heap {}: {} -> {}", m.heap, m.from, to.join(" ")));
        }
        let want: Vec<String> = text(args)
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect();
        let got: Vec<String> = lines.iter().map(|l| l.trim_end().to_string()).collect();
        assert_eq!(got, want, "{args:?}");
        assert_eq!(
            doc.nim_sum.is_none(),
            args.contains(&"--misere"),
            "{args:?}"
        );
    }
    let line = text(&["position", "nim", big, "5", "--json"]);
    assert!(
        line.contains(&format!("{{\"heap\":1,\"from\":{big},\"to\":[")),
        "{line}"
    );
}

/// `misere --json` prints the library's `QuotientDocument`, and its P-portion, order and heap
/// map are those of the text answer's lines.
#[test]
fn quotient_documents_are_the_library_type() {
    for args in [
        &["misere", "nim", "--max-heap", "3"][..],
        &["misere", "octal:0.75", "--max-heap", "20"],
        &["misere", "kayles", "--max-heap", "12"],
    ] {
        let doc: QuotientDocument = round_trip(args);
        assert_eq!(doc.order, doc.elements.len(), "{args:?}");
        assert_eq!(doc.mul.len(), doc.order, "{args:?}");
        assert_eq!(doc.heap_map.len() as u64, doc.max_heap + 1, "{args:?}");
        let answer = text(args);
        assert!(
            answer.contains(&format!("{}", doc.order)),
            "{args:?}: {answer}"
        );
    }
    let d: QuotientDocument = round_trip(&["misere", "octal:0.75", "--max-heap", "20"]);
    assert_eq!(d.order, 8, "R8 of Plambeck and Siegel");
    assert_eq!(d.game, "octal:0.75");
}

/// `count --json` prints the library's `CountDocument`: exact integers of any size, the count of
/// the text answer, and the distribution only when asked for.
#[test]
fn count_documents_are_the_library_type() {
    for args in [
        &["count", "kayles", "--heaps", "2", "--max", "5"][..],
        &["count", "nim", "--heaps", "3", "--max", "7", "--unordered"],
        &[
            "count",
            "kayles",
            "--heaps",
            "100",
            "--max",
            "1000",
            "--mod",
            "1000000007",
        ],
        &["count", "kayles", "--heaps", "40", "--max", "1000"],
    ] {
        let doc: CountDocument = round_trip(args);
        assert_eq!(format!("{}\n", doc.count), text(args), "{args:?}");
        assert!(doc.distribution.is_none(), "{args:?}");
    }
    // (1000 choose 40-ish tuples: far beyond 2^64, written in full.)
    let d: CountDocument = round_trip(&["count", "kayles", "--heaps", "40", "--max", "1000"]);
    assert!(d.count.0.bits() > 64, "{}", d.count);
    let args = [
        "count",
        "nim",
        "--heaps",
        "2",
        "--max",
        "3",
        "--distribution",
    ];
    let d: CountDocument = round_trip(&args);
    let lines: Vec<String> = d
        .distribution
        .unwrap()
        .iter()
        .enumerate()
        .map(|(x, c)| format!("{x} {c}"))
        .collect();
    assert_eq!(lines.join("\n") + "\n", text(&args));
}

/// `graph solve --json` streams the library's `GraphDocument` vertex by vertex: the whole text
/// reads into the type and writes back the same, and each vertex says what its text line says.
#[test]
fn graph_documents_are_the_library_type() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/examples");
    let cycle = dir.join("cycle.txt");
    let arcs = dir.join("arcs.txt");
    let (cycle, arcs) = (cycle.to_str().unwrap(), arcs.to_str().unwrap());
    for extra in [&[][..], &["--misere"]] {
        for file in [
            &["graph", "solve", cycle][..],
            &["graph", "solve", "--edges", arcs],
        ] {
            let args = [file, extra].concat();
            let doc: GraphDocument = round_trip(&args);
            let lines: Vec<String> = text(&args).lines().map(str::to_string).collect();
            assert_eq!(doc.vertices.len(), lines.len(), "{args:?}");
            for (v, line) in doc.vertices.iter().zip(&lines) {
                let value = match (&v.value, &v.infinite_options) {
                    (Some(a), None) => a.to_string(),
                    (None, Some(k)) => {
                        let k: Vec<String> = k.iter().map(u64::to_string).collect();
                        format!("inf{{{}}}", k.join(","))
                    }
                    (None, None) => "-".into(),
                    other => panic!("{args:?}: a value and infinite options: {other:?}"),
                };
                let remoteness = v.remoteness.map_or("-".into(), |r| r.to_string());
                let want = format!("{} {} {remoteness} {value}", v.name, v.outcome);
                assert_eq!(&want, line, "{args:?}");
            }
        }
    }
}

/// Every `--json` example of README.md and docs/*.md whose answer is a library document reads
/// into that document's type and writes back to the same line (the docs test runs the examples;
/// this checks them against the types the schemas are generated from).
#[test]
fn documents_in_the_docs_are_the_library_types() {
    fn check<T: serde::Serialize + serde::de::DeserializeOwned>(line: &str) -> String {
        let doc: T = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        serde_json::to_string(&doc).unwrap()
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut checked = BTreeMap::<&str, usize>::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(command) = line.strip_prefix("$ grundy ") else {
                continue;
            };
            if !command.split_whitespace().any(|w| w == "--json") {
                continue;
            }
            let Some(answer) = lines.get(i + 1) else {
                continue;
            };
            let words: Vec<&str> = command.split_whitespace().collect();
            let (name, back) = match words[..] {
                ["analyze", ..] => ("analysis", check::<AnalysisDocument>(answer)),
                ["solve", ..] => ("solution", check::<SolutionDocument>(answer)),
                ["position", ..] => ("position", check::<PositionDocument>(answer)),
                ["misere", ..] => ("quotient", check::<QuotientDocument>(answer)),
                ["count", ..] => ("count", check::<CountDocument>(answer)),
                ["graph", "solve", ..] => ("graph", check::<GraphDocument>(answer)),
                _ => continue,
            };
            assert_eq!(&back, answer, "{}: {command}", page.display());
            *checked.entry(name).or_default() += 1;
        }
    }
    // The pages hold examples of these documents; a page that loses them fails here.
    for name in ["analysis", "position", "count", "graph"] {
        assert!(
            checked.get(name).is_some_and(|&n| n > 0),
            "no {name} example: {checked:?}"
        );
    }
}
