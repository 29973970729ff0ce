//! One JSON-RPC message from a server: its envelope parsed, its `result` kept as raw text.
//!
//! A listing's result can be tens of megabytes (10,000 tools are 15 MB); parsed whole into
//! `serde_json::Value` it would take about 18 times that. The session parses a listing's items
//! one at a time from the raw result instead, and keeps them as compact text (see
//! [`crate::Surface`]).

use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One JSON-RPC message (request, notification or answer) as a transport received it.
#[derive(Debug, Clone)]
pub struct Message {
    /// Every member but `result`, parsed.
    envelope: Map<String, Value>,
    /// The `result` member, unparsed.
    result: Option<Box<RawValue>>,
}

/// Why a text is not one or more JSON-RPC messages.
#[derive(Debug)]
pub enum MessageError {
    /// Valid JSON nested deeper than serde_json reads (128 levels).
    TooDeep(serde_json::Error),
    /// Not JSON, or JSON that is not an object or a batch of objects.
    NotMessages,
}

impl Message {
    /// The messages of one text: a JSON object is one message, a JSON array of objects a batch
    /// (possibly empty); anything else is [`MessageError::NotMessages`].
    pub fn parse_all(text: &str) -> Result<Vec<Message>, MessageError> {
        let first = text.trim_start().as_bytes().first().copied();
        match first {
            Some(b'{') => Ok(vec![Message::parse_object(text)?]),
            Some(b'[') => {
                let batch: Vec<&RawValue> =
                    serde_json::from_str(text).map_err(|_| MessageError::NotMessages)?;
                // A loop rather than `collect::<Result<…>>` (a shunting iterator of its own).
                let mut messages = Vec::with_capacity(batch.len());
                for raw in batch {
                    messages.push(Message::parse_object(raw.get())?);
                }
                Ok(messages)
            }
            _ => Err(MessageError::NotMessages),
        }
    }

    fn parse_object(text: &str) -> Result<Message, MessageError> {
        let members: BTreeMap<String, &RawValue> =
            serde_json::from_str(text).map_err(|_| MessageError::NotMessages)?;
        let mut envelope = Map::new();
        let mut result = None;
        for (name, raw) in members {
            if name == "result" {
                result = Some(raw.to_owned());
                continue;
            }
            let value: Value = serde_json::from_str(raw.get()).map_err(|error| {
                if is_too_deep(&error) {
                    MessageError::TooDeep(error)
                } else {
                    MessageError::NotMessages
                }
            })?;
            envelope.insert(name, value);
        }
        Ok(Message { envelope, result })
    }

    /// A message built from a value (a JSON object; anything else has no members).
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn from_value(value: Value) -> Message {
        let Value::Object(mut envelope) = value else {
            return Message {
                envelope: Map::new(),
                result: None,
            };
        };
        let result = envelope.remove("result").map(|result| {
            RawValue::from_string(result.to_string()).expect("serde_json writes valid JSON")
        });
        Message { envelope, result }
    }

    /// A member other than `result`.
    pub fn get(&self, member: &str) -> Option<&Value> {
        self.envelope.get(member)
    }

    /// The `result` member as raw JSON text.
    pub fn result(&self) -> Option<&RawValue> {
        self.result.as_deref()
    }

    /// The whole message as a value (parses the result: for small messages).
    // Inline: compiled only by the crates that call it (the CLI), not in every suite's build.
    #[inline]
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        let mut map = self.envelope.clone();
        if let Some(result) = &self.result {
            map.insert("result".to_owned(), serde_json::from_str(result.get())?);
        }
        Ok(Value::Object(map))
    }
}

/// Whether a parse failed only because the JSON nests deeper than serde_json reads.
pub fn is_too_deep(error: &serde_json::Error) -> bool {
    error.is_syntax() && error.to_string().starts_with("recursion limit exceeded")
}
