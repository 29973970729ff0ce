//! `mcp-contract serve`: a recorded surface served over stdio as a stand-in server, so agent and
//! client developers can test against a server's contract without the server.
//!
//! Answers `initialize` (with the recorded protocol version, server info, capabilities and
//! instructions), `ping`, and the four `*/list` methods, paginated 50 items a page with opaque
//! cursors. `tools/call`, `prompts/get` and `resources/read` answer an error saying this is a
//! recorded contract; every other request gets -32601. Notifications are ignored. It stops when
//! stdin closes.

use mcp_contract_engine::surface::{ItemKind, Surface};
use serde_json::{json, Map, Value};
use std::io::{BufRead, Write};

/// Items per page of a listing.
pub const PAGE_SIZE: usize = 50;

/// What `initialize` answers and the listings hold.
pub struct Served {
    server: Map<String, Value>,
    lists: Vec<(&'static str, &'static str, Vec<Value>)>,
}

impl Served {
    /// Prepares a surface for serving.
    pub fn new(surface: &Surface) -> Served {
        let server = surface
            .get(&mcp_contract_engine::ItemKey::server())
            .and_then(|server| match server.into_owned() {
                Value::Object(server) => Some(server),
                _ => None,
            })
            .unwrap_or_default();
        let methods = [
            (ItemKind::Tool, "tools/list"),
            (ItemKind::Prompt, "prompts/list"),
            (ItemKind::Resource, "resources/list"),
            (ItemKind::ResourceTemplate, "resources/templates/list"),
        ];
        // The listings exactly as recorded: repeated names included (the `name-duplicate` lint
        // must find in the stand-in what it found in the server).
        let mut document = surface.to_json();
        let lists = methods
            .into_iter()
            .filter_map(|(kind, method)| {
                let key = kind.list_key()?;
                let items = match document.get_mut(key).map(Value::take) {
                    Some(Value::Array(items)) => items,
                    _ => Vec::new(),
                };
                Some((method, key, items))
            })
            .collect();
        Served { server, lists }
    }

    fn initialize(&self, params: Option<&Value>) -> Value {
        let mut result = self.server.clone();
        if !result.contains_key("protocolVersion") {
            let asked = params
                .and_then(|p| p.get("protocolVersion"))
                .cloned()
                .unwrap_or_else(|| json!("2025-06-18"));
            result.insert("protocolVersion".into(), asked);
        }
        if !result.contains_key("capabilities") {
            let mut caps = Map::new();
            for (_, key, items) in &self.lists {
                if !items.is_empty() {
                    let cap = if *key == "resourceTemplates" {
                        "resources"
                    } else {
                        key
                    };
                    caps.insert(cap.to_owned(), json!({}));
                }
            }
            result.insert("capabilities".into(), Value::Object(caps));
        }
        if !result.contains_key("serverInfo") {
            result.insert(
                "serverInfo".into(),
                json!({ "name": "mcp-contract-serve", "version": env!("CARGO_PKG_VERSION") }),
            );
        }
        Value::Object(result)
    }

    /// The answer to one request (`None` for a notification).
    pub fn answer(&self, message: &Value) -> Option<Value> {
        let id = message.get("id")?.clone();
        let method = message.get("method").and_then(Value::as_str);
        let params = message.get("params");
        let outcome: Result<Value, (i64, String)> = match method {
            None => return None, // a response to nothing we asked
            Some("initialize") => Ok(self.initialize(params)),
            Some("ping") => Ok(json!({})),
            Some(m @ ("tools/call" | "prompts/get" | "resources/read")) => Err((
                -32601,
                format!(
                    "{m} is not available: this is `{} serve`, a recorded contract of the server that lists what it advertises but runs nothing",
                    crate::program()
                ),
            )),
            Some(method) => match self.lists.iter().find(|(m, _, _)| *m == method) {
                Some((_, key, items)) => page(key, items, params),
                None => Err((-32601, "method not found".to_owned())),
            },
        };
        Some(match outcome {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
            Err((code, message)) => {
                json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
            }
        })
    }
}

fn page(key: &str, items: &[Value], params: Option<&Value>) -> Result<Value, (i64, String)> {
    let start = match params.and_then(|p| p.get("cursor")) {
        None | Some(Value::Null) => 0,
        Some(Value::String(cursor)) => cursor
            .strip_prefix("mcp-contract-page-")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|n| *n < items.len() && n % PAGE_SIZE == 0)
            .ok_or((-32602, "invalid cursor".to_owned()))?,
        Some(_) => return Err((-32602, "invalid cursor: not a string".to_owned())),
    };
    let end = (start + PAGE_SIZE).min(items.len());
    let mut result = Map::new();
    result.insert(key.to_owned(), Value::Array(items[start..end].to_vec()));
    if end < items.len() {
        result.insert(
            "nextCursor".into(),
            json!(format!("mcp-contract-page-{end}")),
        );
    }
    Ok(Value::Object(result))
}

/// Serves on stdin/stdout until stdin closes. Lines that are not JSON get a parse error.
pub fn run(served: &Served) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answers: Vec<Value> = match serde_json::from_str::<Value>(&line) {
            Ok(Value::Array(batch)) => batch.iter().filter_map(|m| served.answer(m)).collect(),
            Ok(message) => served.answer(&message).into_iter().collect(),
            Err(_) => vec![json!({
                "jsonrpc": "2.0", "id": null,
                "error": { "code": -32700, "message": "parse error" }
            })],
        };
        for answer in answers {
            writeln!(stdout, "{answer}")?;
        }
        stdout.flush()?;
    }
    Ok(())
}
