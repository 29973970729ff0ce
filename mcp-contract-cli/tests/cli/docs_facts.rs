//! The facts the docs state about the code, checked against the code: the environment
//! variables the library reads (the crate docs' table), the test binaries and their modules
//! (CONTRIBUTING.md's table), the crates a user's build compiles (`cargo tree`), the test counts
//! docs/performance.md gives, and every Rust path a doc names in backticks.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use support::docs::{markdown_files, readable, CRATE_DOCS};
use support::repo_path;

/// The text of `file` from the line holding `heading` to the next heading of its level.
fn section(text: &str, heading: &str) -> String {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no section {heading:?}"));
    let level = heading.chars().take_while(|c| *c == '#').count();
    let rest = &text[start + heading.len()..];
    let end = rest
        .lines()
        .scan(0, |at, line| {
            let here = *at;
            *at += line.len() + 1;
            Some((here, line))
        })
        .find(|(_, line)| {
            let hashes = line.chars().take_while(|c| *c == '#').count();
            hashes > 0 && hashes <= level && line[hashes..].starts_with(' ')
        })
        .map_or(rest.len(), |(at, _)| at);
    rest[..end].to_owned()
}

/// The cells of a Markdown table's rows (header and separator left out).
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

/// The spans of a text in backticks.
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// A source file without its unit tests (`#[cfg(test)]` modules sit at the end).
fn without_tests(path: &str) -> String {
    let text = std::fs::read_to_string(repo_path(path)).expect(path);
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// The environment variables the library reads: the names given to its readers in `env.rs`,
/// insta's settings (`snapshot/settings.rs`) and libtest's colour switches (`libtest.rs`).
fn variables_read() -> BTreeSet<String> {
    let readers = [
        "var(",
        "var_os(",
        "var_lossy(",
        "non_empty(",
        "set(",
        "flag(",
        "env(",
        "first(",
        ": &str = \"",
        "force_legacy = [",
    ];
    let mut names = BTreeSet::new();
    for file in [
        "mcp-contract-test/src/env.rs",
        "mcp-contract-test/src/snapshot/settings.rs",
        "mcp-contract-test/src/libtest.rs",
    ] {
        for line in without_tests(file)
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .filter(|l| readers.iter().any(|r| l.contains(r)))
        {
            for literal in line.split('"').skip(1).step_by(2) {
                let upper = literal.len() >= 2
                    && literal
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
                let proxy = literal.ends_with("_proxy")
                    && literal.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                if upper || proxy {
                    names.insert(literal.to_owned());
                }
            }
        }
    }
    names
}

#[test]
fn the_environment_table_names_every_variable_the_library_reads() {
    let read = variables_read();
    for expected in [
        "CI",
        "TF_BUILD",
        "INSTA_UPDATE",
        "MCP_CONTRACT_FAIL_ON",
        "https_proxy",
    ] {
        assert!(read.contains(expected), "{expected} not found: {read:?}");
    }
    let docs = readable("mcp-contract-test/src/lib.rs");
    let mut documented = BTreeSet::new();
    for row in table_rows(&section(&docs, "# Environment")) {
        let cell = &row[0];
        for span in code_spans(cell) {
            let name: String = span
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if cell.contains("or uppercase") {
                documented.insert(name.to_uppercase());
            }
            documented.insert(name);
        }
    }
    let undocumented: Vec<&String> = read.difference(&documented).collect();
    let unread: Vec<&String> = documented.difference(&read).collect();
    assert!(
        undocumented.is_empty() && unread.is_empty(),
        "the crate docs' environment table (mcp-contract-test/src/lib.rs, # Environment) and \
         the code disagree: read but not listed {undocumented:?}, listed but not read {unread:?}"
    );
    // insta.yaml: the keys insta's settings read from it are the ones the docs name.
    let settings = without_tests("mcp-contract-test/src/snapshot/settings.rs");
    let keys: BTreeSet<&str> = settings
        .split("flag(\"")
        .skip(1)
        // `flag("INSTA_VAR", "key")` reads both, `self.flag("key")` the file alone.
        .filter_map(|rest| rest.split(')').next()?.split('"').step_by(2).last())
        .chain(["update"])
        .collect();
    assert!(keys.len() >= 4, "{keys:?}");
    for key in &keys {
        assert!(
            docs.contains(&format!("`behavior.{key}`")),
            "insta.yaml's `behavior.{key}` is read but the crate docs do not name it"
        );
    }
}

/// The workspace's packages: name → (folder, test targets).
fn packages() -> BTreeMap<String, (PathBuf, BTreeSet<String>)> {
    super::docs::workspace_metadata()["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            let dir = Path::new(p["manifest_path"].as_str().expect("a manifest"))
                .parent()
                .expect("a folder")
                .to_path_buf();
            let name = p["name"].as_str().unwrap_or_default().to_owned();
            (name, (dir, super::docs::targets_of(p, "test")))
        })
        .collect()
}

/// CONTRIBUTING.md's table of test binaries: package → binary → its modules.
fn binaries_table() -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let text = std::fs::read_to_string(repo_path("CONTRIBUTING.md")).expect("CONTRIBUTING.md");
    let mut table: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let mut package = String::new();
    for row in table_rows(&section(&text, "## The test binaries")) {
        let mut cell = row[0].as_str();
        if let Some((head, rest)) = cell.split_once("`: ") {
            package = head.trim_start_matches('`').to_owned();
            cell = rest;
        }
        let mut depth = 0;
        let mut binary = String::new();
        for (i, part) in cell.split('`').enumerate() {
            if i % 2 == 0 {
                depth += part.matches('(').count();
                depth -= part.matches(')').count();
            } else if depth == 0 {
                binary = part.to_owned();
                table
                    .entry(package.clone())
                    .or_default()
                    .insert(binary.clone(), Vec::new());
            } else {
                table
                    .entry(package.clone())
                    .or_default()
                    .entry(binary.clone())
                    .or_default()
                    .push(part.to_owned());
            }
        }
    }
    table
}

#[test]
fn the_test_binary_table_names_every_binary_and_module() {
    let packages = packages();
    let table = binaries_table();
    assert!(table.len() >= 4, "{table:?}");
    let mut failures = Vec::new();
    for (name, (dir, tests)) in &packages {
        if !(name.starts_with("mcp-contract") || name == "workspace-tests") {
            continue;
        }
        let listed: BTreeSet<String> = table
            .get(name)
            .map(|b| b.keys().cloned().collect())
            .unwrap_or_default();
        for missing in tests.difference(&listed) {
            failures.push(format!(
                "{name}'s test binary `{missing}` is not in the table"
            ));
        }
        for gone in listed.difference(tests) {
            failures.push(format!(
                "the table lists `{gone}`, {name} has no such test binary"
            ));
        }
        for (binary, modules) in table.get(name).into_iter().flatten() {
            let folder = dir.join("tests").join(binary);
            for module in modules {
                if !folder.join(format!("{module}.rs")).is_file() {
                    failures.push(format!(
                        "{name}: `{binary}` (+ `{module}`): no {}/{module}.rs",
                        folder.display()
                    ));
                }
            }
            // A module of the binary that holds tests is listed.
            for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
                let file = entry.file_name().to_string_lossy().into_owned();
                let Some(module) = file.strip_suffix(".rs") else {
                    continue;
                };
                let holds_tests =
                    std::fs::read_to_string(entry.path()).is_ok_and(|t| t.contains("#[test]"));
                if holds_tests && !modules.iter().any(|m| m == module) {
                    failures.push(format!("{name}: `{binary}`'s module `{module}` holds tests but is not in the table"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "CONTRIBUTING.md, \"The test binaries\":\n{}",
        failures.join("\n")
    );
}

/// The crates a user's build compiles with `mcp-contract-test` and `features` (the consumer
/// crate included, as docs/performance.md counts them): `cargo tree` of a copy of
/// `tests/consumer` on the workspace's lock file.
fn crates(consumer: &support::nested::Consumer, features: &str) -> BTreeSet<String> {
    let mut args = vec![
        "tree",
        "--offline",
        "-e",
        "normal,build,dev",
        "--prefix",
        "none",
        "-f",
        "{p}",
    ];
    let feature = format!("mcp-contract-test/{features}");
    if !features.is_empty() {
        args.extend(["--features", feature.as_str()]);
    }
    let out = consumer.run("cargo", &args, &[]);
    assert!(
        out.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        // One crate per name and version (two versions of one crate are two builds).
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

/// The first number `pattern` (a regex-free marker: the text before the number, then the text
/// after it) finds in `text`.
fn number_after(text: &str, before: &str) -> Option<usize> {
    let at = text.find(before)? + before.len();
    text[at..]
        .trim_start_matches(['*', ' '])
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

#[test]
fn the_crate_counts_the_docs_give_are_cargo_trees() {
    let consumer =
        support::nested::Consumer::new("facts", &support::nested::Consumer::committed_test());
    let default = crates(&consumer, "");
    let count = |features: &str| crates(&consumer, features).len();
    let (http, https, calls, rmcp) = (count("http"), count("https"), count("calls"), count("rmcp"));
    let consumers = count("consumers");
    let base = default.len();
    let mut failures = Vec::new();
    let mut check = |file: &str, what: &str, said: Option<usize>, real: usize| match said {
        Some(said) if said == real => {}
        Some(said) => failures.push(format!(
            "{file}: {what}: the docs say {said}, cargo tree {real}"
        )),
        None => failures.push(format!(
            "{file}: {what}: not found (reworded? update this test)"
        )),
    };
    // The crate docs: the default build and what each feature adds.
    let docs = readable("mcp-contract-test/src/lib.rs");
    check(
        "mcp-contract-test/src/lib.rs",
        "the default build's crates",
        number_after(&docs, "is small ("),
        base,
    );
    let features = section(&docs, "## Cargo features");
    let rows: BTreeMap<String, String> = table_rows(&features)
        .into_iter()
        .map(|row| (row[0].trim_matches('`').to_owned(), row[2].clone()))
        .collect();
    for (feature, real) in [
        ("http", http),
        ("https", https),
        ("calls", calls),
        ("rmcp", rmcp),
        ("consumers", consumers),
    ] {
        let said = rows.get(feature).and_then(|cost| number_after(cost, "+"));
        check(
            "mcp-contract-test/src/lib.rs",
            &format!("crates `{feature}` adds"),
            said,
            real - base,
        );
    }
    // docs/performance.md's current row and sentences. The rows of earlier rounds (`start`,
    // `end`, `before`, `after`) give the crates their builds had when measured, beside the
    // times measured with them: history, not checked.
    let perf = std::fs::read_to_string(repo_path("docs/performance.md")).expect("performance.md");
    for (marker, real) in [
        ("| eighth pass, default (stdio) |", base),
        ("The default build's dependencies (", base - 1),
        ("ureq adds the same ", http - base),
        ("never a fetch) brings ", calls - base),
    ] {
        check(
            "docs/performance.md",
            marker,
            number_after(&perf, marker),
            real,
        );
    }
    // … and its list of the default build's dependencies.
    let list = perf
        .split("The default build's dependencies (")
        .nth(1)
        .and_then(|rest| rest.split_once("):").map(|(_, names)| names))
        .and_then(|names| names.split(". ").next())
        .unwrap_or_default();
    let named: BTreeSet<String> = list
        .split([',', '(', ')', '+'])
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
        .collect();
    let real: BTreeSet<String> = default
        .iter()
        .filter_map(|c| c.split_whitespace().next())
        .filter(|c| !c.starts_with("consumer"))
        .map(str::to_owned)
        .collect();
    if named != real {
        failures.push(format!(
            "docs/performance.md, the default build's dependencies: the docs name {named:?}, cargo tree has {real:?}"
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_test_counts_of_docs_performance_are_the_suites() {
    let perf = std::fs::read_to_string(repo_path("docs/performance.md")).expect("performance.md");
    // Section 1: the consumer's suite against server-memory, at the version the scripts pin.
    let package: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_path("scripts/perf/node/package.json"))
            .expect("package.json"),
    )
    .expect("JSON");
    let version = package["dependencies"]["@modelcontextprotocol/server-memory"]
        .as_str()
        .expect("pinned");
    let surface = support::fixtures::surface_json(&format!("memory/{version}.json"));
    let items = 1 + ["tools", "prompts", "resources", "resourceTemplates"]
        .iter()
        .map(|k| surface[k].as_array().map_or(0, Vec::len))
        .sum::<usize>();
    assert_eq!(
        number_after(&perf, "item against its snapshot, runs "),
        Some(items),
        "§1: the suite's libtest tests"
    );
    // Section 3: the notes server's in-process suite, one test per accepted snapshot.
    let snapshots = std::fs::read_dir(repo_path("examples/notes-server/tests/snapshots"))
        .expect("snapshots")
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("contract_in_process__")
        })
        .count();
    assert_eq!(
        number_after(&perf, "(probe + "),
        Some(snapshots),
        "§3: contract_in_process's tests"
    );
}

/// Every identifier the workspace's Rust code defines (items, fields, variants), its files and
/// folders, and its crates: what a path in backticks may name.
fn defined_names() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut stack = vec![repo_path("")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || name == "target" || name == "node_modules" {
                continue;
            }
            if path.is_dir() {
                names.insert(name.replace('-', "_"));
                stack.push(path);
                continue;
            }
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            names.insert(stem.to_owned());
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let words: Vec<&str> = text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '!'))
                .filter(|w| !w.is_empty())
                .collect();
            for pair in words.windows(2) {
                if [
                    "fn",
                    "struct",
                    "enum",
                    "trait",
                    "type",
                    "const",
                    "static",
                    "mod",
                    "macro_rules!",
                ]
                .contains(&pair[0])
                {
                    names.insert(pair[1].to_owned());
                }
            }
            for line in text.lines().map(str::trim_start) {
                let line = line.strip_prefix("pub ").unwrap_or(line);
                let ident: String = line
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let after = line[ident.len()..].trim_start();
                // A field (`name: Type,`) or a variant (`Name,`, `Name(…)`, `Name {`).
                if !ident.is_empty()
                    && (after.starts_with(':') && !after.starts_with("::")
                        || after.is_empty()
                        || after.starts_with([',', '(', '{']))
                {
                    names.insert(ident);
                }
            }
        }
    }
    names
}

/// Crates outside the workspace a doc may name paths of (`semver::Version`, `serde_json::Value`), as
/// Rust code names them: the standard library's, and every crate a workspace package depends
/// on (its manifests, so a new dependency needs no edit here, and a crate the code does not use
/// is not one). Their paths are theirs to keep; the workspace's own crates are checked.
fn external_crates() -> BTreeSet<String> {
    let packages = super::docs::workspace_metadata()["packages"]
        .as_array()
        .expect("packages");
    let own: BTreeSet<String> = packages
        .iter()
        .filter_map(|p| p["name"].as_str())
        .map(|n| n.replace('-', "_"))
        .collect();
    let mut external: BTreeSet<String> = ["std", "core", "alloc", "proc_macro"]
        .map(str::to_owned)
        .into();
    for dependency in packages
        .iter()
        .filter_map(|p| p["dependencies"].as_array())
        .flatten()
    {
        let name = dependency["rename"]
            .as_str()
            .or(dependency["name"].as_str())
            .unwrap_or_default()
            .replace('-', "_");
        if !own.contains(&name) {
            external.insert(name);
        }
    }
    external
}

#[test]
fn every_rust_path_the_docs_name_exists() {
    let names = defined_names();
    let external = external_crates();
    assert!(
        external.contains("semver") && external.contains("serde_json"),
        "the workspace's dependencies: {external:?}"
    );
    let mut checked = 0;
    let mut missing = BTreeSet::new();
    let files = markdown_files();
    for file in files
        .iter()
        .map(String::as_str)
        .chain(CRATE_DOCS.iter().copied())
    {
        if !repo_path(file).is_file() {
            continue;
        }
        let text = readable(file);
        // Inline code only: fenced blocks are checked by what runs them.
        let prose: String = text.split("```").step_by(2).collect::<Vec<_>>().join("\n");
        for span in code_spans(&prose) {
            // A path (`check::evaluate`), or a call (`key_as_sent()`).
            let call = span.trim().ends_with("()");
            let span = span.trim().trim_end_matches("()");
            if !(span.contains("::") || call)
                || span.contains([' ', '/', '<', '"', '=']) && !span.contains('{')
            {
                continue;
            }
            let segments: Vec<&str> = span
                .split("::")
                .flat_map(|s| s.trim_matches(['{', '}']).split(','))
                .map(str::trim)
                .collect();
            if segments
                .iter()
                .any(|s| s.is_empty() || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
                || external.contains(segments[0])
            {
                continue;
            }
            // A test name of a server's item (`tools::export_notes`, `readonly::tools::list_jobs`
            // in a named suite) names the server's item, not Rust code.
            let item_kind = |s: &str| {
                [
                    "server",
                    "tools",
                    "prompts",
                    "resources",
                    "resource_templates",
                    "calls",
                    "consumers",
                ]
                .contains(&s)
            };
            if item_kind(segments[0])
                || (!names.contains(segments[0]) && segments.get(1).is_some_and(|s| item_kind(s)))
            {
                continue;
            }
            checked += 1;
            let unknown: Vec<&&str> = segments.iter().filter(|s| !names.contains(**s)).collect();
            if !unknown.is_empty() {
                missing.insert(format!("{file}: `{span}` ({unknown:?} defined nowhere)"));
            }
        }
    }
    assert!(checked >= 40, "only {checked} paths checked");
    assert!(
        missing.is_empty(),
        "Rust paths the docs name that the code does not have: {missing:#?}"
    );
}
