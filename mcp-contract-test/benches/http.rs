//! A 10-page `tools/list` over Streamable HTTP (issue 18): the whole probe (initialize, the
//! initialized notification, ten pages, DELETE) against a minimal HTTP/1.1 server in this
//! process, with the connection kept alive and with the server closing it after every answer
//! (what the hand-written client before ureq did: `Connection: close`, one TCP connection per
//! request). The floor is the same thirteen exchanges written by hand on one raw kept-alive
//! socket: the server's and loopback's own cost, which no client can go below.
//!
//! `cargo bench -p mcp-contract-test --features http --bench http`

use mcp_contract_test::_support::probe::{probe, HttpEndpoint, ProbeOptions, ServerSpec};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;

fn main() {
    divan::main();
}

/// Pages of `tools/list`.
const PAGES: usize = 10;
/// Tools on one page.
const PER_PAGE: usize = 5;

/// Starts the server on a free port; returns the port. `keep_alive: false` answers every request
/// with `Connection: close` and closes.
fn serve(keep_alive: bool) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || connection(stream, keep_alive));
        }
    });
    port
}

/// Serves one connection: requests read by their Content-Length, answered with JSON.
fn connection(stream: TcpStream, keep_alive: bool) {
    let _ = stream.set_nodelay(true);
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    loop {
        let mut length = 0;
        let mut method = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            if method.is_empty() {
                method = line.split(' ').next().unwrap_or("").to_owned();
            }
            if line == "\r\n" {
                break;
            }
            if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let (status, answer) = if method == "DELETE" {
            ("200 OK", String::new())
        } else {
            answer(&body)
        };
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
             Mcp-Session-Id: bench-session\r\n{}\r\n",
            answer.len(),
            if keep_alive {
                ""
            } else {
                "Connection: close\r\n"
            }
        );
        if writer
            .write_all(head.as_bytes())
            .and_then(|()| writer.write_all(answer.as_bytes()))
            .is_err()
            || !keep_alive
        {
            return;
        }
    }
}

/// The JSON-RPC answer to one POSTed message.
fn answer(body: &[u8]) -> (&'static str, String) {
    let message: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let Some(id) = message.get("id").cloned() else {
        return ("202 Accepted", String::new());
    };
    let result = match message["method"].as_str() {
        Some("initialize") => json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "bench", "version": "1"},
        }),
        Some("tools/list") => {
            let page: usize = message["params"]["cursor"]
                .as_str()
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            let tools: Vec<Value> = (0..PER_PAGE)
                .map(|i| {
                    json!({
                        "name": format!("tool_{page}_{i}"),
                        "description": "Searches things.",
                        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
                    })
                })
                .collect();
            let mut result = json!({ "tools": tools });
            if page + 1 < PAGES {
                result["nextCursor"] = json!((page + 1).to_string());
            }
            result
        }
        _ => json!({}),
    };
    (
        "200 OK",
        json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
    )
}

fn listing(port: u16) {
    let endpoint = HttpEndpoint::new(format!("http://127.0.0.1:{port}/mcp"));
    let probe = probe(&ServerSpec::Http(endpoint), &ProbeOptions::default()).unwrap();
    assert_eq!(probe.surface.len(), PAGES * PER_PAGE + 1);
}

#[divan::bench]
fn kept_alive(bencher: divan::Bencher) {
    let port = serve(true);
    bencher.bench(|| listing(port));
}

#[divan::bench]
fn connection_per_request(bencher: divan::Bencher) {
    let port = serve(false);
    bencher.bench(|| listing(port));
}

/// The same thirteen exchanges on one raw socket, with nothing parsed but the length.
#[divan::bench]
fn floor(bencher: divan::Bencher) {
    let port = serve(true);
    let mut requests = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for page in 0..PAGES {
        let params = if page == 0 {
            json!({})
        } else {
            json!({"cursor": page.to_string()})
        };
        requests.push(
            json!({"jsonrpc": "2.0", "id": page + 1, "method": "tools/list", "params": params}),
        );
    }
    let requests: Vec<String> = requests.iter().map(Value::to_string).collect();
    bencher.bench(|| {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let _ = stream.set_nodelay(true);
        let mut writer = stream.try_clone().unwrap();
        let mut reader = BufReader::new(stream);
        let mut exchange = |method: &str, body: &str| {
            write!(
                writer,
                "{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            let mut length = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line == "\r\n" {
                    break;
                }
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().unwrap();
                }
            }
            let mut answer = vec![0; length];
            reader.read_exact(&mut answer).unwrap();
            answer
        };
        for body in &requests {
            divan::black_box(exchange("POST", body));
        }
        divan::black_box(exchange("DELETE", ""));
    });
}
