//! The values of literal tokens, read from their source text as rustc reads them (and as
//! syn's `LitStr::value` and `LitInt::base10_digits` did).
//!
//! The compiler's lexer has already rejected malformed literals (an unknown escape, a bare
//! carriage return, `\x80` in a string), so these functions only meet well-formed ones; they
//! still return `None` rather than panic on anything else.

/// What a literal token is, as far as the attribute cares.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// A string literal (`"…"`, `r"…"`, `r#"…"#`), unescaped; its suffix, if any, ignored.
    Str(String),
    /// An integer literal: its value in decimal digits (`0x1E` → `30`, `1_000u64` →
    /// `1000`, `-5` → `-5`), what `LitInt::base10_digits` gives.
    Int(String),
    /// Anything else: a byte string, C string, character, float.
    Other,
}

/// Classifies a literal by its source text.
pub(crate) fn value(repr: &str) -> Value {
    match repr.as_bytes().first() {
        Some(b'"') => cooked_string(&repr[1..]).map_or(Value::Other, Value::Str),
        Some(b'r') => raw_string(&repr[1..]).map_or(Value::Other, Value::Str),
        Some(b'0'..=b'9' | b'-') => int_digits(repr).map_or(Value::Other, Value::Int),
        _ => Value::Other,
    }
}

/// The contents of `"…"` (after the opening quote), unescaped.
fn cooked_string(mut s: &str) -> Option<String> {
    let mut content = String::new();
    loop {
        let mut chars = s.chars();
        let ch = match chars.next()? {
            '"' => return Some(content),
            '\\' => {
                let escape = chars.next()?;
                s = chars.as_str();
                match escape {
                    'x' => {
                        let byte = hex_value(s.get(..2)?)?;
                        s = &s[2..];
                        if byte > 0x7F {
                            return None;
                        }
                        char::from(byte as u8)
                    }
                    'u' => {
                        let (ch, rest) = unicode_escape(s)?;
                        s = rest;
                        ch
                    }
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    '\\' => '\\',
                    '0' => '\0',
                    '\'' => '\'',
                    '"' => '"',
                    // A line continuation: the newline and the whitespace after it vanish.
                    '\n' | '\r' => {
                        s = s.trim_start_matches([' ', '\t', '\n', '\r']);
                        continue;
                    }
                    _ => return None,
                }
            }
            '\r' => {
                // Only in a CRLF pair, which the lexer has already made `\n`.
                s = chars.as_str().strip_prefix('\n')?;
                '\n'
            }
            ch => {
                s = chars.as_str();
                ch
            }
        };
        content.push(ch);
    }
}

/// `{1F600}` (after `\u`): the character and the rest. Up to six hex digits, `_` allowed
/// after the first.
fn unicode_escape(s: &str) -> Option<(char, &str)> {
    let s = s.strip_prefix('{')?;
    let end = s.find('}')?;
    let digits: String = s[..end].chars().filter(|c| *c != '_').collect();
    if s.starts_with('_') || digits.is_empty() || digits.len() > 6 {
        return None;
    }
    let ch = char::from_u32(hex_value(&digits)?)?;
    Some((ch, &s[end + 1..]))
}

/// The value of hex digits (at most six: `\x` has two, `\u{…}` up to six); `None` if one
/// is not a hex digit.
fn hex_value(digits: &str) -> Option<u32> {
    let mut value = 0;
    for c in digits.chars() {
        value = value * 16 + c.to_digit(16)?;
    }
    Some(value)
}

/// The contents of `#…#"…"#…#` (after the `r`): as written, nothing unescaped.
fn raw_string(s: &str) -> Option<String> {
    let hashes = s.bytes().take_while(|b| *b == b'#').count();
    let body = s[hashes..].strip_prefix('"')?;
    let close = body.rfind('"')?;
    let after = &body[close + 1..];
    if after.len() < hashes || !after.as_bytes()[..hashes].iter().all(|b| *b == b'#') {
        return None;
    }
    Some(body[..close].to_owned())
}

/// The decimal digits of an integer literal (`-` kept), its suffix (`u8`, `usize`) dropped;
/// `None` for a float (`1.5`, `1e3`).
pub(crate) fn int_digits(repr: &str) -> Option<String> {
    let (negative, s) = match repr.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, repr),
    };
    let (base, digits) = match s.get(..2) {
        Some("0x") => (16, &s[2..]),
        Some("0o") => (8, &s[2..]),
        Some("0b") => (2, &s[2..]),
        _ if s.starts_with(|c: char| c.is_ascii_digit()) => (10, s),
        _ => return None,
    };
    // Little-endian decimal digits: the value may not fit any integer type.
    let mut value: Vec<u8> = Vec::new();
    let mut has_digit = false;
    let mut suffix = "";
    for (i, c) in digits.char_indices() {
        let digit = match c {
            '_' => continue,
            '.' if base == 10 => return None,
            'e' | 'E' if base == 10 => {
                if is_exponent(&digits[i + 1..]) {
                    return None;
                }
                suffix = &digits[i..];
                break;
            }
            _ => match c.to_digit(if base == 16 { 16 } else { 10 }) {
                Some(d) => d,
                None => {
                    suffix = &digits[i..];
                    break;
                }
            },
        };
        if digit >= base {
            return None;
        }
        has_digit = true;
        times_plus(&mut value, base, digit);
    }
    if !has_digit || !(suffix.is_empty() || ident_like(suffix)) {
        return None;
    }
    let text: String = value.iter().rev().map(|d| char::from(b'0' + d)).collect();
    let text = match text.trim_start_matches('0') {
        "" => "0",
        digits => digits,
    };
    Some(if negative {
        format!("-{text}")
    } else {
        text.to_owned()
    })
}

/// After the `e` of `1e…`: whether it is an exponent (the literal a float) rather than the
/// start of a suffix (`1em`); as syn decides.
fn is_exponent(rest: &str) -> bool {
    let mut has_exp = false;
    for (i, b) in rest.bytes().enumerate() {
        match b {
            b'_' => {}
            b'-' | b'+' => return true,
            b'0'..=b'9' => has_exp = true,
            _ => return has_exp && ident_like(&rest[i..]),
        }
    }
    has_exp
}

/// Whether a suffix reads as an identifier (what syn's `xid_ok` asks; the lexer has already
/// made every suffix one).
fn ident_like(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

/// `value = value * base + digit`, on little-endian decimal digits.
fn times_plus(value: &mut Vec<u8>, base: u32, digit: u32) {
    let mut carry = digit;
    for d in value.iter_mut() {
        let n = u32::from(*d) * base + carry;
        *d = (n % 10) as u8;
        carry = n / 10;
    }
    while carry > 0 {
        value.push((carry % 10) as u8);
        carry /= 10;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(repr: &str) -> String {
        match value(repr) {
            Value::Str(s) => s,
            other => panic!("{repr} is not a string literal: {other:?}"),
        }
    }

    // Each right-hand side is a literal rustc itself unescaped: the oracle.
    #[test]
    fn escapes_read_as_rustc_reads_them() {
        assert_eq!(string(r#""plain""#), "plain");
        assert_eq!(string(r#""""#), "");
        assert_eq!(
            string(r#""\n \r \t \\ \0 \' \" \x7F \x41 \u{1F600} \u{10_FFFF} \u{0}""#),
            "\n \r \t \\ \0 \' \" \x7F \x41 \u{1F600} \u{10_FFFF} \u{0}"
        );
        assert_eq!(string(r#""é ☃ 𝄞 \u{e9}""#), "é ☃ 𝄞 \u{e9}");
        assert_eq!(string(r#""\\d{4} => [date]""#), "\\d{4} => [date]");
    }

    #[test]
    fn a_line_continuation_drops_the_newline_and_the_indent() {
        assert_eq!(
            string("\"cont \\\n         inued\""),
            "cont \
         inued"
        );
        // Blank lines too (rustc warns about skipping several lines, so no oracle literal).
        assert_eq!(string("\"a \\\n\n \t x\""), "a x");
        assert_eq!(
            string("\"a\\\n\""),
            "a\
"
        );
        // A newline that is not escaped stays.
        assert_eq!(
            string("\"a\n  b\""),
            "a
  b"
        );
    }

    #[test]
    fn raw_strings_are_taken_as_written() {
        assert_eq!(string(r#"r"raw \n string""#), r"raw \n string");
        assert_eq!(string(r###"r#"say "hi""#"###), r#"say "hi""#);
        assert_eq!(string(r####"r##"a "# b"##"####), r##"a "# b"##);
        assert_eq!(string(r#"r"""#), "");
    }

    #[test]
    fn a_suffix_on_a_string_is_ignored_as_syn_did() {
        // rustc rejects the suffix where the literal is used, in the generated code.
        assert_eq!(string(r#""x"suffix"#), "x");
        assert_eq!(string(r##"r#"x"#suffix"##), "x");
    }

    #[test]
    fn byte_c_char_and_float_literals_are_not_strings() {
        for repr in [
            r#"b"x""#, r#"br"x""#, r#"c"x""#, r#"cr"x""#, "'x'", "b'x'", "1.5", "1e3", "1.0f64",
        ] {
            assert_eq!(value(repr), Value::Other, "{repr}");
        }
    }

    #[test]
    fn integers_read_as_base10_digits() {
        let int = |repr: &str| match value(repr) {
            Value::Int(digits) => digits,
            other => panic!("{repr}: {other:?}"),
        };
        assert_eq!(int("30"), "30");
        assert_eq!(int("1_000"), "1000");
        assert_eq!(int("30u8"), "30");
        assert_eq!(int("300u8"), "300");
        assert_eq!(int("30u64"), "30");
        assert_eq!(int("2_00usize"), "200");
        assert_eq!(int("0x1E"), "30");
        assert_eq!(int("0xffu8"), "255");
        assert_eq!(int("0o17"), "15");
        assert_eq!(int("0b101"), "5");
        assert_eq!(int("0"), "0");
        assert_eq!(int("000"), "0");
        assert_eq!(int("007"), "7");
        assert_eq!(int("-5"), "-5");
        assert_eq!(int("99999999999999999999"), "99999999999999999999");
        assert_eq!(int("0xFFFFFFFFFFFFFFFFFF"), "4722366482869645213695");
        // `e` starts a suffix unless digits follow.
        assert_eq!(int("1em"), "1");
        assert_eq!(int("1_u32"), "1");
    }

    #[test]
    fn base10_parse_fails_as_syn_said() {
        // `LitInt::base10_parse` was `str::parse` on these digits: the same messages.
        let parse = |repr: &str| {
            int_digits(repr)
                .unwrap()
                .parse::<u64>()
                .map_err(|e| e.to_string())
        };
        assert_eq!(parse("30u8"), Ok(30));
        assert_eq!(parse("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            parse("18446744073709551616").unwrap_err(),
            "number too large to fit in target type"
        );
        assert_eq!(parse("-5").unwrap_err(), "invalid digit found in string");
        assert_eq!(parse("-0").unwrap_err(), "invalid digit found in string");
    }

    #[test]
    fn not_integers() {
        for repr in ["1.5", "1e3", "1E+3", "1e-3", "1.", "0x", "x1", "\"1\""] {
            assert!(!matches!(value(repr), Value::Int(_)), "{repr}");
        }
    }
}
