//! Server-sent events answering a POST, read on a thread of their own.
//!
//! A request's read timeout is fixed when ureq sends it, but the session waits for each answer
//! with a deadline of its own (shorter for `server/discover` in `auto`), and a missed deadline
//! must not break the stream. So a thread reads the stream (bounded by the probe's deadline,
//! given to the request) and hands each event's data over a bounded queue (`probe/queue.rs`,
//! the stdio transport's: `mpsc` would compile std's channel code again for this element type),
//! which the transport waits on for as long as the session asks. Reading to the end lets ureq
//! keep the connection for the next request.

use crate::probe::queue::{queue, Receiver, Sender};
use std::io::{self, BufRead, BufReader, Read};
use std::sync::mpsc::RecvTimeoutError;
use std::thread;
use std::time::Duration;

/// Events read ahead of the session: bounds memory when a server streams without pause.
const READ_AHEAD: usize = 64;

/// What the reading thread saw.
#[derive(Debug)]
pub(in crate::probe) enum Event {
    /// One event's data: its `data:` lines joined by line breaks.
    Data(String),
    /// The stream ended.
    End,
    /// One event is larger than the limit (in bytes).
    TooLarge(usize),
    /// Reading failed.
    Failed(ureq::Error),
}

/// An event stream being read.
pub(in crate::probe) struct EventStream {
    events: Receiver<Event>,
    /// The request it answers (for messages).
    pub(in crate::probe) method: String,
}

impl EventStream {
    /// Starts reading `body` on a thread; events larger than `limit` bytes end it.
    ///
    /// # Errors
    ///
    /// The thread cannot be started.
    pub(in crate::probe) fn start(
        body: ureq::Body,
        method: String,
        limit: usize,
    ) -> io::Result<EventStream> {
        let (sender, events) = queue(Some(READ_AHEAD));
        let reader = body.into_reader();
        // Detached: it ends with the stream, at the probe's deadline (the request's timeout),
        // or when the client shuts down; a send to a dropped receiver ends it too.
        thread::Builder::new()
            .name("mcp-probe-sse".into())
            .spawn(move || read_events(BufReader::new(reader), &sender, limit))?;
        Ok(EventStream { events, method })
    }

    /// The next event, waiting at most `wait`; `None` when the wait ran out.
    pub(in crate::probe) fn next(&self, wait: Duration) -> Option<Event> {
        match self.events.recv_timeout(wait) {
            Ok(event) => Some(event),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Event::End),
        }
    }
}

/// Reads events until the stream ends (or fails) or the receiver is gone.
fn read_events(mut reader: impl BufRead, events: &Sender<Event>, limit: usize) {
    let mut data = String::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut reader)
            .take(limit as u64 + 2)
            .read_until(b'\n', &mut line);
        let n = match read {
            Ok(n) => n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                let _ = events.send(Event::Failed(ureq::Error::from(error)));
                return;
            }
        };
        if line.len() > limit || data.len() + line.len() > limit {
            let _ = events.send(Event::TooLarge(limit));
            return;
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if n == 0 || text.is_empty() {
            // A blank line dispatches the event; the end of the stream dispatches one left
            // unterminated (lenient: some servers close right after the last data line).
            if !data.is_empty() && events.send(Event::Data(std::mem::take(&mut data))).is_err() {
                return;
            }
            if n == 0 {
                let _ = events.send(Event::End);
                return;
            }
            continue;
        }
        if let Some(value) = text.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(value.strip_prefix(' ').unwrap_or(value));
        } else if text == "data" {
            // A field name alone has an empty value.
            if !data.is_empty() {
                data.push('\n');
            }
        }
        // `event:`, `id:`, `retry:` and comments change nothing for a probe.
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events_of(text: &str, limit: usize) -> Vec<String> {
        let (sender, receiver) = queue(Some(100));
        read_events(text.as_bytes(), &sender, limit);
        drop(sender);
        let mut events = Vec::new();
        while let Some(event) = receiver.recv() {
            events.push(match event {
                Event::Data(data) => format!("data {data}"),
                Event::End => "end".to_owned(),
                Event::TooLarge(n) => format!("too large {n}"),
                Event::Failed(error) => format!("failed {error}"),
            });
        }
        events
    }

    #[test]
    fn events_are_their_data_lines_joined() {
        let stream = ": comment\n\nevent: message\nid: 1\ndata: {\"a\":\r\ndata:  1}\n\n\
                      data: last";
        assert_eq!(
            events_of(stream, 1000),
            ["data {\"a\":\n 1}", "data last", "end"]
        );
    }

    #[test]
    fn an_event_over_the_limit_ends_the_stream() {
        let stream = format!("data: {}\n\ndata: ok\n\n", "x".repeat(100));
        assert_eq!(events_of(&stream, 50), ["too large 50"]);
        let stream = format!("data: {0}\ndata: {0}\n\n", "x".repeat(30));
        assert_eq!(events_of(&stream, 50), ["too large 50"]);
    }
}
