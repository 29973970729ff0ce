//! The data of server-sent events, read from a copy of a stream as it is forwarded: each
//! event's `data:` lines joined by line breaks, dispatched at a blank line (or at the end of the
//! stream). `event:`, `id:`, `retry:` and comments carry no message.

use super::lines::{Lines, MAX_LINE};

/// Reads events from a byte stream fed in pieces.
#[derive(Default)]
pub(super) struct Events {
    lines: Lines,
    data: Option<String>,
}

impl Events {
    /// Takes the next bytes; returns the data of every event they complete.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        let lines = self.lines.feed(bytes);
        let mut done = Vec::new();
        for line in lines {
            self.line(&line, &mut done);
        }
        done
    }

    /// The end of the stream: an event left without its blank line still counts.
    pub(super) fn finish(&mut self) -> Vec<String> {
        let mut done = Vec::new();
        if let Some(line) = self.lines.finish() {
            self.line(&line, &mut done);
        }
        done.extend(self.dispatch());
        done
    }

    fn line(&mut self, line: &[u8], done: &mut Vec<String>) {
        let text = String::from_utf8_lossy(line);
        let text = text.strip_suffix('\r').unwrap_or(&text);
        if text.is_empty() {
            done.extend(self.dispatch());
            return;
        }
        let value = match text.strip_prefix("data") {
            Some("") => "",
            Some(rest) => match rest.strip_prefix(':') {
                Some(value) => value.strip_prefix(' ').unwrap_or(value),
                None => return,
            },
            None => return,
        };
        // As the specification says: each value and a line break; the last break dropped
        // when the event is dispatched.
        let data = self.data.get_or_insert_with(String::new);
        if data.len() + value.len() > MAX_LINE {
            // An event too large to read is dropped, as a line would be.
            self.data = None;
            return;
        }
        data.push_str(value);
        data.push('\n');
    }

    fn dispatch(&mut self) -> Option<String> {
        self.data.take().map(|mut data| {
            data.pop();
            data
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_their_data_lines_joined() {
        let mut events = Events::default();
        let stream =
            b": comment\n\nevent: message\nid: 1\ndata: {\"a\":\r\ndata:  1}\n\ndata: last";
        let (head, tail) = stream.split_at(17);
        let mut got = events.feed(head);
        got.extend(events.feed(tail));
        got.extend(events.finish());
        assert_eq!(got, ["{\"a\":\n 1}", "last"]);
    }
}
