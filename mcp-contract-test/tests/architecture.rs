//! The layering of docs/architecture.md, enforced: every `crate::…` path in the sources of the
//! engine and of this crate names a module its layer may use, the table has no cycle, and the
//! engine's clippy.toml forbids every kind of I/O.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Engine modules and what each may use (bottom up).
const ENGINE: &[(&str, &[&str])] = &[
    ("escape", &[]),
    ("hash", &[]),
    ("parallel", &[]),
    ("ordered", &[]),
    ("schema", &["ordered"]),
    ("surface", &["escape", "ordered"]),
    ("change", &["surface", "ordered"]),
    ("poison", &["escape", "change", "hash", "ordered"]),
    ("rules", &["change", "surface", "poison"]),
    ("prepare", &["surface", "hash", "escape", "ordered"]),
    ("version", &["change", "surface"]),
    (
        "lint",
        &[
            "rules", "surface", "escape", "prepare", "schema", "poison", "ordered",
        ],
    ),
    (
        "diff",
        &[
            "change", "rules", "schema", "surface", "poison", "parallel", "escape", "prepare",
            "ordered",
        ],
    ),
    (
        "consumer",
        &[
            "change", "rules", "schema", "surface", "prepare", "diff", "escape", "ordered",
        ],
    ),
    (
        "lib",
        &[
            "escape", "hash", "parallel", "ordered", "schema", "surface", "change", "rules",
            "prepare", "poison", "lint", "diff", "version", "consumer",
        ],
    ),
];

/// The engine's modules as this crate names them (`use mcp_contract_engine::{…}` at its root):
/// any module of the library may use them.
const ENGINE_IN_LIBRARY: &[&str] = &[
    "change", "diff", "escape", "lint", "ordered", "parallel", "prepare", "surface", "version",
];

/// Library modules and what each may use besides the engine (bottom up).
const LIBRARY: &[(&str, &[&str])] = &[
    ("error", &[]),
    ("env", &["error"]),
    ("libtest", &["env"]),
    ("snapshot", &["env"]),
    ("probe", &["env", "error"]),
    ("verdict", &["snapshot", "error"]),
    ("summary", &["verdict"]),
    ("action", &["verdict", "summary", "snapshot"]),
    ("check", &["verdict", "summary", "snapshot", "env", "error"]),
    (
        "calls",
        &[
            "check", "verdict", "summary", "snapshot", "probe", "env", "error",
        ],
    ),
    ("consumers", &["check", "verdict", "snapshot", "error"]),
    (
        "probe_cache",
        &["calls", "check", "verdict", "snapshot", "probe", "env"],
    ),
    ("config", &["verdict", "probe", "env", "error"]),
    ("suite", &["config", "check", "verdict", "probe", "error"]),
    (
        "run",
        &[
            "config",
            "calls",
            "consumers",
            "check",
            "verdict",
            "probe",
            "probe_cache",
            "snapshot",
            "summary",
            "env",
            "error",
        ],
    ),
    (
        "harness",
        &[
            "run", "suite", "action", "config", "check", "verdict", "summary", "snapshot",
            "libtest", "probe", "env", "error",
        ],
    ),
];

fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The top-level module a source file belongs to: `src/diff/tool.rs` → `diff`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("inside src");
    let first = relative.components().next().expect("a component");
    Path::new(first.as_os_str())
        .file_stem()
        .expect("a name")
        .to_string_lossy()
        .into_owned()
}

/// The code of a file without comments and without its `#[cfg(test)]` module (tests may reach
/// anywhere in their own module).
fn code(text: &str) -> String {
    let without_tests = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    without_tests
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| match line.find(" // ") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::name` in the code (not `$crate::`).
fn uses(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        let after = &rest[at + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if before != Some('$') && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            found.insert(name);
        }
        rest = after;
    }
    found
}

fn check_layers(src: &Path, table: &[(&str, &[&str])], shared: &[&str]) -> Vec<String> {
    let allowed: BTreeMap<&str, BTreeSet<&str>> = table
        .iter()
        .map(|(module, may)| (*module, may.iter().copied().collect()))
        .collect();
    let mut problems = Vec::new();
    for file in sources(src) {
        let module = module_of(src, &file);
        if module == "lib" {
            continue;
        }
        let Some(may) = allowed.get(module.as_str()) else {
            problems.push(format!(
                "{}: module `{module}` is not in the layer table of tests/architecture.rs (and docs/architecture.md)",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("read a source file");
        for used in uses(&code(&text)) {
            if used == module || may.contains(used.as_str()) || shared.contains(&used.as_str()) {
                continue;
            }
            problems.push(format!(
                "{}: `{module}` uses `crate::{used}`, which its layer may not use",
                file.display()
            ));
        }
    }
    problems
}

/// Depth-first: a module reached again while still on the path closes a cycle.
fn cycle(table: &[(&str, &[&str])]) -> Option<Vec<String>> {
    let edges: BTreeMap<&str, &[&str]> = table.iter().copied().collect();
    fn visit<'a>(
        node: &'a str,
        edges: &BTreeMap<&'a str, &'a [&'a str]>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            return Some(path[at..].iter().map(|s| (*s).to_owned()).collect());
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in edges.get(node).copied().unwrap_or_default() {
            if let Some(found) = visit(next, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for (node, _) in table {
        if let Some(found) = visit(node, &edges, &mut Vec::new(), &mut done) {
            return Some(found);
        }
    }
    None
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// The `crate::` uses of every source file under `src` but its root, all together.
fn all_uses(src: &Path) -> BTreeSet<String> {
    sources(src)
        .iter()
        .filter(|file| module_of(src, file) != "lib")
        .flat_map(|file| {
            uses(&code(
                &std::fs::read_to_string(file).expect("a source file"),
            ))
        })
        .collect()
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    // The scan sees the real sources: files, and `crate::` uses in them.
    for src in ["mcp-contract-engine/src", "mcp-contract-test/src"] {
        let src = root().join(src);
        let files = sources(&src);
        assert!(
            files.len() > 5 && files.contains(&src.join("lib.rs")),
            "{}: {files:?}",
            src.display()
        );
        assert!(
            all_uses(&src).len() > 3,
            "{}: {:?}",
            src.display(),
            all_uses(&src)
        );
    }
    let mut problems = check_layers(&root().join("mcp-contract-engine/src"), ENGINE, &[]);
    problems.extend(check_layers(
        &root().join("mcp-contract-test/src"),
        LIBRARY,
        ENGINE_IN_LIBRARY,
    ));
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Positive controls: the scanner finds the uses it must find, and a forbidden use or a module
/// missing from the table is a problem.
#[test]
fn the_layer_check_finds_uses_and_reports_a_forbidden_one() {
    let sample = "use crate::probe::{Probe, ProbeOptions};\n\
                  use super::x;\n\
                  // crate::commented\n\
                  let a = crate::check::evaluate(&b); // crate::trailing\n\
                  macro_rules! m { () => { $crate::hidden } }\n\
                  let c = mcp_contract::crate_like; other_crate::x;\n\
                  #[cfg(test)]\nmod tests {\n    use crate::anything;\n}\n";
    assert_eq!(
        uses(&code(sample)),
        BTreeSet::from(["probe".to_owned(), "check".to_owned()])
    );

    let dir = support::temp_dir("architecture");
    let src = dir.join("src");
    std::fs::create_dir_all(src.join("high")).unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "pub mod low; pub mod high; use crate::high;\n",
    )
    .unwrap();
    std::fs::write(src.join("low.rs"), "use crate::high::Thing;\n").unwrap();
    std::fs::write(src.join("high.rs"), "use crate::low::Base;\nmod inner;\n").unwrap();
    std::fs::write(
        src.join("high/inner.rs"),
        "use crate::low;\nuse crate::shared;\n",
    )
    .unwrap();
    std::fs::write(src.join("stray.rs"), "use crate::low;\n").unwrap();
    assert_eq!(sources(&src).len(), 5);
    let table: &[(&str, &[&str])] = &[("low", &[]), ("high", &["low"])];
    let problems = check_layers(&src, table, &["shared"]);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(
        problems[0].ends_with("low.rs: `low` uses `crate::high`, which its layer may not use"),
        "{problems:#?}"
    );
    assert!(
        problems[1].contains("stray.rs: module `stray` is not in the layer table"),
        "{problems:#?}"
    );
    // Without the shared name, the nested file's use of it is a problem too.
    assert_eq!(check_layers(&src, table, &[]).len(), 3);
}

#[test]
fn the_layer_tables_have_no_cycle() {
    assert_eq!(cycle(ENGINE), None);
    assert_eq!(cycle(LIBRARY), None);
    // The check itself finds one.
    assert_eq!(
        cycle(&[("a", &["b"]), ("b", &["a"])]),
        Some(vec!["a".to_owned(), "b".to_owned()])
    );
}

/// The engine's purity is held by clippy (`mcp-contract-engine/clippy.toml`, which CI's
/// `cargo clippy --workspace --all-targets -- -D warnings` reads), not by a grep of its text,
/// which passes `use std::{env, fs}` and misses threads. The control: a scratch crate under
/// that clippy.toml, one line a kind of I/O (each written the way a grep would miss it), every
/// one flagged, and the pure line beside them not.
#[test]
fn the_engines_clippy_config_flags_every_kind_of_io() {
    let dir = support::temp_dir("purity");
    std::fs::copy(
        root().join("mcp-contract-engine/clippy.toml"),
        dir.join("clippy.toml"),
    )
    .expect("the engine's clippy.toml");
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"purity-control\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[workspace]\n",
    )
    .unwrap();
    let lines = [
        ("file system", "use std::{env, fs}; pub fn a() -> String { fs::read_to_string(\"x\").unwrap_or_default() }"),
        ("environment", "pub fn b() -> Option<String> { env::var(\"X\").ok() }"),
        ("network", "pub fn c() -> bool { std::net::TcpStream::connect(\"127.0.0.1:9\").is_ok() }"),
        ("process", "pub fn d() -> bool { std::process::Command::new(\"true\").status().is_ok() }"),
        ("thread", "pub fn e() { let _ = std::thread::spawn(|| ()).join(); }"),
        ("clock", "pub fn f() -> u128 { std::time::SystemTime::now().elapsed().map_or(0, |d| d.as_nanos()) }"),
        ("printing", "pub fn g() { println!(\"x\") }"),
        ("pure", "pub fn h(a: u32) -> u32 { a.wrapping_add(1) }"),
    ];
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let source: Vec<&str> = lines.iter().map(|(_, line)| *line).collect();
    std::fs::write(dir.join("src/lib.rs"), source.join("\n") + "\n").unwrap();
    let output = support::command("cargo")
        .args(["clippy", "--offline", "--quiet", "--message-format=short"])
        .current_dir(&*dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .expect("cargo clippy runs");
    let said = String::from_utf8_lossy(&output.stderr);
    let flagged: BTreeSet<usize> = said
        .lines()
        .filter(|l| l.contains("use of a disallowed"))
        .filter_map(|l| {
            l.strip_prefix("src/lib.rs:")?
                .split(':')
                .next()?
                .parse()
                .ok()
        })
        .collect();
    for (number, (kind, _)) in lines.iter().enumerate() {
        let line = number + 1;
        assert_eq!(
            flagged.contains(&line),
            *kind != "pure",
            "{kind} (line {line}) flagged: {}; clippy said:\n{said}",
            flagged.contains(&line)
        );
    }
}

#[test]
fn only_env_reads_the_environment() {
    let src = root().join("mcp-contract-test/src");
    let words = ["std::env::var", "env::var_os", "std::env::vars"];
    let files = sources(&src);
    // Positive control: the module allowed to read the environment is scanned and is found
    // doing it.
    assert!(files.contains(&src.join("env.rs")), "{files:?}");
    let env = code(&std::fs::read_to_string(src.join("env.rs")).expect("env.rs"));
    assert!(
        words.iter().any(|word| env.contains(word)),
        "env.rs reads no variable"
    );
    let mut problems = Vec::new();
    let mut scanned = 0;
    for file in files {
        if file.ends_with("env.rs") || file.ends_with("libtest.rs") {
            // libtest reads the colour variables exactly as libtest does.
            continue;
        }
        scanned += 1;
        let text = code(&std::fs::read_to_string(&file).expect("read a source file"));
        for word in words {
            if text.contains(word) {
                problems.push(format!("{}: `{word}`", file.display()));
            }
        }
    }
    assert!(scanned > 5, "{scanned} files scanned");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
