//! Contract testing for MCP servers, inside `cargo test`.
//!
//! An MCP server's advertised surface — its tools with their input and output schemas,
//! annotations and descriptions, its prompts, resources, resource templates, instructions and
//! capabilities — is a promise agents are written against. This crate records that promise as
//! one insta snapshot per item and holds the server to it: every tool, prompt, resource and
//! template becomes its own test, and every difference is judged from the caller's side.
//!
//! # Quickstart
//!
//! ```toml
//! # Cargo.toml
//! [dev-dependencies]
//! mcp-contract-test = "0.1"
//!
//! [[test]]
//! name = "contract"
//! harness = false
//! ```
//!
//! ```ignore
//! // tests/contract.rs
//! #[mcp_contract_test::mcp_contract(server = "python3 my_server.py --stdio")]
//! fn main() {}
//! ```
//!
//! `cargo test --test contract` starts the server the way its users do (a subprocess over
//! stdio), lists everything it advertises — following every page, calling no tool unless the
//! suite declares calls (see [Declared calls](#declared-calls)) — and runs one test per item:
//!
//! ```text
//! test prompts::summarize_notes ... ok
//! test resource_templates::notes://note/{id} ... ok
//! test resources::notes://index ... ok
//! test server ... ok
//! test tools::export_notes ... FAILED
//! test tools::list_notes ... ok
//! ```
//!
//! # The workflow
//!
//! 1. **Record.** The first run writes `tests/snapshots/contract__tools__export_notes.snap.new`
//!    and friends (new items pass). `cargo insta accept` makes them the accepted contract;
//!    commit them.
//! 2. **Break.** A change to the server that hurts callers — an argument now required, a type
//!    narrowed, an output field removed, a read-only tool turned destructive — fails that item's
//!    test with the rule, the path, before → after, and who it hurts. A `.snap.new` holds the new
//!    surface, its header carrying the classified change list.
//! 3. **Review.** `cargo insta review` shows each pending snapshot with its classified changes
//!    above the diff.
//! 4. **Accept.** Accepting makes the change the new promise; the suite is green again. A removed
//!    item is accepted the same way: its snapshot becomes a tombstone, the accepted record of
//!    the removal, which every run references (the `server` test does), so
//!    `cargo insta test --unreferenced=reject` passes and `--unreferenced=delete` keeps it.
//!    A pending `.snap.new` of an item that has no test any more (a tool a release added and
//!    the next took back) is deleted by the next run, as insta deletes the pending file of an
//!    assertion that matches: `cargo insta accept` never records what the server no longer
//!    says. A difference that a `deny` lint finding fails is not written for review at all:
//!    accepting it would not clear the finding.
//!
//! Changes in the classes *breaking*, *safety* and *review* fail; *behavior*, *routing*,
//! *additive* and *cosmetic* drift passes and is summarised at the end of the run. Where CI is
//! detected (`CI` set, as insta reads it) any unaccepted drift fails and nothing is written, so
//! committed snapshots always equal the live surface and a pull request's snapshot diff is the
//! change in the promise; a suite with no accepted contract at all fails there too. The
//! `mcp-contract` CLI applies the same policy, decided in the same place.
//!
//! # Attribute keys
//!
//! | key | meaning |
//! |---|---|
//! | `server = "cmd args…"` | the server's command line, split as a POSIX shell would; `${VAR}` in it (and in `env` and `start` values) is read from the environment when the server starts, shown as written (`$${` for the text itself) |
//! | `bin = "name"` | a binary of this package (`CARGO_BIN_EXE_name`; cargo builds it first) |
//! | `url = "http://127.0.0.1:{port}/mcp"` | a Streamable HTTP endpoint instead of stdio (JSON and SSE answers; feature `http`: the default build is stdio only, and `url` without the feature is a compile error saying so) |
//! | `url = "https://mcp.example.com/mcp"` | the same over TLS (feature `https`: rustls with ring, Mozilla's public CAs; the system's store too with feature `system-roots`; a private or self-signed CA from `ca_file` or `MCP_CONTRACT_CA_FILE`; verification cannot be switched off). Redirects (301, 302, 307, 308) are followed with the same method and body, up to 5; a note then says which URL to configure; headers go only to the configured URL's origin |
//! | `handler = my_server::Server::new()` | an `rmcp::ServerHandler` tested in-process: no process, no port, no binary build (feature `rmcp`) |
//! | `lifecycle = "auto"` | the handshake: `"initialize"` (default), `"discover"` (2026-07-28 `server/discover`), `"auto"` (discover, falling back to initialize); the one used is written in the `server` snapshot's header |
//! | `headers = ["Authorization: Bearer ${MCP_TOKEN}"]` | HTTP headers; `${VAR}` is read from the environment at probe time and never shown |
//! | `start = "python3 server.py --port {port}"` | with `url`: start the server first on a free port (`{port}`, in its arguments and `env` values; messages show `{port}`), stop its process group after |
//! | `ready_line = "listening"` | with `start`: ready once a stdout/stderr line contains this (default: once the port accepts) |
//! | `proxy = "http://proxy.corp:3128"` / `"off"` | with `url`: the HTTP proxy (a CONNECT tunnel for `https://`, absolute-form requests for `http://`), credentials as `USER:${PROXY_PASSWORD}@` before the host; `"off"` for none. Default: the environment's (`https_proxy`, `http_proxy`, `all_proxy`, `no_proxy`, either case; never for loopback hosts) |
//! | `ca_file = "certs/ca.pem"` | with an `https://` `url`: a PEM file of CA certificates trusted besides the public ones, relative to the crate (wins over `MCP_CONTRACT_CA_FILE`) |
//! | `args = ["--flag"]` | more arguments |
//! | `env = ["KEY=value"]` | environment variables for the server (the rest is inherited) |
//! | `cwd = "dir"` | working directory, relative to the crate (default: the crate's folder) |
//! | `timeout = 30` / `"500ms"` | bound on the whole probe (default 30 s) |
//! | `name = "readonly"` | suite name: tests `readonly::tools::…`, snapshots `contract__readonly.…` (see [Snapshot files](#snapshot-files)) |
//! | `fail_on = ["breaking", "safety"]` / `"drift"` | what fails locally (default breaking, safety, review) |
//! | `ci_fail_on = …` | what fails in CI (default `"drift"`) |
//! | `redact = [".serverInfo.version => [version]"]` | replace the values a selector picks (placeholder `[redacted]` without `=>`); see `docs/redactions.md` |
//! | `filters = ["Use '[^']+' as local timezone => Use '[tz]' as local timezone"]` | replace a regex in every string of every item (a filter or redaction that matches nothing in a run says so); see `docs/redactions.md` |
//! | `lints = ["description-missing=deny"]` | lint levels (`deny` fails, `warn` reports, `allow` silences); see `docs/lints.md` |
//! | `read_only = true` | policy: every tool must declare `readOnlyHint: true` |
//! | `forbid = ["deploy", "delete_*"]` | policy: tools (name globs) that must never exist |
//! | `require_annotations = ["readOnlyHint"]` | policy: annotations every tool must state |
//! | `allow = "contract-allow.toml"` | allow-list of accepted lint findings (reason, optional expiry) |
//! | `description_budget = 2048` | longest description before `description-too-long` (default 1024) |
//! | `require_version_bump = true` | a breaking or safety change since the accepted contract fails (`version-bump-missing`) unless the package's version (`CARGO_PKG_VERSION`) has a semver-major bump since then (minor for 0.x); the version is recorded in the `server` snapshot's header when accepted, so a new version is drift of `server` until accepted |
//! | `calls = "tests/calls"` | declared example calls, relative to the crate: each `<tool>/<case>.json` is one `tools/call`, its own test `calls::<tool>::<case>` (feature `calls`; without it the key is a compile error saying so). See [Declared calls](#declared-calls) |
//! | `consumers = "tests/consumers"` | consumers' usage files, relative to the crate: each `<name>.json` is its own test `consumers::<name>` (feature `consumers`; without it the key is a compile error saying so). See [Consumers](#consumers) |
//! | `usage_aware = true` | with `consumers` (without it, a compile error): a breaking change that breaks no consumer passes, marked `(passes: usage_aware, no known consumer)`, except where any drift fails (CI's default); the default stays fail-closed |
//!
//! Whatever the keys, anything shaped like a credential (private keys, JWTs, cloud and SaaS
//! keys, bearer tokens, passwords in URLs) is replaced by `<secret:KIND:HASH8>` before it reaches
//! a snapshot, a report or a log, with one `secret-in-surface` note saying where — in what the
//! server advertises, and in its command line too (`--api-key VALUE`, `TOKEN=…` arguments, secret
//! `env` values echoed in an error); non-spec
//! spellings (`input_schema`, `next_cursor`, …) are recorded under the spec's and reported once
//! (see `docs/redactions.md`). Snapshots written by older builds are compared on what they recorded.
//!
//! Stack the attribute for several suites in one file, e.g. one server under two flag profiles
//! (`examples/tiered-server`, whose run-control tools exist only behind a flag):
//!
//! ```ignore
//! #[mcp_contract_test::mcp_contract(name = "readonly", bin = "tiered-server")]
//! #[mcp_contract_test::mcp_contract(name = "runcontrol", bin = "tiered-server", args = ["--enable-run-control"])]
//! fn main() {}
//! ```
//!
//! Each profile has its own tests (`readonly::tools::list_jobs`) and snapshots
//! (`contract__readonly.tools.list_jobs.snap`); args, env and headers may differ per profile.
//!
//! ## Snapshot files
//!
//! Each item's snapshot is one file in the `snapshots` folder beside the test file, prefixed by
//! the test target's name (`contract`):
//!
//! | item | suite without a name | suite `name = "fs"` |
//! |---|---|---|
//! | server | `contract__server.snap` | `contract__fs.server.snap` |
//! | tool, prompt, resource, template | `contract__tools__export_csv.snap` | `contract__fs.tools.export_csv.snap` |
//! | declared call | `contract__calls__search_notes__by_word.snap` | `contract__fs.calls.search_notes.by_word.snap` |
//!
//! A removed item's accepted tombstone has its item's name; a pending change is the same name
//! with `.new`. A name the server chose is kept when it is plain (`a-z`, `0-9`, `_`, `-`, at most
//! 100 bytes); any other (a URI, capitals, `..`, a separator) becomes a readable prefix and a hash
//! of the exact name (`notes_index-h4f105400d451816a`), so no server string is ever a path.
//!
//! cargo-insta names a snapshot in its lists (`cargo insta accept`, `reject`, `review`) by the
//! header's `source` and what follows the file name's last `__`: `tests/contract.rs
//! (fs.tools.export_csv.snap)`. A test file has at most one suite without a name, and its
//! files keep the names of insta's convention: the list shows the item's name as insta shows an
//! assertion's (`(export_csv.snap)`; a declared call's case, `(by_word.snap)`), and
//! `cargo insta review` shows the whole file name above each diff. A named suite shares its
//! test file with others, so its suite and item are joined by `.`, which no part of a name ever
//! holds.
//!
//! mcp-contract-test 0.1.0 named a named suite's files `contract__fs__tools__export_csv.snap`,
//! listed by cargo-insta as `(export_csv.snap)` for every suite. Such files are the accepted
//! contract still:
//!
//! - a run that may write snapshots (`cargo test` where insta writes: outside CI, or with an
//!   `INSTA_UPDATE` that writes; `mcp-contract snapshot`) renames them first, bytes kept, and
//!   says so once (`renamed 10 snapshot file(s) … commit the renames`; under nextest the
//!   listing process renames them, silently: `git status` shows the renames). A rename changes no
//!   contract, so nothing is offered for review; a pending `.snap.new` under its former name
//!   follows its item (one already pending under the name now, written by this version, wins);
//! - a run that may not (CI, whose `INSTA_UPDATE` is `no`; `mcp-contract check`) reads them
//!   where they are, references them there (`cargo insta test --unreferenced=reject` passes)
//!   and says that a local run renames them. Renaming in CI would leave the committed names
//!   behind the files the tests read, and CI writes nothing;
//! - a rename never replaces a file. An item under both names with the same bytes is a rename
//!   half done (its former file is deleted); with different bytes, every test of the suite fails
//!   with one message naming both files: keep the contract you mean under the name now and
//!   delete the former file. Nothing is renamed or deleted then.
//!
//! A Rust server built on rmcp can skip the process altogether: with
//! `mcp-contract-test = { version = "0.1", features = ["rmcp"] }`,
//!
//! ```ignore
//! #[mcp_contract_test::mcp_contract(handler = my_server::Server::new())]
//! fn main() {}
//! ```
//!
//! builds the handler for each probe and serves it over an in-memory pipe on a current-thread
//! tokio runtime in a background thread (`Suite::in_process`); the probe takes a few
//! milliseconds. Without the feature the error is that `Suite::in_process` does not exist.
//! (rmcp needs Rust 1.88.)
//!
//! ## Cargo features
//!
//! The default build tests stdio servers and is small (15 crates with your own, about 25 s of
//! CPU to build clean: `docs/performance.md`); everything else is opt-in (crates counted by
//! `cargo tree`, on top of the default build's):
//!
//! | feature | adds | costs |
//! |---|---|---|
//! | `http` | Streamable HTTP endpoints: `url = ...`, [`Suite::url`]; keep-alive, redirects, proxies | +9 crates: ureq (no default features) and its parts |
//! | `https` | `https://` endpoints (implies `http`) | +23 crates: those of `http`, rustls, ring, webpki-root-certs |
//! | `system-roots` | `https` trusting the operating system's certificate store too | those of `https`, rustls-native-certs (+ openssl-probe on Linux) |
//! | `rmcp` | in-process rmcp handlers: `handler = ...`, `Suite::in_process` | +58 crates: rmcp, tokio (and the proc-macro crates they need) |
//! | `calls` | declared example calls: `calls = ...`, [`Suite::calls`]; arguments and results checked against the tools' JSON Schemas | +60 crates: jsonschema (no default features: no HTTP, no TLS, no file access) and its dependencies |
//! | `consumers` | consumer contracts: `consumers = ...`, [`Suite::consumers`]; each consumer's usage file its own test | +0 crates: the usage model of mcp-contract-engine (its `consumers` feature), ~1.7 s of CPU |
//!
//! The attribute is sugar over [`Contract`] and [`Suite`]:
//!
//! ```no_run
//! use mcp_contract_test::{Contract, Suite};
//! fn main() -> std::process::ExitCode {
//!     Contract::new(mcp_contract_test::here!())
//!         .suite(Suite::command("python3 my_server.py --stdio"))
//!         .run()
//! }
//! ```
//!
//! # Declared calls
//!
//! The surface is half of a server's promise; the other half is what its tools return. With the
//! `calls` feature a suite can declare example calls, one JSON file each:
//!
//! ```text
//! tests/calls/search_notes/work_notes.json   {"arguments": {"query": "the", "tags": ["work"], "limit": 5}, "description": "Notes about work matching a word: the seeded store has two."}
//! tests/calls/list_notes/recent.json         {"arguments": {"limit": 3}, "description": "The three newest notes."}
//! ```
//!
//! ```ignore
//! #[mcp_contract_test::mcp_contract(bin = "notes-server", calls = "tests/calls")]
//! fn main() {}
//! ```
//!
//! Each case is its own test, `calls::<tool>::<case>`, beside `tools::<tool>`; filters,
//! `--list` and nextest treat it like any other. A case file holds `arguments` (the object sent;
//! `{}` when absent) and optionally:
//!
//! | field | meaning |
//! |---|---|
//! | `"expect": "error"` | the call must fail, either way MCP fails a call: a result with `isError: true`, or a JSON-RPC error |
//! | `"expect": "tool_error"` / `"protocol_error"` | only that way |
//! | `"allow_side_effects": true` | the tool may be called although it does not declare `readOnlyHint: true` |
//! | `"timeout_ms": 5000` | this call's timeout (default: the suite's `timeout`) |
//! | `"description": "…"` | for people; ignored |
//!
//! Anything else (a typo such as `allow_side_effect`) fails the case (`call-case-invalid`) with
//! the file, line and column. The folder is the tool's name; a tool whose name is not a plain
//! folder name (`a/b`, a name with spaces) uses the form snapshot files give it (`a_b-h…`, which
//! a case in a wrong folder's failure names). Case names are lowercase letters, digits, `_` and
//! `-`.
//!
//! After the last listing, in the same session, each case in turn (tool, then case name):
//!
//! 1. **Only what a case declares, only what is safe.** A case whose folder names no listed tool
//!    fails (`call-tool-missing`); a tool that does not declare `readOnlyHint: true` is refused
//!    (`call-refused`) unless the case allows side effects. No other tool is ever called.
//! 2. **The arguments against the live `inputSchema`.** A case the schema rejects fails with
//!    each argument's JSON pointer, the keyword and the value (`call-arguments-invalid`): the
//!    input contract changed under it. The call is not made.
//! 3. **The call**, with its timeout (`call-no-answer` when none comes).
//! 4. **The answer against what the case expects**: an error where a result was expected fails
//!    with the server's message (`call-unexpected-error`), a result where an error was expected
//!    too (`call-expected-error`).
//! 5. **`structuredContent` against the `outputSchema`**, when the tool declares one: a
//!    violation fails with the JSON pointer, the keyword, the schema path and the offending
//!    value, escaped (`call-output-invalid`); so does a missing `structuredContent`. Schemas are
//!    read as JSON Schema 2020-12 unless their `$schema` names draft 4, 6, 7 or 2019-09;
//!    `$ref` inside the schema is followed, nothing is ever fetched.
//! 6. **The result against its accepted snapshot**, `<module>__calls__<tool>__<case>.snap`
//!    (`<module>__<suite>.calls.<tool>.<case>.snap` in a named suite): the
//!    result's `content`, `structuredContent` and `isError` (a JSON-RPC error's code, message
//!    and data for a case that expects one), after the suite's redactions and filters, with
//!    credentials replaced. The engine judges a difference by its shape first (types and fields
//!    present, compared with the output schema rules: a field gone or retyped is breaking, a new
//!    field additive) and then by its values (`call-result-changed`, behavior: drift that
//!    `fail_on` and CI settings govern like any other). Review and accept with `cargo insta
//!    review` as for items.
//!
//! What steps 1 to 5 find are findings of the lint catalogue at level deny: they fail the test
//! whatever its snapshot says (even under `INSTA_FORCE_PASS`), and a suite may lower one
//! (`lints = ["call-output-invalid=warn"]`); the allow-list does not apply to them. A call that
//! was not made or got no answer records nothing and leaves its accepted snapshot as it is.
//!
//! **One session.** Calls run in the suite's own session, after the listings, rather than in a
//! fresh session per case: they reach the server the listings describe, for the price of one
//! start (a Node server takes half a second to start), and a read-only call leaves nothing for
//! the next one to see. Cases run in a fixed order, so even one allowed side effects meets the
//! same state on every run. Under nextest the calls are part of the run's one probe: each call
//! is made once per run, and each `calls::…` test process reads its own verdict.
//!
//! # Consumers
//!
//! A consumer's usage file says what one agent or client really uses of the server: the tools it
//! calls with the argument sets it sends, the result fields it reads, the prompts, resources and
//! templates it uses. `mcp-contract record --out tests/consumers/nightly.json -- <server command>`
//! records it between the consumer and the server (or a consumer team writes it by hand;
//! `docs/usage.schema.json`). With the `consumers` feature and `consumers = "tests/consumers"`
//! ([`Suite::consumers`]) each
//! file there is its own test, `consumers::<name>`: it fails when the live server no longer
//! serves what that consumer uses (the `consumer-…` rules of docs/rules.md), naming the item, the
//! path and the rule, and passes when the server breaks something the consumer never used.
//! Nothing is written for a consumer: its usage file is its contract, so accepting a release
//! never makes a consumer it breaks pass. Each breaking change of an item says whom it breaks
//! (``[breaks consumers: `nightly`]``) or that no known consumer uses it. The notes server's
//! `examples/notes-server/tests/consumers/nightly.json` is a recorded example.
//!
//! # Environment
//!
//! | variable | effect |
//! |---|---|
//! | `INSTA_UPDATE` | `auto` (default: `.snap.new` locally, nothing in CI), `always`, `new`, `unseen`, `no`, `force` — as insta |
//! | `INSTA_FORCE_UPDATE=1` (or `INSTA_FORCE_UPDATE_SNAPSHOTS=1`) | as `INSTA_UPDATE=force` (insta's older spelling) |
//! | `INSTA_FORCE_PASS=1` | differences never fail (the pending files are still written); set by `cargo insta test` |
//! | `INSTA_REQUIRE_FULL_MATCH=1` | a snapshot matches only if its header matches too, not just its contents — as insta |
//! | `CI`, `TF_BUILD` | CI detection as insta does it (`CI` set to anything but `false`, `0` or empty; when `CI` is unset, `TF_BUILD`, as Azure Pipelines sets it): any drift fails and nothing is written |
//! | `INSTA_SNAPSHOT_REFERENCES_FILE` | every referenced `.snap` path is appended (for `cargo insta test --unreferenced`) |
//! | `INSTA_WORKSPACE_ROOT` | overrides workspace detection |
//! | `MCP_CONTRACT_FAIL_ON` | overrides what fails, in CI and outside it: `drift`, or classes such as `breaking,safety` (the CLI reads it too; its `--fail-on` wins) |
//! | `MCP_CONTRACT_TIMEOUT` | overrides the probe timeout, in seconds (the CLI reads it too) |
//! | `MCP_CONTRACT_CA_FILE` | a PEM file of CA certificates trusted by `https://` probes, when the suite names no `ca_file` |
//! | `https_proxy`, `http_proxy`, `all_proxy`, `no_proxy` (or uppercase; lowercase wins) | the HTTP proxy of `https://` and `http://` URLs, the fallback for both, and the hosts reached directly (`example.com` matches its subdomains too; IPs, CIDR ranges, `:PORT`, `*`); loopback hosts never go through them; a suite's `proxy` wins |
//! | `NEXTEST`, `NEXTEST_RUN_ID` | set by cargo-nextest: the processes of one run share one probe and one judgement (see [Under nextest](#under-nextest)) |
//! | `NO_COLOR`, `CLICOLOR`, `CLICOLOR_FORCE`, `TERM` | the test runner's colours, as libtest decides them (`--color` wins) |
//!
//! `insta.yaml` (`behavior.update` or the older `behavior.force_update`, `behavior.force_pass`,
//! `behavior.require_full_match`) is honoured as insta honours it.
//!
//! # Under nextest
//!
//! `cargo nextest run` starts each test in its own process; the processes of one run share a
//! single probe of the server and a single judgement of the suite: the first process that
//! needs a verdict judges every item, the others read their own item's verdict. Both are kept
//! in `target/<profile>/mcp-contract-probes/<run>/`, hold only prepared content (credentials
//! replaced by their placeholders), and are keyed by everything the judgement depends on,
//! the state of the accepted snapshots included: an edited snapshot folder is judged again.
//! The keys are hashes of the data itself — a URL's query string, header values, arguments,
//! environment — never shown, and each file records its key: two suites that differ only in
//! `?profile=admin` and `?profile=readonly` never share a probe.
//! Each `--partition` slice is a run of its own.
//!
//! nextest shows no output of a passing test, and a run with additive drift, a first
//! recording or a `warn` lint finding passes. So, under nextest only, a suite that leaves
//! something to look at has one more test, whose name says what:
//! `review::1 item differs`, `review::10 items recorded for the first time, 1 lint warning (text-poisoning)`
//! (after the suite's name, when it has one). An in-process suite (`handler = …`), whose probe
//! is not shared, is judged whole in the two processes that need the whole suite, the listing
//! (which names the test) and the review test's own (a few milliseconds each); each of its
//! other tests' processes judges its own item. It passes; it is in nextest's default output, and
//! `cargo nextest run --success-output immediate -E 'test(/review::/)'` prints the items, the
//! findings and the notes. `cargo insta review` then shows the pending snapshots as always.
//! Under `cargo test` there is no such test: the summary printed after libtest's result says
//! the same, warnings included.
//!
//! Why a test of its own: a test's name is the one thing nextest shows of a passing run.
//! Failing the run instead would turn additive drift into a failure for nextest users only;
//! `cargo insta test --test-runner nextest` lists pending snapshots, but only to those who
//! run it, and a `warn` finding leaves no snapshot to list. Notes alone (a capability the
//! server does not advertise) add no test: one that stood in every run would soon be read
//! past.
//!
//! # What a run remembers
//!
//! A suite is judged run after run against the same accepted snapshots, and most items do not
//! change. After judging every item, a run keeps a memo of its unchanged items in
//! `target/<profile>/mcp-contract-memo/` (one file per suite; `cargo clean` removes it): per
//! item, keyed digests of the text the server sent and of the accepted snapshot it matched,
//! and the lint findings, secrets and spellings judging found — never the texts themselves,
//! nor a secret. The next run skips judging an item whose two texts have those very digests
//! and takes its verdict from the snapshot and the memo: at 10,000 tools an everyday run
//! judges in about a quarter of the time. Anything else is judged in full: another text, an edited or
//! replaced snapshot, another setting (redactions, filters, lints, the allow-list), another
//! day, a rebuilt test binary, a memo that is damaged or was written under other settings.
//! The `mcp-contract` CLI keeps no memo.
//!
//! # Stopping the server
//!
//! Once the last listing is read, the server's stdin is closed and the suite goes on: it is
//! judged, written and its tests run while the server exits. A server still running when the
//! test binary ends gets SIGTERM to its process group, then SIGKILL after a second: nothing it
//! started outlives the run.
//!
//! # Where things live
//!
//! This crate is the harness, the probe and the snapshot files; the judgement itself is the
//! pure [`mcp-contract-engine`](https://docs.rs/mcp-contract-engine) crate, and the
//! `mcp-contract` CLI is a front end of the same code. `docs/architecture.md` in the
//! repository has the map.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use mcp_contract_engine::{
    change, diff, escape, lint, ordered, parallel, prepare, surface, version,
};

mod action;
mod calls;
mod check;
mod config;
#[cfg(feature = "consumers")]
mod consumers;
// Without the feature no suite can name consumers: the same types, with no value.
#[cfg(not(feature = "consumers"))]
#[path = "consumers/off.rs"]
mod consumers;
mod env;
mod error;
mod harness;
mod libtest;
mod probe;
mod probe_cache;
mod run;
mod snapshot;
mod suite;
mod summary;
mod verdict;

pub use check::FailOn;
pub use error::ConfigError;
pub use harness::{Contract, Location};
pub use mcp_contract_engine::lint::Level;
pub use mcp_contract_engine::{Class, Policy};
pub use probe::{HeaderValue, Lifecycle, ProxySetting};
pub use suite::Suite;

/// What the `mcp-contract` CLI, the benchmarks and this crate's own tests need beyond the
/// public API: the one road, the probe and the snapshot files, each item named. Not part of
/// the public API and not covered by semver (as insta's `_cargo_insta_support`); users need
/// none of it.
#[doc(hidden)]
pub mod _support {
    /// The one road from a suite's configuration to its outcome, and for two recordings.
    pub mod run {
        pub use crate::run::{
            accept, compare, judge_probe, probe, run, Acceptance, ComparedItem, Comparing,
            Comparison, Context, FailureKind, Mode, Recorded, Refusal, SuiteFailure, SuiteOutcome,
        };
    }
    /// What a face does with each item of a suite's outcome.
    pub mod action {
        pub use crate::action::{Conclusion, ItemAction, Showing, SuiteActions, Write};
    }
    /// Judging a live surface against accepted snapshots (the road's one judgement), as data.
    pub mod check {
        pub use crate::check::{
            accepted_surface, evaluate, prepare_for_sharing, probe_and_load, Accepting, DigestKey,
            FailOn, Judging, Layout, Memo, ReleaseVersion, State, SuiteReport, Verdict,
            VersionSource, DEFAULT_PROGRAM,
        };
    }
    /// What the processes of a run share, and what runs remember of a suite's unchanged items.
    pub mod probe_cache {
        pub use crate::probe_cache::MemoFile;
    }
    /// What one suite says, from either face.
    pub mod config {
        pub use crate::config::{timeout_from_secs, SuiteConfig};
    }
    /// Starting servers and reading their surface.
    pub mod probe {
        pub use crate::probe::{
            defer_stops, probe, probe_session, probe_stdio, split_command_line, Answer, Handshake,
            HeaderValue, HttpEndpoint, InProcess, Lifecycle, Message, Phase, Probe, ProbeError,
            ProbeErrorKind, ProbeOptions, ProxySetting, ServerCommand, ServerSession, ServerSpec,
            Transport, TransportError,
        };
    }
    /// insta-format snapshot files.
    pub mod snapshot {
        pub use crate::snapshot::{
            add_reference, contents_match, file_name, load_dir, normalize_contents, parse_item,
            pending_path, read_head_at, record, rename_former, render_item, safe_component,
            suite_of_file, write_atomic, Accepted, ErrorKind, FormerNames, Metadata, Settings,
            SnapshotError, SnapshotFile, UpdateMode, Written,
        };
    }
    /// How verdicts and changes read, for the CLI's reports.
    pub mod summary {
        pub use crate::summary::{
            change_detail, change_line, change_summary, compact, compact_pair, counts_line,
            counts_line_of, finding_counts, findings_line, findings_summary,
        };
    }
    /// Declared calls: case files, making the calls, judging their results.
    #[cfg(feature = "calls")]
    pub mod calls {
        pub use crate::calls::{
            folder_of, judge, make_calls, read_cases, CallRecord, Calling, Cases,
        };
    }
    /// The libtest-compatible runner (the engine's catalogue tests run one trial per rule).
    pub mod libtest {
        pub use crate::libtest::{run, Arguments, Conclusion, Failed, Trial};
    }
}

pub use mcp_contract_macros::mcp_contract;

/// What the attribute's expansion calls besides the public API (`headers = [..]`, whose values
/// are parsed at run time). Not public API: the attribute is.
#[doc(hidden)]
pub mod __macro {
    use crate::Suite;

    /// Adds a header written `"Name: value"` (the attribute's `headers = [..]`).
    pub fn header_line(suite: Suite, line: &str) -> Suite {
        suite.header_line(line)
    }
}
