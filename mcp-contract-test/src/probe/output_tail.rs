//! The last lines a server wrote, for error messages: one bounded buffer shared by the stdio
//! transport (the server's stderr) and by a server started for an HTTP probe (its stdout and
//! stderr, merged line by line).
//!
//! Memory stays bounded however much a server writes: [`LINES`] lines of at most [`LINE_BYTES`]
//! bytes each, plus one unfinished line per pipe. Each pipe keeps its own unfinished line, so
//! that two pipes writing at once never splice halves of their lines together.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::{Mutex, PoisonError};

/// Lines kept.
pub(super) const LINES: usize = 20;
/// Bytes kept of one line; a longer one ends with [`CUT`].
pub(super) const LINE_BYTES: usize = 500;
/// Bytes of one line a ready-line check sees: a ready line is short, but may follow a long
/// log prefix (a timestamp, a logger name), so more than is kept for display.
const MATCH_BYTES: usize = 4096;
/// What ends a line that was cut.
const CUT: &str = " …(cut)";

/// Which pipe some output came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pipe {
    /// The server's stdout (only read for a started HTTP server: stdio's stdout is the protocol).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Stdout,
    /// The server's stderr.
    Stderr,
}

/// The last lines of a server's output.
#[derive(Debug, Default)]
pub(super) struct OutputTail {
    lines: VecDeque<String>,
    /// The unfinished line of each pipe (stdout, stderr).
    partial: [Partial; 2],
}

#[derive(Debug, Default)]
struct Partial {
    bytes: Vec<u8>,
    /// Bytes past [`MATCH_BYTES`] were dropped.
    cut: bool,
}

impl OutputTail {
    /// Adds bytes read from `pipe`. `on_line` sees every line this completes (its first 4 KiB,
    /// lossy UTF-8, without the line break).
    pub(super) fn push(&mut self, pipe: Pipe, bytes: &[u8], on_line: &mut dyn FnMut(&str)) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let (piece, ends_line) = match rest.iter().position(|&b| b == b'\n') {
                Some(at) => (&rest[..at], true),
                None => (rest, false),
            };
            let partial = &mut self.partial[pipe as usize];
            let room = MATCH_BYTES.saturating_sub(partial.bytes.len());
            if piece.len() > room {
                partial.cut = true;
            }
            partial
                .bytes
                .extend_from_slice(&piece[..piece.len().min(room)]);
            if ends_line {
                self.finish_line(pipe, on_line);
                rest = &rest[piece.len() + 1..];
            } else {
                rest = &[];
            }
        }
    }

    /// Ends `pipe`'s output: its unfinished line, if any, becomes a line.
    pub(super) fn finish(&mut self, pipe: Pipe, on_line: &mut dyn FnMut(&str)) {
        if !self.partial[pipe as usize].bytes.is_empty() {
            self.finish_line(pipe, on_line);
        }
    }

    fn finish_line(&mut self, pipe: Pipe, on_line: &mut dyn FnMut(&str)) {
        let partial = std::mem::take(&mut self.partial[pipe as usize]);
        on_line(String::from_utf8_lossy(&partial.bytes).trim_end_matches('\r'));
        if self.lines.len() == LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(render(&partial));
    }

    /// The last lines, unfinished ones last (raw text: escaped when displayed).
    pub(super) fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.lines.iter().cloned().collect();
        for partial in &self.partial {
            if !partial.bytes.is_empty() {
                lines.push(render(partial));
            }
        }
        let extra = lines.len().saturating_sub(LINES);
        lines.drain(..extra);
        lines
    }
}

/// One line for display: at most [`LINE_BYTES`], cut at a character boundary.
fn render(partial: &Partial) -> String {
    let bytes = &partial.bytes;
    let mut end = bytes.len().min(LINE_BYTES);
    // Back off to the start of a UTF-8 character rather than show half of one as U+FFFD.
    while end < bytes.len() && end > 0 && (bytes[end] & 0b1100_0000) == 0b1000_0000 {
        end -= 1;
    }
    let mut line = String::from_utf8_lossy(&bytes[..end])
        .trim_end_matches('\r')
        .to_owned();
    if partial.cut || end < bytes.len() {
        line.push_str(CUT);
    }
    line
}

/// Reads `pipe` to its end into `tail`; `on_line` sees each completed line. Meant for a thread
/// of its own: it returns when the pipe closes (or fails).
pub(super) fn drain(
    mut pipe: impl Read,
    tail: &Mutex<OutputTail>,
    which: Pipe,
    mut on_line: impl FnMut(&str),
) {
    let mut chunk = [0u8; 8192];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => tail.lock().unwrap_or_else(PoisonError::into_inner).push(
                which,
                &chunk[..n],
                &mut on_line,
            ),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    tail.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .finish(which, &mut on_line);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ignore(_: &str) {}

    #[test]
    fn keeps_the_last_lines_each_capped() {
        let mut tail = OutputTail::default();
        for i in 0..100 {
            tail.push(Pipe::Stderr, format!("line {i}\n").as_bytes(), &mut ignore);
        }
        tail.push(Pipe::Stderr, &vec![b'x'; 10_000], &mut ignore);
        tail.push(Pipe::Stderr, b"yyy\r\npartial", &mut ignore);
        let lines = tail.lines();
        assert_eq!(lines.len(), LINES);
        assert_eq!(lines[LINES - 3], "line 99");
        let long = &lines[LINES - 2];
        assert!(long.starts_with("xxx") && long.ends_with(CUT), "{long}");
        assert_eq!(long.len(), LINE_BYTES + CUT.len());
        assert_eq!(lines[LINES - 1], "partial");
        assert!(tail.partial[Pipe::Stderr as usize].bytes.capacity() <= 4 * MATCH_BYTES);
    }

    #[test]
    fn a_line_split_across_chunks_is_one_line_and_pipes_never_mix() {
        let mut tail = OutputTail::default();
        let mut seen = Vec::new();
        let mut record = |line: &str| seen.push(line.to_owned());
        tail.push(Pipe::Stdout, b"hel", &mut record);
        tail.push(Pipe::Stderr, b"warn", &mut record);
        tail.push(Pipe::Stdout, b"lo\nwor", &mut record);
        tail.push(Pipe::Stderr, b"ing\n", &mut record);
        tail.push(Pipe::Stdout, b"ld\n", &mut record);
        assert_eq!(seen, ["hello", "warning", "world"]);
        assert_eq!(tail.lines(), ["hello", "warning", "world"]);
    }

    #[test]
    fn a_cut_line_ends_at_a_character_boundary_and_long_lines_still_match() {
        let mut tail = OutputTail::default();
        let mut text = "é".repeat(LINE_BYTES);
        text.push_str(" ready at http://x\n");
        let mut matched = false;
        tail.push(Pipe::Stdout, text.as_bytes(), &mut |line: &str| {
            matched |= line.contains("ready at")
        });
        assert!(
            matched,
            "a ready line past the displayed part is still seen"
        );
        let line = &tail.lines()[0];
        assert!(line.ends_with(CUT), "{line}");
        assert!(!line.contains('\u{fffd}'), "{line}");
    }

    #[test]
    fn drain_reads_to_the_end_and_keeps_an_unfinished_last_line() {
        let tail = Mutex::new(OutputTail::default());
        let mut seen = Vec::new();
        drain(&b"one\ntwo"[..], &tail, Pipe::Stdout, |line| {
            seen.push(line.to_owned())
        });
        assert_eq!(seen, ["one", "two"]);
        assert_eq!(tail.lock().unwrap().lines(), ["one", "two"]);
    }
}
