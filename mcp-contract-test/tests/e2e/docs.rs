//! The `#[mcp_contract(...)]` snippets of the docs (README.md, docs/*.md, the crate docs) compile
//! as a user pastes them: each becomes a test target of one consumer crate, built once
//! (`cargo test --no-run`). A `bin = "NAME"` snippet gets an empty binary of that name beside
//! it; the in-process snippet (`handler = my_server::Server::new()`) names a crate the reader
//! has, so it is held to the example that compiles it with the notes server instead.

use support::docs::{all_blocks, Block};

/// The attribute snippets: Rust blocks that use the attribute.
fn snippets() -> Vec<Block> {
    all_blocks()
        .into_iter()
        .filter(|b| ["rust", "ignore", "no_run"].contains(&b.lang.as_str()))
        .filter(|b| b.text.contains("mcp_contract("))
        .collect()
}

/// The `bin = "NAME"` values of a snippet.
fn bins(text: &str) -> Vec<String> {
    text.split("bin = \"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

fn squeeze(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .collect::<String>()
        .split_whitespace()
        .collect()
}

#[test]
fn every_attribute_snippet_of_the_docs_compiles() {
    let snippets = snippets();
    assert!(snippets.len() >= 5, "{snippets:?}");
    let (in_process, compiled): (Vec<&Block>, Vec<&Block>) =
        snippets.iter().partition(|b| b.text.contains("handler ="));
    // Both kinds are there: the checks below run over each.
    assert!(
        !in_process.is_empty(),
        "no in-process snippet: {snippets:?}"
    );
    assert!(!compiled.is_empty(), "no snippet to compile: {snippets:?}");

    // The in-process snippet is the example's suite, with the reader's crate in place of ours
    // and without its declared calls (the crate docs show those in a section of their own).
    let example = std::fs::read_to_string(support::repo_path(
        "examples/notes-server/tests/contract_in_process.rs",
    ))
    .expect("the in-process example");
    let example = squeeze(&example).replacen(",calls=\"tests/calls\"", "", 1);
    for block in &in_process {
        let as_example = block.text.replace(
            "my_server::Server::new()",
            "notes_server::NotesServer::<notes_server::V1>::new()",
        );
        assert!(
            example.contains(&squeeze(&as_example)),
            "{}: not the attribute of examples/notes-server/tests/contract_in_process.rs",
            block.at()
        );
    }

    let consumer =
        support::nested::Consumer::new("docs", &support::nested::Consumer::committed_test());
    let mut manifest = std::fs::read_to_string(consumer.dir.join("Cargo.toml")).expect("manifest");
    let mut names = Vec::new();
    for (i, block) in compiled.iter().enumerate() {
        let name = format!("doc_{i}");
        std::fs::write(
            consumer.dir.join("tests").join(format!("{name}.rs")),
            format!("// {}\n{}\n", block.at(), block.text),
        )
        .expect("write a snippet");
        manifest.push_str(&format!("\n[[test]]\nname = \"{name}\"\nharness = false\n"));
        for bin in bins(&block.text) {
            if !names.contains(&bin) {
                std::fs::create_dir_all(consumer.dir.join("src/bin")).expect("src/bin");
                std::fs::write(
                    consumer.dir.join(format!("src/bin/{bin}.rs")),
                    "fn main() {}\n",
                )
                .expect("a binary");
                names.push(bin);
            }
        }
        names.push(name);
    }
    // Declared calls need the `calls` feature and consumers the `consumers` one, as the docs
    // say.
    let features: Vec<&str> = [("calls = ", "calls"), ("consumers = ", "consumers")]
        .into_iter()
        .filter(|(key, _)| compiled.iter().any(|b| b.text.contains(key)))
        .map(|(_, feature)| feature)
        .collect();
    std::fs::write(consumer.dir.join("Cargo.toml"), manifest).expect("manifest");
    if !features.is_empty() {
        consumer.enable_features(&features);
    }
    let out = consumer.run("cargo", &["test", "--no-run"], &[]);
    assert!(
        out.status.success(),
        "a snippet of the docs does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
