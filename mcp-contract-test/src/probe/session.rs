//! The MCP session of a probe, independent of the transport: handshake, listings, pagination,
//! answers to the server's own requests.

use super::message::{is_too_deep, Message};
use super::{quote_untrusted, Handshake, Lifecycle, Phase, Probe, ProbeErrorKind, ProbeOptions};
use crate::surface::{
    json_type_name, ItemKey, ItemKind, Surface, SERVER_FIELDS, SERVER_FIELD_SPELLINGS,
};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::fmt::{self, Write as _};
use std::time::{Duration, Instant};

/// A way to exchange JSON-RPC messages with one server (stdio here; HTTP can implement it too).
pub trait Transport {
    /// Sends one JSON-RPC message. Must not block for long: queue it if the peer is slow.
    fn send(&mut self, message: &Value) -> Result<(), TransportError>;

    /// The next JSON-RPC message from the server, or `None` once `deadline` has passed.
    fn recv(&mut self, deadline: Instant) -> Result<Option<Message>, TransportError>;

    /// Something the transport noticed that may explain a silence or an exit, such as noise on
    /// stdout. Added to time-out and exit messages.
    fn remarks(&self) -> Option<String> {
        None
    }
}

/// Why a transport cannot go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransportError {
    /// The server went away: it exited or closed its end.
    Closed,
    /// The server sent something that cannot be read as messages at all (the text says what).
    InvalidOutput(String),
    /// An operating-system error while talking to the server.
    Io(String),
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TransportError::Closed => f.write_str("the server closed the connection"),
            TransportError::InvalidOutput(what) | TransportError::Io(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for TransportError {}

/// Runs a probe over any transport (for the tests of the session): handshake, every listing,
/// then returns. `label` names the server in errors.
/// A page's `nextCursor`: the next page's cursor, or `None` when the listing ends (no cursor,
/// `null`, or the empty string many loosely typed servers send to say "no more").
fn next_cursor(
    result: &BTreeMap<String, &RawValue>,
    method: &str,
    page: usize,
) -> Result<Option<String>, Failure> {
    let next_cursor = result
        .get("nextCursor")
        .map(|raw| serde_json::from_str::<Value>(raw.get()).unwrap_or(Value::Null));
    match next_cursor {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(next)) if next.is_empty() => Ok(None),
        Some(Value::String(next)) => Ok(Some(next)),
        Some(other) => Err(Failure {
            phase: Phase::List,
            kind: ProbeErrorKind::Malformed,
            message: format!(
                "page {page} of {method} has a nextCursor that is {}, not a string",
                json_type_name(&other)
            ),
        }),
    }
}

#[cfg(test)]
fn probe_transport(
    transport: &mut dyn Transport,
    options: &ProbeOptions,
    label: &str,
) -> Result<Probe, super::ProbeError> {
    run(transport, options, Instant::now() + options.timeout)
        .map(|(probe, _)| probe)
        .map_err(|failure| super::ProbeError {
            command: label.to_owned(),
            phase: failure.phase,
            kind: failure.kind,
            message: failure.message,
            exit_status: None,
            stderr_tail: Vec::new(),
        })
}

/// A failure of the session, before the transport adds its details (command, stderr, status).
#[derive(Debug)]
pub(super) struct Failure {
    pub(super) phase: Phase,
    pub(super) kind: ProbeErrorKind,
    pub(super) message: String,
}

/// What a session needs to go on after the probe's last listing (see
/// [`super::ServerSession::request`]): the next request id, and the `_meta` a stateless
/// (discover) session sends with every request.
#[derive(Debug, Clone, Default)]
pub(super) struct Continued {
    pub(super) next_id: i64,
    pub(super) meta: Option<Value>,
}

/// The server's answer to a request sent after the listings: its result, or the JSON-RPC
/// error it answered with (raw: the caller decides whether an error was expected).
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The `result` object.
    Result(Map<String, Value>),
    /// The `error` member: its code (0 when none fits an `i64`), message and data.
    Error {
        /// The JSON-RPC error code.
        code: i64,
        /// The error's message as the server wrote it (raw: escape it to show it).
        message: String,
        /// The error's `data`, if any.
        data: Option<Value>,
    },
}

/// Why a request sent after the listings got no answer: the server timed out, exited, or
/// answered something that is not an answer. Its message has server text escaped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionError {
    /// What kind of failure it is (`TimedOut`, `Exited`, `Malformed`, …).
    pub kind: ProbeErrorKind,
    /// What happened.
    pub message: String,
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Sends one request in a session the probe opened, after its listings, and waits up to
/// `timeout` for the answer (serving the server's own requests meanwhile, as the probe does).
pub(super) fn request_in(
    transport: &mut dyn Transport,
    continued: &mut Continued,
    method: &str,
    params: Value,
    timeout: Duration,
) -> Result<Answer, SessionError> {
    let options = ProbeOptions {
        timeout,
        ..ProbeOptions::default()
    };
    let deadline = Instant::now() + timeout;
    let mut session = Session {
        transport,
        options: &options,
        deadline,
        next_id: continued.next_id,
        notes: Vec::new(),
        respellings: Vec::new(),
        meta: continued.meta.clone(),
    };
    let outcome = session.request_raw(method, params, Phase::Call, deadline);
    continued.next_id = session.next_id;
    let failed = |failure: Failure| SessionError {
        kind: failure.kind,
        message: failure.message,
    };
    let message = outcome.map_err(failed)?;
    if let Some(error) = message.get("error") {
        return Ok(Answer::Error {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
            data: error.get("data").cloned(),
        });
    }
    let Some(raw) = message.result() else {
        return Err(SessionError {
            kind: ProbeErrorKind::Malformed,
            message: format!("the answer to {method} has neither `result` nor `error`"),
        });
    };
    match serde_json::from_str::<Value>(raw.get()) {
        Ok(Value::Object(result)) => Ok(Answer::Result(result)),
        Ok(other) => Err(SessionError {
            kind: ProbeErrorKind::Malformed,
            message: format!(
                "the result of {method} is {}, not an object",
                json_type_name(&other)
            ),
        }),
        Err(error) => Err(failed(too_deep_failure(&error, method, Phase::Call))),
    }
}

/// The four listings: kind, method, and the capability that advertises it.
const LISTINGS: [(ItemKind, &str, &str); 4] = [
    (ItemKind::Tool, "tools/list", "tools"),
    (ItemKind::Prompt, "prompts/list", "prompts"),
    (ItemKind::Resource, "resources/list", "resources"),
    (
        ItemKind::ResourceTemplate,
        "resources/templates/list",
        "resources",
    ),
];

/// JSON-RPC "method not found".
const METHOD_NOT_FOUND: i64 = -32601;

/// The protocol version whose lifecycle is `server/discover`.
const DISCOVER_VERSION: &str = "2026-07-28";

/// Error codes with which a 2026-07-28 server rejects `server/discover` without being a legacy
/// server (unsupported protocol version, missing client capability, header mismatch): under
/// [`Lifecycle::Auto`] these are errors, every other JSON-RPC error means "use initialize".
const MODERN_REJECTIONS: [i64; 3] = [-32022, -32021, -32020];

/// Longest wait for an answer to `server/discover` under [`Lifecycle::Auto`] before falling back
/// to `initialize` (a legacy server may ignore requests before `initialize`).
const AUTO_DISCOVER_WAIT: Duration = Duration::from_secs(5);

/// The `_meta` key that carries the server's implementation info in a discover result.
const SERVER_INFO_META: &str = "io.modelcontextprotocol/serverInfo";

/// The probe over `transport`, and what the session needs to go on after it.
///
/// The transport is a trait object: the session is compiled once for every transport (stdio,
/// HTTP, in-process) rather than once per transport type; a call through it per message costs
/// nothing next to the message itself.
pub(super) fn run(
    transport: &mut dyn Transport,
    options: &ProbeOptions,
    deadline: Instant,
) -> Result<(Probe, Continued), Failure> {
    let mut session = Session {
        transport,
        options,
        deadline,
        next_id: 1,
        notes: Vec::new(),
        respellings: Vec::new(),
        meta: None,
    };
    let mut surface = Surface::new();
    let (capabilities, handshake) = session.open(&mut surface)?;
    // A list, not a set: four listings at most, and no hash set of `&str` to compile.
    let mut unadvertised_noted: Vec<&str> = Vec::new();
    for (kind, method, capability) in LISTINGS {
        let advertised = capabilities
            .as_ref()
            .and_then(|caps| caps.get(capability))
            .is_some_and(|value| !matches!(value, Value::Null | Value::Bool(false)));
        if !advertised {
            if !unadvertised_noted.contains(&capability) {
                unadvertised_noted.push(capability);
                let methods = if capability == "resources" {
                    "resources/list and resources/templates/list were".to_owned()
                } else {
                    format!("{method} was")
                };
                session.notes.push(format!(
                    "the server does not advertise {capability} in its capabilities: {methods} not sent"
                ));
            }
            continue;
        }
        session.list_all(kind, method, capability, &mut surface)?;
    }
    // Items are recorded as sent; non-spec spellings are respelled (and linted) in one place,
    // when the surface is prepared. Only the listings' own envelope (`next_cursor`,
    // `resource_templates`) is no part of any item: the probe hands those over as data.
    let continued = Continued {
        next_id: session.next_id,
        meta: session.meta.clone(),
    };
    Ok((
        Probe {
            surface,
            notes: session.notes,
            handshake,
            respellings: session.respellings,
        },
        continued,
    ))
}

struct Session<'a> {
    transport: &'a mut dyn Transport,
    options: &'a ProbeOptions,
    deadline: Instant,
    next_id: i64,
    notes: Vec<String>,
    respellings: Vec<crate::prepare::spelling::Respelling>,
    /// The `_meta` sent with every request of a stateless (discover) session.
    meta: Option<Value>,
}

impl Session<'_> {
    /// Opens the session as the lifecycle option says; returns the capabilities object and the
    /// handshake used.
    fn open(
        &mut self,
        surface: &mut Surface,
    ) -> Result<(Option<Map<String, Value>>, Handshake), Failure> {
        let auto = match self.options.lifecycle {
            Lifecycle::Initialize => {
                return Ok((self.initialize(surface)?, Handshake::Initialize));
            }
            Lifecycle::Discover => false,
            Lifecycle::Auto => true,
        };
        match self.discover(surface, auto) {
            Ok(Some(capabilities)) => Ok((capabilities, Handshake::Discover)),
            Ok(None) => Ok((self.initialize(surface)?, Handshake::Initialize)),
            Err(failure) => Err(failure),
        }
    }

    /// The stateless handshake: `server/discover` with the client context in `_meta`. Under
    /// `auto`, `Ok(None)` when the server is a legacy one and `initialize` must follow.
    #[allow(clippy::type_complexity)]
    fn discover(
        &mut self,
        surface: &mut Surface,
        auto: bool,
    ) -> Result<Option<Option<Map<String, Value>>>, Failure> {
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": DISCOVER_VERSION,
            "io.modelcontextprotocol/clientInfo":
                {"name": "mcp-contract-test", "version": env!("CARGO_PKG_VERSION")},
            "io.modelcontextprotocol/clientCapabilities": {},
        });
        self.meta = Some(meta);
        let wait = AUTO_DISCOVER_WAIT.min(self.options.timeout / 3);
        let deadline = if auto {
            self.deadline.min(Instant::now() + wait)
        } else {
            self.deadline
        };
        let outcome = self.request_until("server/discover", json!({}), Phase::Initialize, deadline);
        let mut result = match outcome {
            Ok(result) => result,
            Err(failure) if auto => {
                let legacy = match failure.kind {
                    // A loop, not `[i64]::contains` (a copy of slice search for `i64`).
                    ProbeErrorKind::ServerError { code } => {
                        let mut modern = false;
                        for rejection in &MODERN_REJECTIONS {
                            modern |= *rejection == code;
                        }
                        !modern
                    }
                    ProbeErrorKind::TimedOut => {
                        self.notes.push(format!(
                            "server/discover got no answer within {:.1} s: fell back to initialize",
                            wait.as_secs_f64()
                        ));
                        true
                    }
                    _ => false,
                };
                if !legacy {
                    return Err(failure);
                }
                self.meta = None;
                return Ok(None);
            }
            Err(failure) => return Err(failure),
        };
        let supported = match result.get("supportedVersions") {
            Some(Value::Array(versions)) => versions.iter().any(|v| v == DISCOVER_VERSION),
            _ => false,
        };
        if !supported {
            if auto {
                self.meta = None;
                self.notes.push(format!(
                    "the server answered server/discover but its supportedVersions do not include \
                     {DISCOVER_VERSION}: fell back to initialize"
                ));
                return Ok(None);
            }
            return Err(Failure {
                phase: Phase::Initialize,
                kind: ProbeErrorKind::Malformed,
                message: format!(
                    "the server's server/discover result has no supportedVersions array \
                     including {DISCOVER_VERSION} (found {}): it cannot be probed with the \
                     stateless lifecycle; use lifecycle = \"auto\" or \"initialize\"",
                    quote_untrusted(
                        &result
                            .get("supportedVersions")
                            .map_or_else(|| "nothing".to_owned(), Value::to_string)
                    )
                ),
            });
        }
        // The discover result carries no protocolVersion (the client chose it) and its
        // serverInfo in `_meta`: record them where initialize puts them, so the server item has
        // the same shape whichever handshake was used.
        result.insert("protocolVersion".to_owned(), json!(DISCOVER_VERSION));
        if !result.contains_key("serverInfo") && !result.contains_key("server_info") {
            if let Some(info) = result
                .get("_meta")
                .and_then(|meta| meta.get(SERVER_INFO_META))
                .cloned()
            {
                result.insert("serverInfo".to_owned(), info);
            }
        }
        Ok(Some(self.record_server(result, surface)))
    }

    /// Shakes hands, puts the server item into `surface` and returns the capabilities object.
    fn initialize(&mut self, surface: &mut Surface) -> Result<Option<Map<String, Value>>, Failure> {
        // Declaring no client capability on purpose: the contract is the base surface that every
        // client sees, not the one a server may widen for sampling/elicitation/roots clients.
        let params = json!({
            "protocolVersion": self.options.protocol_version,
            "capabilities": {},
            "clientInfo": {"name": "mcp-contract-test", "version": env!("CARGO_PKG_VERSION")},
        });
        let result = self.request("initialize", params, Phase::Initialize)?;
        self.transport
            .send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .map_err(|e| {
                self.transport_failure(e, Phase::Initialize, "notifications/initialized")
            })?;
        Ok(self.record_server(result, surface))
    }

    /// Puts the server item of a handshake result into `surface`, as sent; returns its
    /// capabilities as the spec spells them (to know which listings to request).
    fn record_server(
        &mut self,
        result: Map<String, Value>,
        surface: &mut Surface,
    ) -> Option<Map<String, Value>> {
        // Loops rather than a chain compiled for this one site; a later spelling's value
        // replaces an earlier one's, as collecting did.
        let mut server = Map::new();
        for fields in [&SERVER_FIELDS[..], &SERVER_FIELD_SPELLINGS[..]] {
            for field in fields {
                if let Some(value) = result.get(*field) {
                    server.insert((*field).to_owned(), value.clone());
                }
            }
        }
        if !server.is_empty() {
            surface.insert(ItemKey::server(), Value::Object(server));
        }
        let mut read = result;
        crate::prepare::spelling::normalize_initialize(&mut read);
        match read.get("capabilities") {
            Some(Value::Object(caps)) => Some(caps.clone()),
            Some(other) => {
                self.notes.push(format!(
                    "the server's capabilities are {}, not an object: nothing was listed",
                    json_type_name(other)
                ));
                None
            }
            None => {
                self.notes.push(
                    "the server's handshake result has no capabilities: nothing was listed"
                        .to_owned(),
                );
                None
            }
        }
    }

    /// Adds every item of one listing to `surface`, page by page, following `nextCursor`;
    /// nothing when the server answers -32601.
    fn list_all(
        &mut self,
        kind: ItemKind,
        method: &str,
        capability: &str,
        surface: &mut Surface,
    ) -> Result<(), Failure> {
        let list_key = kind.list_key().unwrap_or("items");
        let mut listed = 0;
        let mut seen_cursors = HashSet::new();
        let mut cursor: Option<String> = None;
        let mut page = 0;
        loop {
            page += 1;
            let params = match &cursor {
                Some(cursor) => json!({ "cursor": cursor }),
                None => json!({}),
            };
            let message = match self.request_message(method, params, Phase::List, self.deadline) {
                Ok(message) => message,
                Err(failure)
                    if page == 1
                        && failure.kind
                            == (ProbeErrorKind::ServerError {
                                code: METHOD_NOT_FOUND,
                            }) =>
                {
                    self.notes.push(format!(
                        "the server advertises {capability} but answered {method} with -32601 \
                         (method not found): recorded as empty"
                    ));
                    return Ok(());
                }
                Err(failure) => return Err(failure),
            };
            // The page's members are read one level deep; its items stay raw text here and
            // are parsed one at a time when added to the surface.
            let raw = message.result().map(RawValue::get).unwrap_or("null");
            let Ok(mut result) = serde_json::from_str::<BTreeMap<String, &RawValue>>(raw) else {
                return Err(Failure {
                    phase: Phase::List,
                    kind: ProbeErrorKind::Malformed,
                    message: format!(
                        "the result of {method} is {}, not an object",
                        raw_type_name(raw)
                    ),
                });
            };
            self.respellings
                .extend(crate::prepare::spelling::normalize_list_page(
                    method,
                    &mut result,
                ));
            match result.get(list_key).map(|raw| raw.get()) {
                Some(list) if list.trim_start().starts_with('[') => {
                    let list: Vec<&RawValue> = serde_json::from_str(list).map_err(|e| Failure {
                        phase: Phase::List,
                        kind: ProbeErrorKind::Malformed,
                        message: format!("page {page} of {method}: {e}"),
                    })?;
                    add_items(surface, kind, (method, page, listed), &list)?;
                    listed += list.len();
                }
                other => {
                    return Err(Failure {
                        phase: Phase::List,
                        kind: ProbeErrorKind::Malformed,
                        message: format!(
                            "page {page} of {method} has no `{list_key}` array (found {})",
                            other.map_or("nothing", raw_type_name)
                        ),
                    })
                }
            }
            let Some(next) = next_cursor(&result, method, page)? else {
                return Ok(());
            };
            if !seen_cursors.insert(next.clone()) {
                return Err(Failure {
                    phase: Phase::List,
                    kind: ProbeErrorKind::EndlessPagination,
                    message: format!(
                        "page {page} of {method} answered nextCursor {} again: the listing would \
                         never end",
                        quote_untrusted(&next)
                    ),
                });
            }
            if page >= self.options.max_pages {
                return Err(Failure {
                    phase: Phase::List,
                    kind: ProbeErrorKind::EndlessPagination,
                    message: format!(
                        "{method} still had a nextCursor after {page} pages (the limit is \
                         max_pages = {})",
                        self.options.max_pages
                    ),
                });
            }
            cursor = Some(next);
        }
    }

    /// Sends one request and waits for its answer, serving the server's requests meanwhile.
    /// Returns the `result` object.
    fn request(
        &mut self,
        method: &str,
        params: Value,
        phase: Phase,
    ) -> Result<Map<String, Value>, Failure> {
        self.request_until(method, params, phase, self.deadline)
    }

    /// [`Session::request`] with its own deadline (never later than the probe's); a stateless
    /// session adds its `_meta` to the params.
    fn request_until(
        &mut self,
        method: &str,
        params: Value,
        phase: Phase,
        deadline: Instant,
    ) -> Result<Map<String, Value>, Failure> {
        let message = self.request_message(method, params, phase, deadline)?;
        let raw = message.result().map_or("null", RawValue::get);
        match serde_json::from_str::<Value>(raw) {
            Ok(Value::Object(result)) => Ok(result),
            Ok(other) => Err(Failure {
                phase,
                kind: ProbeErrorKind::Malformed,
                message: format!(
                    "the result of {method} is {}, not an object",
                    json_type_name(&other)
                ),
            }),
            Err(error) => Err(too_deep_failure(&error, method, phase)),
        }
    }

    /// Sends one request and waits for its answer: the answer message, or the failure its
    /// `error` describes.
    fn request_message(
        &mut self,
        method: &str,
        params: Value,
        phase: Phase,
        deadline: Instant,
    ) -> Result<Message, Failure> {
        let message = self.request_raw(method, params, phase, deadline)?;
        take_result(message, method, phase)
    }

    /// Sends one request and waits for its answer message, whatever it says.
    fn request_raw(
        &mut self,
        method: &str,
        mut params: Value,
        phase: Phase,
        deadline: Instant,
    ) -> Result<Message, Failure> {
        if let (Some(meta), Value::Object(params)) = (&self.meta, &mut params) {
            params.insert("_meta".to_owned(), meta.clone());
        }
        let id = self.next_id;
        self.next_id += 1;
        self.transport
            .send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .map_err(|e| self.transport_failure(e, phase, method))?;
        loop {
            let message = match self.transport.recv(deadline) {
                Ok(Some(message)) => message,
                Ok(None) => {
                    let mut message = if phase == Phase::Call {
                        format!(
                            "timed out: no answer to {method} within {:.1} s",
                            self.options.timeout.as_secs_f64()
                        )
                    } else {
                        format!(
                            "timed out: the probe's time limit of {:.1} s ran out while waiting \
                             for the answer to {method}",
                            self.options.timeout.as_secs_f64()
                        )
                    };
                    self.add_remarks(&mut message);
                    return Err(Failure {
                        phase,
                        kind: ProbeErrorKind::TimedOut,
                        message,
                    });
                }
                Err(e) => return Err(self.transport_failure(e, phase, method)),
            };
            if let Some(server_method) = message.get("method") {
                // Our own request coming back: a process that copies its input to its output
                // (`cat`, a shell loop, a proxy to nothing) is not an MCP server. Answering it
                // would make the probe read its own error as the server's.
                if server_method.as_str() == Some(method) && message.get("id") == Some(&json!(id)) {
                    return Err(Failure {
                        phase,
                        kind: ProbeErrorKind::NotMcp,
                        message: format!(
                            "not an MCP server: it echoed the probe's own {method} request back \
                             (a process that copies its input to its output)"
                        ),
                    });
                }
                if let Some(request_id) = message.get("id") {
                    self.answer_server_request(server_method, request_id)
                        .map_err(|e| self.transport_failure(e, phase, method))?;
                }
                // Notifications (logging, progress, list_changed) change nothing in a recording.
                continue;
            }
            let ours = match message.get("id") {
                Some(Value::Number(n)) => n.as_i64() == Some(id),
                // Lenient on servers that echo ids as strings.
                Some(Value::String(s)) => s == &id.to_string(),
                _ => false,
            };
            if !ours {
                // An answer to nothing we are waiting for: stale or stray, ignore it.
                continue;
            }
            return Ok(message);
        }
    }

    /// The probe serves nothing to the server but `ping`.
    fn answer_server_request(&mut self, method: &Value, id: &Value) -> Result<(), TransportError> {
        let reply = if method.as_str() == Some("ping") {
            json!({"jsonrpc": "2.0", "id": id, "result": {}})
        } else {
            json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": METHOD_NOT_FOUND,
                "message": "not supported by a contract probe",
            }})
        };
        self.transport.send(&reply)
    }

    fn transport_failure(&self, error: TransportError, phase: Phase, method: &str) -> Failure {
        match error {
            TransportError::Closed => {
                let mut message =
                    format!("the server exited (or closed its stdout) before answering {method}");
                self.add_remarks(&mut message);
                Failure {
                    phase,
                    kind: ProbeErrorKind::Exited,
                    message,
                }
            }
            TransportError::InvalidOutput(what) => Failure {
                phase,
                kind: ProbeErrorKind::InvalidOutput,
                message: format!("while waiting for the answer to {method}: {what}"),
            },
            TransportError::Io(what) => Failure {
                phase,
                kind: ProbeErrorKind::Io,
                message: format!("while sending or waiting for {method}: {what}"),
            },
        }
    }

    fn add_remarks(&self, message: &mut String) {
        if let Some(remarks) = self.transport.remarks() {
            message.push_str("; ");
            message.push_str(&remarks);
        }
    }
}

/// The answer itself, or the failure its `error` describes (an answer with neither is
/// malformed).
fn take_result(message: Message, method: &str, phase: Phase) -> Result<Message, Failure> {
    if let Some(error) = message.get("error") {
        let code = error.get("code").and_then(Value::as_i64).unwrap_or(0);
        let text = error.get("message").and_then(Value::as_str).unwrap_or("");
        let mut detail = format!("the server answered {method} with JSON-RPC error {code}");
        if !text.is_empty() {
            let _ = write!(detail, ": {}", quote_untrusted(text));
        }
        if let Some(data) = error.get("data") {
            let _ = write!(detail, " (data: {})", quote_untrusted(&data.to_string()));
        }
        return Err(Failure {
            phase,
            kind: ProbeErrorKind::ServerError { code },
            message: detail,
        });
    }
    if message.result().is_none() {
        return Err(Failure {
            phase,
            kind: ProbeErrorKind::Malformed,
            message: format!("the answer to {method} has neither `result` nor `error`"),
        });
    }
    Ok(message)
}

/// A parse failure of part of an answer: nesting too deep for the probe, or (after the
/// transport checked the JSON) something stranger.
fn too_deep_failure(error: &serde_json::Error, method: &str, phase: Phase) -> Failure {
    let message = if is_too_deep(error) {
        format!(
            "while reading the answer to {method}: it nests deeper than 128 levels, more than \
             the probe reads ({}): flatten the schema, e.g. with `$defs` and `$ref`",
            quote_untrusted(&error.to_string())
        )
    } else {
        format!(
            "while reading the answer to {method}: {}",
            quote_untrusted(&error.to_string())
        )
    };
    Failure {
        phase,
        kind: ProbeErrorKind::InvalidOutput,
        message,
    }
}

/// The JSON type of a raw value, for messages.
fn raw_type_name(raw: &str) -> &'static str {
    match raw.trim_start().as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') | None => "null",
        Some(_) => "a number",
    }
}

/// Adds one page of a listing to the surface, keyed by the items' name field (or its non-spec
/// spelling: a template's `uri_template`); the first of a repeated name wins and the repeat is
/// kept as a duplicate. Each item is looked at on its own (on several threads for a long
/// listing) and kept as the text the server sent. `at` is the listing, the page number and how
/// many items earlier pages had, for messages.
fn add_items(
    surface: &mut Surface,
    kind: ItemKind,
    at: (&str, usize, usize),
    items: &[&RawValue],
) -> Result<(), Failure> {
    let (method, page, earlier) = at;
    let name_field = kind.name_field().unwrap_or("name");
    let read = |(index, raw): &(usize, &RawValue)| {
        let index = earlier + index;
        let text = raw.get().trim();
        if let Some(key) = key_as_sent(kind, text) {
            return Ok((key, text.to_owned()));
        }
        // The long way: an item without a plain string name, or a too-deep item, must be
        // reported. The text is still recorded as sent.
        let item: Value = serde_json::from_str(text)
            .map_err(|error| too_deep_failure(&error, method, Phase::List))?;
        let Some(name) = kind.name_of(&item) else {
            return Err(Failure {
                phase: Phase::List,
                kind: ProbeErrorKind::Malformed,
                message: format!(
                    "{method} item {index} (on page {page}) has no string `{name_field}`, so it \
                     cannot be recorded: {}",
                    quote_untrusted(&item.to_string())
                ),
            });
        };
        Ok((ItemKey::new(kind, name), text.to_owned()))
    };
    let mut numbered: Vec<(usize, &RawValue)> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        numbered.push((index, *item));
    }
    for outcome in crate::parallel::map_in_order(&numbered, read) {
        let (key, text) = outcome?;
        if surface.contains(&key) {
            surface.insert_duplicate_text(key, text);
        } else {
            surface.insert_text(key, text);
        }
    }
    Ok(())
}

/// The common case of [`add_items`] without parsing the item: its key, when its name is a
/// plain string and it nests shallowly enough to be parsed later (see [`crate::surface`]).
/// `None` sends it the long way, which parses and reports what is wrong.
fn key_as_sent(kind: ItemKind, text: &str) -> Option<ItemKey> {
    // Below serde_json's parse limit of 128 levels, with room for the listing around it.
    if !nests_within(text, 120) {
        return None;
    }
    // Member names as owned strings: the map type the page and message readers use already
    // (one B-tree type less to compile in every user's build than borrowed names would be).
    let members: BTreeMap<String, &RawValue> = serde_json::from_str(text).ok()?;
    let mut raw_name = None;
    for field in [kind.name_field(), kind.name_field_spelling()]
        .iter()
        .flatten()
    {
        if let Some(raw) = members.get(*field) {
            raw_name = Some(raw);
            break;
        }
    }
    let raw_name = raw_name?;
    match serde_json::from_str::<Value>(raw_name.get()).ok()? {
        Value::String(name) => Some(ItemKey::new(kind, name)),
        _ => None,
    }
}

/// Whether JSON `text` nests at most `limit` arrays and objects deep (strings skipped).
fn nests_within(text: &str, limit: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in text.as_bytes() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > limit {
                    return false;
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    #[test]
    fn nesting_is_counted_outside_strings() {
        assert!(nests_within(r#"{"a": [[1]]}"#, 3));
        assert!(!nests_within(r#"{"a": [[1]]}"#, 2));
        assert!(nests_within(r#"{"a": "[[[[\"[[["}"#, 1));
        let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
        assert!(!nests_within(&deep, 120));
    }

    #[test]
    fn items_are_keyed_without_parsing_when_their_name_is_plain() {
        let text = r#"{"name": "t", "input_schema": {"type": "object"}, "annotations": {"read_only_hint": true}}"#;
        let key = key_as_sent(ItemKind::Tool, text).unwrap();
        assert_eq!(key.name, "t");
        let template = key_as_sent(ItemKind::ResourceTemplate, r#"{"uri_template": "a/{b}"}"#);
        assert_eq!(template.unwrap().name, "a/{b}");
        // A member name written with escapes is read as the long way reads it.
        let escaped = key_as_sent(ItemKind::Tool, r#"{"na\u006de": "t"}"#).unwrap();
        assert_eq!(escaped.name, "t");
        for long_way in [r#"{"name": 7}"#, r#"{"title": "no name"}"#] {
            assert!(
                key_as_sent(ItemKind::Tool, long_way).is_none(),
                "{long_way}"
            );
        }
        let deep = format!(
            r#"{{"name": "d", "x": {}1{}}}"#,
            "[".repeat(125),
            "]".repeat(125)
        );
        assert!(key_as_sent(ItemKind::Tool, &deep).is_none());
    }

    use std::time::Duration;

    /// A scripted server: answers each request from a queue of replies keyed by method.
    struct Scripted {
        replies: VecDeque<(String, Value)>,
        inbox: VecDeque<Value>,
        sent: Vec<Value>,
    }

    impl Scripted {
        fn new(replies: &[(&str, Value)]) -> Scripted {
            Scripted {
                replies: replies
                    .iter()
                    .map(|(m, v)| ((*m).to_owned(), v.clone()))
                    .collect(),
                inbox: VecDeque::new(),
                sent: Vec::new(),
            }
        }
    }

    impl Transport for Scripted {
        fn send(&mut self, message: &Value) -> Result<(), TransportError> {
            self.sent.push(message.clone());
            if let (Some(method), Some(id)) = (message.get("method"), message.get("id")) {
                let Some((expected, reply)) = self.replies.pop_front() else {
                    return Err(TransportError::Closed);
                };
                assert_eq!(method, expected.as_str());
                let mut reply = reply;
                reply["id"] = id.clone();
                self.inbox.push_back(reply);
            }
            Ok(())
        }

        fn recv(&mut self, _deadline: Instant) -> Result<Option<Message>, TransportError> {
            Ok(self.inbox.pop_front().map(Message::from_value))
        }
    }

    fn init(caps: Value) -> (&'static str, Value) {
        (
            "initialize",
            json!({"result": {"protocolVersion": "2025-06-18", "serverInfo": {"name": "s", "version": "1"}, "capabilities": caps, "extra": 1}}),
        )
    }

    #[test]
    fn lists_only_advertised_kinds_and_notes_the_rest() {
        let mut t = Scripted::new(&[
            init(json!({"tools": {}})),
            (
                "tools/list",
                json!({"result": {"tools": [{"name": "a", "x-custom": true}], "nextCursor": "p2"}}),
            ),
            (
                "tools/list",
                json!({"result": {"tools": [{"name": "b"}, {"name": "a"}]}}),
            ),
        ]);
        let probe = probe_transport(&mut t, &ProbeOptions::default(), "s").unwrap();
        let server = probe.surface.get(&ItemKey::server()).unwrap();
        assert_eq!(server["protocolVersion"], "2025-06-18");
        assert!(server.get("extra").is_none());
        assert_eq!(
            probe
                .surface
                .get(&ItemKey::new(ItemKind::Tool, "a"))
                .unwrap()["x-custom"],
            true
        );
        assert_eq!(
            probe.surface.duplicates(),
            [ItemKey::new(ItemKind::Tool, "a")]
        );
        assert_eq!(probe.notes.len(), 2, "{:?}", probe.notes);
        assert!(probe.notes[0].contains("does not advertise prompts"));
        assert!(probe.notes[1].contains("resources/templates/list"));
        assert_eq!(t.sent[1]["method"], "notifications/initialized");
        assert_eq!(t.sent[3]["params"]["cursor"], "p2");
        assert_eq!(t.sent[0]["params"]["capabilities"], json!({}));
    }

    #[test]
    fn method_not_found_on_an_advertised_listing_is_a_note() {
        let mut t = Scripted::new(&[
            init(json!({"prompts": {}})),
            (
                "prompts/list",
                json!({"error": {"code": -32601, "message": "nope"}}),
            ),
        ]);
        let probe = probe_transport(&mut t, &ProbeOptions::default(), "s").unwrap();
        assert!(
            probe
                .notes
                .iter()
                .any(|n| n.contains("prompts/list with -32601")),
            "{:?}",
            probe.notes
        );
    }

    #[test]
    fn other_errors_and_malformed_results_fail_with_their_kind() {
        let mut t = Scripted::new(&[(
            "initialize",
            json!({"error": {"code": -32602, "message": "bad\u{1b}[2J version"}}),
        )]);
        let err = probe_transport(&mut t, &ProbeOptions::default(), "s").unwrap_err();
        assert_eq!(err.kind, ProbeErrorKind::ServerError { code: -32602 });
        assert_eq!(err.phase, Phase::Initialize);
        assert!(
            err.message.contains("bad\\u{1b}[2J version"),
            "{}",
            err.message
        );

        let mut t = Scripted::new(&[
            init(json!({"tools": {}})),
            ("tools/list", json!({"result": [1]})),
        ]);
        let err = probe_transport(&mut t, &ProbeOptions::default(), "s").unwrap_err();
        assert_eq!(err.kind, ProbeErrorKind::Malformed);
        assert!(
            err.message.contains("is an array, not an object"),
            "{}",
            err.message
        );

        let mut t = Scripted::new(&[
            init(json!({"resources": {}})),
            (
                "resources/list",
                json!({"result": {"resources": [{"uri": "a://x"}, {"name": "no uri"}]}}),
            ),
        ]);
        let err = probe_transport(&mut t, &ProbeOptions::default(), "s").unwrap_err();
        assert_eq!(
            (err.kind, err.phase),
            (ProbeErrorKind::Malformed, Phase::List)
        );
        assert!(
            err.message.contains("resources/list item 1") && err.message.contains("`uri`"),
            "{}",
            err.message
        );
    }

    #[test]
    fn max_pages_bounds_a_listing() {
        let page = |n: usize| {
            (
                "tools/list",
                json!({"result": {"tools": [], "nextCursor": n.to_string()}}),
            )
        };
        let mut t = Scripted::new(&[init(json!({"tools": {}})), page(1), page(2), page(3)]);
        let options = ProbeOptions {
            max_pages: 3,
            ..ProbeOptions::default()
        };
        let err = probe_transport(&mut t, &options, "s").unwrap_err();
        assert_eq!(err.kind, ProbeErrorKind::EndlessPagination);
        assert!(err.message.contains("after 3 pages"), "{}", err.message);
    }

    #[test]
    fn silence_is_a_timeout_naming_the_request() {
        struct Silent;
        impl Transport for Silent {
            fn send(&mut self, _: &Value) -> Result<(), TransportError> {
                Ok(())
            }
            fn recv(&mut self, _: Instant) -> Result<Option<Message>, TransportError> {
                Ok(None)
            }
            fn remarks(&self) -> Option<String> {
                Some("noise".into())
            }
        }
        let options = ProbeOptions {
            timeout: Duration::from_millis(10),
            ..ProbeOptions::default()
        };
        let err = probe_transport(&mut Silent, &options, "s").unwrap_err();
        assert_eq!(
            (err.kind, err.phase),
            (ProbeErrorKind::TimedOut, Phase::Initialize)
        );
        assert!(
            err.message.contains("answer to initialize; noise"),
            "{}",
            err.message
        );
    }
}
