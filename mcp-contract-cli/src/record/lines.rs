//! Lines for the observer, cut from bytes as they are forwarded: the stdio transport sends one
//! JSON-RPC message per line. Forwarding never waits for a line to end; only the copy read on
//! the side is cut, and a line longer than the observer reads is skipped (and counted).

/// The longest line the observer reads.
pub(super) const MAX_LINE: usize = 64 * 1024 * 1024;

/// Cuts a byte stream into lines.
#[derive(Default)]
pub(super) struct Lines {
    current: Vec<u8>,
    /// The current line grew past [`MAX_LINE`]: the rest of it is dropped.
    skipping: bool,
    /// How many lines were too long to read.
    pub(super) skipped: usize,
}

impl Lines {
    /// Takes the next bytes; returns every line they complete (without its line break).
    pub(super) fn feed(&mut self, mut bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut done = Vec::new();
        while let Some(end) = bytes.iter().position(|&b| b == b'\n') {
            self.push(&bytes[..end]);
            if let Some(line) = self.take() {
                done.push(line);
            }
            bytes = &bytes[end + 1..];
        }
        self.push(bytes);
        done
    }

    /// The last line, when the stream ended without a line break after it.
    pub(super) fn finish(&mut self) -> Option<Vec<u8>> {
        self.take().filter(|line| !line.is_empty())
    }

    fn push(&mut self, bytes: &[u8]) {
        if self.skipping {
            return;
        }
        if self.current.len() + bytes.len() > MAX_LINE {
            self.skipping = true;
            self.current = Vec::new();
            return;
        }
        self.current.extend_from_slice(bytes);
    }

    fn take(&mut self) -> Option<Vec<u8>> {
        if std::mem::take(&mut self.skipping) {
            self.skipped += 1;
            return None;
        }
        Some(std::mem::take(&mut self.current))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cut_wherever_the_bytes_break() {
        let mut lines = Lines::default();
        assert!(lines.feed(b"{\"a\"").is_empty());
        assert_eq!(
            lines.feed(b":1}\n{\"b\":2}\n{\"c"),
            [b"{\"a\":1}".to_vec(), b"{\"b\":2}".to_vec()]
        );
        assert_eq!(lines.feed(b"\":3}\r\n"), [b"{\"c\":3}\r".to_vec()]);
        assert_eq!(lines.feed(b"tail"), Vec::<Vec<u8>>::new());
        assert_eq!(lines.finish(), Some(b"tail".to_vec()));
        assert_eq!(lines.finish(), None);
    }

    #[test]
    fn a_line_too_long_to_read_is_skipped_and_counted() {
        let mut lines = Lines::default();
        let chunk = vec![b'x'; 1024 * 1024];
        for _ in 0..64 {
            assert!(lines.feed(&chunk).is_empty());
        }
        assert_eq!(lines.feed(b"y\n{}\n"), [b"{}".to_vec()]);
        assert_eq!(lines.skipped, 1);
    }
}
