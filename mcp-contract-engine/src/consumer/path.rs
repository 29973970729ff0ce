//! Field paths inside a tool's `structuredContent`, as a usage file writes them: `total`,
//! `items[].id`, `meta.labels` — the spelling of the engine's change paths, so that a finding
//! and the usage file name a field the same way.
//!
//! A property name holding `.`, `[`, `]` or `\` is written with a backslash before each
//! (`a\.b` is the one property `a.b`), so every path reads back as the segments it was made of.

use std::fmt;

/// One step of a path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Segment {
    /// A property of an object.
    Key(String),
    /// Every element of an array (`[]`).
    Each,
}

/// A path from the root of a value to one of its fields. Ordered segment by segment, so a
/// usage file lists a field right after its parent.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FieldPath(Vec<Segment>);

/// Why a text is not a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathError(String);

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PathError {}

impl FieldPath {
    /// The path of these segments.
    pub fn new(segments: Vec<Segment>) -> FieldPath {
        FieldPath(segments)
    }

    /// Its segments, from the root.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// Whether it is the root itself (no segment).
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// The first `len` segments.
    pub fn prefix(&self, len: usize) -> FieldPath {
        FieldPath(self.0[..len.min(self.0.len())].to_vec())
    }

    /// This path one step further.
    pub fn child(&self, segment: Segment) -> FieldPath {
        let mut segments = self.0.clone();
        segments.push(segment);
        FieldPath(segments)
    }

    /// Reads a path as [`fmt::Display`] writes it.
    ///
    /// # Errors
    ///
    /// An empty path, an empty property name (`a..b`, `.a`), `[` not followed by `]`, a
    /// property name right after `[]` without a `.`, or a trailing `\`.
    pub fn parse(text: &str) -> Result<FieldPath, PathError> {
        if text.is_empty() {
            return Err(PathError(
                "a field path is not empty: name the field".to_owned(),
            ));
        }
        let mut segments = Vec::new();
        let mut key = String::new();
        // Whether the text so far ends a segment: a `.` or `[]` may follow.
        let mut after_each = false;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(escaped) => key.push(escaped),
                    None => {
                        return Err(PathError(format!(
                            "`{text}` ends with `\\`: a backslash escapes the character after it"
                        )))
                    }
                },
                '.' => {
                    if key.is_empty() && !after_each {
                        return Err(PathError(format!(
                            "`{text}` has an empty property name before a `.`"
                        )));
                    }
                    if !key.is_empty() {
                        segments.push(Segment::Key(std::mem::take(&mut key)));
                    }
                    after_each = false;
                    // A `.` must be followed by a name.
                    if chars
                        .clone()
                        .next()
                        .is_none_or(|next| next == '.' || next == '[')
                    {
                        return Err(PathError(format!(
                            "`{text}` has an empty property name after a `.`"
                        )));
                    }
                }
                '[' => {
                    if chars.next() != Some(']') {
                        return Err(PathError(format!(
                            "`{text}`: `[` is only written as `[]` (every element of an array); \
                             write `\\[` for the character"
                        )));
                    }
                    if !key.is_empty() {
                        segments.push(Segment::Key(std::mem::take(&mut key)));
                    }
                    segments.push(Segment::Each);
                    after_each = true;
                }
                ']' => {
                    return Err(PathError(format!(
                        "`{text}`: `]` without `[`; write `\\]` for the character"
                    )))
                }
                other => {
                    if after_each {
                        return Err(PathError(format!(
                            "`{text}`: a property after `[]` is written `[].name`"
                        )));
                    }
                    key.push(other);
                }
            }
        }
        if !key.is_empty() {
            segments.push(Segment::Key(key));
        }
        Ok(FieldPath(segments))
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Each => f.write_str("[]")?,
                Segment::Key(key) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    for c in key.chars() {
                        if matches!(c, '.' | '[' | ']' | '\\') {
                            f.write_str("\\")?;
                        }
                        write!(f, "{c}")?;
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Segment {
        Segment::Key(k.to_owned())
    }

    #[test]
    fn paths_read_back_as_written() {
        for (text, segments) in [
            ("total", vec![key("total")]),
            ("items[].id", vec![key("items"), Segment::Each, key("id")]),
            ("[].a", vec![Segment::Each, key("a")]),
            ("m[][]", vec![key("m"), Segment::Each, Segment::Each]),
            (r"a\.b.c", vec![key("a.b"), key("c")]),
            (r"x\[\]\\", vec![key(r"x[]\")]),
        ] {
            let path = FieldPath::parse(text).unwrap();
            assert_eq!(path.segments(), segments, "{text}");
            assert_eq!(path.to_string(), text);
        }
    }

    #[test]
    fn malformed_paths_say_what_to_write() {
        for text in ["", "a..b", ".a", "a.", "a[0]", "a]", "a[]b", "a\\"] {
            assert!(FieldPath::parse(text).is_err(), "{text}");
        }
        let error = FieldPath::parse("a[0]").unwrap_err().to_string();
        assert!(error.contains("`[]`"), "{error}");
    }
}
