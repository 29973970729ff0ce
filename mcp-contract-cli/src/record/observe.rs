//! What the consumer uses, read from copies of the messages: each request of the consumer
//! paired with the server's answer to it, and what the answer says noted in the usage (only
//! what was answered with a result: a call the server refused was not served).
//!
//! The recorder notes what the server promised: a tool, prompt, resource or template it listed
//! (when the consumer listed them through the recorder; items used without a listing seen are
//! noted as used), and of a tool's `structuredContent` the fields its listed `outputSchema`
//! promises. Whatever else the consumer used is said on stderr when the recording ends: no
//! contract covers it.
//!
//! The observer runs on a thread of its own ([`Recording`]), fed over a channel, so that
//! forwarding never waits for a message to be read.

use super::file::UsageFile;
use mcp_contract_engine::consumer::{UriTemplate, Usage};
use mcp_contract_engine::escape::escape;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::mpsc::{self, Sender};
use std::sync::Mutex;
use std::thread::JoinHandle;

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// From the consumer to the server.
    Client,
    /// From the server to the consumer.
    Server,
}

/// One JSON-RPC message's members, its `result` unparsed (a listing may be megabytes).
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    params: Option<Value>,
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
}

/// A request of the consumer waiting for its answer.
enum Pending {
    Initialize,
    ListTools,
    ListPrompts,
    ListResources,
    ListTemplates,
    Call {
        tool: String,
        arguments: Option<Value>,
    },
    Prompt {
        name: String,
        arguments: Vec<String>,
    },
    Read {
        uri: String,
    },
}

/// A listed tool, as far as the recorder reads it.
#[derive(Deserialize)]
struct ListedTool {
    name: String,
    #[serde(default, rename = "outputSchema")]
    output_schema: Option<Value>,
}

/// What the consumer used in this recording.
pub(super) struct Observer {
    usage: Usage,
    values: bool,
    /// Requests of the consumer by scope (an HTTP exchange; 0 over stdio) and id.
    pending: HashMap<(u64, String), Pending>,
    /// What the server listed, once the consumer listed it (by name: its outputSchema).
    tools: Option<BTreeMap<String, Option<Value>>>,
    prompts: Option<BTreeSet<String>>,
    resources: Option<BTreeSet<String>>,
    templates: Option<BTreeMap<String, UriTemplate>>,
    /// Used, but not listed by the server: by kind, the names.
    unlisted: BTreeMap<&'static str, BTreeSet<String>>,
    /// Fields received that the outputSchema did not promise (or no outputSchema was seen),
    /// by tool: how many.
    unpromised: BTreeMap<String, usize>,
    /// Tools whose results were read without a listing of tools seen.
    unknown_schema: BTreeSet<String>,
    /// Messages that could not be read as JSON-RPC.
    unreadable: usize,
}

impl Observer {
    /// An observer of the consumer `consumer`; `values`: note argument values too.
    pub(super) fn new(consumer: &str, values: bool) -> Observer {
        Observer {
            usage: Usage::new(consumer),
            values,
            pending: HashMap::new(),
            tools: None,
            prompts: None,
            resources: None,
            templates: None,
            unlisted: BTreeMap::new(),
            unpromised: BTreeMap::new(),
            unknown_schema: BTreeSet::new(),
            unreadable: 0,
        }
    }

    /// What the consumer used so far.
    pub(super) fn usage(&self) -> &Usage {
        &self.usage
    }

    /// Reads one message (or batch) that went `side`, in `scope`; whether the usage grew.
    pub(super) fn message(&mut self, side: Side, scope: u64, text: &str) -> bool {
        let text = text.trim();
        if text.is_empty() {
            return false;
        }
        let parsed: Result<Vec<Envelope<'_>>, _> = if text.starts_with('[') {
            serde_json::from_str::<Vec<&RawValue>>(text).and_then(|batch| {
                batch
                    .into_iter()
                    .map(|raw| serde_json::from_str(raw.get()))
                    .collect()
            })
        } else {
            serde_json::from_str(text).map(|one| vec![one])
        };
        let Ok(messages) = parsed else {
            self.unreadable += 1;
            return false;
        };
        let mut changed = false;
        for message in messages {
            changed |= match side {
                Side::Client => self.request(scope, message),
                Side::Server => self.answer(scope, message),
            };
        }
        changed
    }

    fn request(&mut self, scope: u64, message: Envelope<'_>) -> bool {
        let (Some(id), Some(method)) = (message.id, message.method) else {
            return false;
        };
        let params = message.params.unwrap_or(Value::Null);
        let text = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_owned);
        // A client noted at initialize is new usage too.
        let mut changed = false;
        let pending = match method.as_str() {
            "initialize" => {
                let info = params.get("clientInfo");
                let name = info.and_then(|i| i.get("name")).and_then(Value::as_str);
                let version = info.and_then(|i| i.get("version")).and_then(Value::as_str);
                if let Some(name) = name {
                    changed = self.usage.record_client(name, version);
                }
                Pending::Initialize
            }
            "tools/list" => Pending::ListTools,
            "prompts/list" => Pending::ListPrompts,
            "resources/list" => Pending::ListResources,
            "resources/templates/list" => Pending::ListTemplates,
            "tools/call" => match text("name") {
                Some(tool) => Pending::Call {
                    tool,
                    arguments: params.get("arguments").cloned(),
                },
                None => return false,
            },
            "prompts/get" => match text("name") {
                Some(name) => Pending::Prompt {
                    name,
                    arguments: params
                        .get("arguments")
                        .and_then(Value::as_object)
                        .map(|a| a.keys().cloned().collect())
                        .unwrap_or_default(),
                },
                None => return false,
            },
            "resources/read" => match text("uri") {
                Some(uri) => Pending::Read { uri },
                None => return false,
            },
            _ => return false,
        };
        self.pending.insert((scope, id_key(&id)), pending);
        changed
    }

    fn answer(&mut self, scope: u64, message: Envelope<'_>) -> bool {
        if message.method.is_some() {
            return false;
        }
        let Some(id) = message.id else {
            return false;
        };
        let Some(pending) = self.pending.remove(&(scope, id_key(&id))) else {
            return false;
        };
        // An error answer served nothing.
        let Some(result) = message.result else {
            return false;
        };
        match pending {
            Pending::Initialize => false,
            Pending::ListTools => {
                #[derive(Deserialize)]
                struct Page {
                    #[serde(default)]
                    tools: Vec<ListedTool>,
                }
                if let Ok(page) = serde_json::from_str::<Page>(result.get()) {
                    let tools = self.tools.get_or_insert_with(BTreeMap::new);
                    for tool in page.tools {
                        tools.insert(tool.name, tool.output_schema);
                    }
                }
                false
            }
            Pending::ListPrompts => {
                let names = listed_names(result, "prompts", "name");
                self.prompts.get_or_insert_with(BTreeSet::new).extend(names);
                false
            }
            Pending::ListResources => {
                let uris = listed_names(result, "resources", "uri");
                self.resources
                    .get_or_insert_with(BTreeSet::new)
                    .extend(uris);
                false
            }
            Pending::ListTemplates => {
                let templates = listed_names(result, "resourceTemplates", "uriTemplate");
                let known = self.templates.get_or_insert_with(BTreeMap::new);
                for template in templates {
                    let matcher = UriTemplate::new(&template);
                    known.insert(template, matcher);
                }
                false
            }
            Pending::Call { tool, arguments } => self.called(&tool, arguments.as_ref(), result),
            Pending::Prompt { name, arguments } => {
                if self
                    .prompts
                    .as_ref()
                    .is_some_and(|listed| !listed.contains(&name))
                {
                    self.unlisted("prompt", &name);
                    return false;
                }
                self.usage
                    .record_prompt(&name, arguments.iter().map(String::as_str))
            }
            Pending::Read { uri } => {
                if self.resources.as_ref().is_some_and(|r| r.contains(&uri)) {
                    return self.usage.record_resource(&uri);
                }
                let template = self.templates.as_ref().and_then(|templates| {
                    templates
                        .iter()
                        .find(|(_, matcher)| matcher.matches(&uri))
                        .map(|(t, _)| t.clone())
                });
                match template {
                    Some(template) => self.usage.record_template(&template),
                    // Nothing listed to tell: the resource as read.
                    None if self.resources.is_none() => self.usage.record_resource(&uri),
                    None => {
                        self.unlisted("resource", &uri);
                        false
                    }
                }
            }
        }
    }

    fn called(&mut self, tool: &str, arguments: Option<&Value>, result: &RawValue) -> bool {
        let listed = match &self.tools {
            Some(tools) => match tools.get(tool) {
                Some(schema) => Some(schema.clone()),
                None => {
                    self.unlisted("tool", tool);
                    return false;
                }
            },
            None => None,
        };
        let mut changed = self.usage.record_call(tool, arguments, self.values);
        #[derive(Deserialize)]
        struct Structured {
            #[serde(default, rename = "structuredContent")]
            structured: Option<Value>,
        }
        let Some(structured) = serde_json::from_str::<Structured>(result.get())
            .ok()
            .and_then(|r| r.structured)
        else {
            return changed;
        };
        match listed {
            None => {
                self.unknown_schema.insert(tool.to_owned());
            }
            Some(None) => *self.unpromised.entry(tool.to_owned()).or_default() += 1,
            Some(Some(schema)) => {
                let (grew, unpromised) = self.usage.record_received(tool, &schema, &structured);
                changed |= grew;
                if unpromised > 0 {
                    *self.unpromised.entry(tool.to_owned()).or_default() += unpromised;
                }
            }
        }
        changed
    }

    fn unlisted(&mut self, kind: &'static str, name: &str) {
        self.unlisted
            .entry(kind)
            .or_default()
            .insert(name.to_owned());
    }

    /// What the consumer used that no contract covers, for stderr at the end.
    pub(super) fn remarks(&self) -> Vec<String> {
        let names = |set: &BTreeSet<String>| {
            set.iter()
                .map(|n| format!("`{}`", escape(n)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut out = Vec::new();
        for (kind, used) in &self.unlisted {
            out.push(format!(
                "the consumer used the {kind}(s) {} that the server did not list: not recorded",
                names(used)
            ));
        }
        if !self.unpromised.is_empty() {
            let tools: BTreeSet<String> = self.unpromised.keys().cloned().collect();
            out.push(format!(
                "the consumer received structuredContent fields of {} that the outputSchema does not promise (declared and required): not recorded",
                names(&tools)
            ));
        }
        if !self.unknown_schema.is_empty() {
            out.push(format!(
                "the consumer read results of {} without listing the tools through the recorder: the fields it received were not recorded",
                names(&self.unknown_schema)
            ));
        }
        if self.unreadable > 0 {
            out.push(format!(
                "{} message(s) were not JSON-RPC: passed on, not read",
                self.unreadable
            ));
        }
        out
    }
}

/// An id as a key: `1` and `"1"` are different ids.
fn id_key(id: &Value) -> String {
    id.to_string()
}

/// The names (`field`) of the items of a listing page's `list`.
fn listed_names(result: &RawValue, list: &str, field: &str) -> Vec<String> {
    let Ok(Value::Object(page)) = serde_json::from_str::<Value>(result.get()) else {
        return Vec::new();
    };
    page.get(list)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item.get(field)?.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// What reaches the observer's thread.
enum Work {
    Message(Side, u64, Vec<u8>),
    /// Lines too long to read were skipped.
    Skipped(usize),
    Finish,
}

/// The observer on a thread of its own, keeping the usage file up to date.
pub(super) struct Recording {
    sender: Mutex<Sender<Work>>,
    thread: Mutex<Option<JoinHandle<Saved>>>,
}

/// How a recording ended.
pub(super) struct Saved {
    /// What to say on stderr.
    pub(super) remarks: Vec<String>,
    /// Why the usage file could not be written, if it could not.
    pub(super) error: Option<String>,
}

impl Recording {
    /// Starts the observer's thread.
    pub(super) fn start(mut observer: Observer, file: UsageFile) -> std::io::Result<Recording> {
        let (sender, work) = mpsc::channel::<Work>();
        let thread = std::thread::Builder::new()
            .name("mcp-record-observer".into())
            .spawn(move || {
                let mut error = None;
                let mut skipped = 0;
                let save = |usage: &Usage, error: &mut Option<String>| {
                    if let Err(e) = file.save(usage) {
                        *error = Some(e);
                    }
                };
                for item in work {
                    match item {
                        Work::Message(side, scope, bytes) => {
                            let text = String::from_utf8_lossy(&bytes);
                            if observer.message(side, scope, &text) {
                                save(observer.usage(), &mut error);
                            }
                        }
                        Work::Skipped(n) => skipped += n,
                        Work::Finish => break,
                    }
                }
                // Once more: an earlier failure may have been passing (the file being edited).
                error = None;
                if !observer.usage().is_empty() {
                    save(observer.usage(), &mut error);
                }
                let mut remarks = observer.remarks();
                if skipped > 0 {
                    remarks.push(format!(
                        "{skipped} message(s) were longer than {} MiB: passed on, not read",
                        super::lines::MAX_LINE / (1024 * 1024)
                    ));
                }
                Saved { remarks, error }
            })?;
        Ok(Recording {
            sender: Mutex::new(sender),
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Hands one message (or batch) that went `side` to the observer.
    pub(super) fn observe(&self, side: Side, scope: u64, bytes: Vec<u8>) {
        let _ = self.lock().send(Work::Message(side, scope, bytes));
    }

    /// Says that `n` lines were too long to read.
    pub(super) fn skipped(&self, n: usize) {
        if n > 0 {
            let _ = self.lock().send(Work::Skipped(n));
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Sender<Work>> {
        self.sender
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Ends the recording once everything handed over so far is read, and writes the usage
    /// file a last time.
    pub(super) fn finish(&self) -> Saved {
        let _ = self.lock().send(Work::Finish);
        let thread = self
            .thread
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        match thread.map(JoinHandle::join) {
            Some(Ok(saved)) => saved,
            Some(Err(_)) => Saved {
                remarks: Vec::new(),
                error: Some("the recording stopped on an internal error".to_owned()),
            },
            None => Saved {
                remarks: Vec::new(),
                error: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn feed(observer: &mut Observer, side: Side, message: Value) -> bool {
        observer.message(side, 0, &message.to_string())
    }

    #[test]
    fn requests_are_paired_with_their_answers() {
        let mut o = Observer::new("c", false);
        feed(
            &mut o,
            Side::Client,
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"clientInfo": {"name": "agent", "version": "2.0"}}}),
        );
        feed(
            &mut o,
            Side::Client,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        );
        feed(
            &mut o,
            Side::Server,
            json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [
            {"name": "search", "inputSchema": {"type": "object"},
             "outputSchema": {"type": "object", "required": ["total"], "properties": {"total": {"type": "integer"}}}},
            {"name": "fail", "inputSchema": {"type": "object"}}]}}),
        );
        // The same id in another scope (another HTTP exchange) is another request.
        feed(
            &mut o,
            Side::Client,
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "search", "arguments": {"q": "x"}}}),
        );
        assert!(!o.message(
            Side::Server,
            9,
            &json!({"jsonrpc": "2.0", "id": 3, "result": {}}).to_string()
        ));
        assert!(feed(
            &mut o,
            Side::Server,
            json!({"jsonrpc": "2.0", "id": 3, "result": {
            "content": [], "structuredContent": {"total": 3, "extra": true}}})
        ));
        // An error answer serves nothing; a tool not listed is not recorded.
        feed(
            &mut o,
            Side::Client,
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "fail"}}),
        );
        assert!(!feed(
            &mut o,
            Side::Server,
            json!({"jsonrpc": "2.0", "id": 4, "error": {"code": -32602, "message": "no"}})
        ));
        feed(
            &mut o,
            Side::Client,
            json!([{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "hidden"}}]),
        );
        assert!(!feed(
            &mut o,
            Side::Server,
            json!([{"jsonrpc": "2.0", "id": 5, "result": {"content": []}}])
        ));
        assert!(!o.message(Side::Client, 0, "not json"));
        assert_eq!(
            o.usage().to_json(),
            json!({"format": 1, "consumer": "c", "clients": [{"name": "agent", "version": "2.0"}],
                   "tools": {"search": {"calls": [{"arguments": {"q": "string"}}], "received": {"total": "integer"}}}})
        );
        let remarks = o.remarks().join("\n");
        assert!(remarks.contains("`hidden`"), "{remarks}");
        assert!(remarks.contains("`search`"), "{remarks}");
        assert!(
            remarks.contains("1 message(s) were not JSON-RPC"),
            "{remarks}"
        );
    }

    #[test]
    fn reads_are_told_apart_by_what_was_listed() {
        let mut o = Observer::new("c", false);
        // Nothing listed: the resource as read.
        feed(
            &mut o,
            Side::Client,
            json!({"id": 1, "method": "resources/read", "params": {"uri": "a://1"}}),
        );
        feed(
            &mut o,
            Side::Server,
            json!({"id": 1, "result": {"contents": []}}),
        );
        feed(
            &mut o,
            Side::Client,
            json!({"id": 2, "method": "resources/list"}),
        );
        feed(
            &mut o,
            Side::Server,
            json!({"id": 2, "result": {"resources": [{"uri": "a://index", "name": "i"}]}}),
        );
        feed(
            &mut o,
            Side::Client,
            json!({"id": 3, "method": "resources/templates/list"}),
        );
        feed(
            &mut o,
            Side::Server,
            json!({"id": 3, "result": {"resourceTemplates": [{"uriTemplate": "a://note/{id}", "name": "n"}]}}),
        );
        for (id, uri) in [(4, "a://index"), (5, "a://note/7"), (6, "a://nowhere")] {
            feed(
                &mut o,
                Side::Client,
                json!({"id": id, "method": "resources/read", "params": {"uri": uri}}),
            );
            feed(
                &mut o,
                Side::Server,
                json!({"id": id, "result": {"contents": []}}),
            );
        }
        feed(
            &mut o,
            Side::Client,
            json!({"id": 7, "method": "prompts/get", "params": {"name": "p", "arguments": {"b": "1", "a": "2"}}}),
        );
        feed(
            &mut o,
            Side::Server,
            json!({"id": 7, "result": {"messages": []}}),
        );
        assert_eq!(
            o.usage().to_json(),
            json!({"format": 1, "consumer": "c", "prompts": {"p": {"arguments": [["a", "b"]]}},
                   "resources": ["a://1", "a://index"], "templates": ["a://note/{id}"]})
        );
        assert!(o.remarks().join("\n").contains("`a://nowhere`"));
    }
}
