//! The raw floor: the least any MCP client can do to read a server's tools over stdio.
//!
//! Starts the server, sends `initialize`, `notifications/initialized` and `tools/list`, and exits
//! as soon as the `tools/list` answer has been read — it does not wait for the server to exit
//! (the server sees its stdin close when this process ends). No tool can be faster than this;
//! `docs/performance.md` measures the contract suite against it.
//!
//! ```sh
//! cargo build --release -p mcp-contract-test --example raw_floor
//! target/release/examples/raw_floor node scripts/perf/node/node_modules/@modelcontextprotocol/server-memory/dist/index.js
//! ```
//!
//! Prints the number of tools; exits 1 on any failure (with a message on stderr), after at most
//! 30 seconds.
#![forbid(unsafe_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn main() -> ExitCode {
    let mut words = std::env::args().skip(1);
    let Some(program) = words.next() else {
        eprintln!("usage: raw_floor <server program> [args…]");
        return ExitCode::from(2);
    };
    let mut child = match Command::new(&program)
        .args(words)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(error) => {
            eprintln!("raw_floor: cannot start {program}: {error}");
            return ExitCode::from(1);
        }
    };
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        eprintln!("raw_floor: no pipes");
        return ExitCode::from(1);
    };
    // The reading happens on a thread so that the whole exchange has a time limit.
    let (done, outcome) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(exchange(&mut stdin, stdout));
        // Keep stdin open until the process exits: the answer is in, nothing else is waited for.
        std::thread::sleep(Duration::from_secs(3600));
        drop(stdin);
    });
    match outcome.recv_timeout(Duration::from_secs(30)) {
        Ok(Ok(tools)) => {
            println!("{tools} tools");
            ExitCode::SUCCESS
        }
        Ok(Err(error)) => {
            eprintln!("raw_floor: {error}");
            ExitCode::from(1)
        }
        Err(_) => {
            eprintln!("raw_floor: no tools/list answer within 30 s");
            let _ = child.kill();
            ExitCode::from(1)
        }
    }
}

/// Initialize, then tools/list; the number of tools in the first page.
fn exchange(
    stdin: &mut std::process::ChildStdin,
    stdout: std::process::ChildStdout,
) -> Result<usize, String> {
    let mut lines = BufReader::new(stdout).lines();
    let mut answer = |id: u64| -> Result<Value, String> {
        for line in lines.by_ref() {
            let line = line.map_err(|e| format!("reading stdout: {e}"))?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id").and_then(Value::as_u64) == Some(id) {
                return message
                    .get("result")
                    .cloned()
                    .ok_or_else(|| format!("request {id} failed: {line}"));
            }
        }
        Err("the server closed stdout".to_owned())
    };
    let mut send = |text: &str| -> Result<(), String> {
        stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("writing stdin: {e}"))
    };
    send(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw_floor","version":"0"}}}"#,
    )?;
    answer(1)?;
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
    send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)?;
    let tools = answer(2)?;
    Ok(tools
        .get("tools")
        .and_then(Value::as_array)
        .map_or(0, Vec::len))
}
