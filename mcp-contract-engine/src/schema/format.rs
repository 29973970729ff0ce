//! `format` keywords the engine can check a string against, and a string of each: enough to
//! decide whether a value is accepted, or to show one that is. Any other format is undecided.

/// Whether `text` is of `format`: `None` for a format not read here, or a string it cannot
/// judge (an address that is neither plainly valid nor plainly not).
pub fn accepts(format: &str, text: &str) -> Option<bool> {
    match format {
        "date" => Some(full_date(text)),
        "time" => Some(full_time(text)),
        "date-time" => Some(
            text.len() > 11
                && matches!(text.as_bytes()[10], b'T' | b't')
                && full_date(&text[..10])
                && full_time(&text[11..]),
        ),
        "uuid" => Some(uuid(text)),
        "ipv4" => Some(ipv4(text)),
        "email" => email(text),
        "uri" => uri(text),
        _ => None,
    }
}

/// A string of `format`, for the formats [`accepts`] reads.
pub fn sample(format: &str) -> Option<&'static str> {
    Some(match format {
        "date" => "2024-01-31",
        "time" => "12:00:00Z",
        "date-time" => "2024-01-31T12:00:00Z",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "ipv4" => "192.0.2.1",
        "email" => "user@example.com",
        "uri" => "https://example.com/",
        _ => return None,
    })
}

fn digits(text: &str, count: usize) -> Option<u32> {
    (text.len() == count && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

/// RFC 3339 `full-date`, days checked against the month (and leap years).
fn full_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return false;
    };
    let (Some(year), Some(month), Some(day)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// RFC 3339 `full-time`: `hh:mm:ss[.frac]` and an offset (`Z` or `±hh:mm`).
fn full_time(text: &str) -> bool {
    let (clock, offset) = match text.find(['Z', 'z', '+', '-']) {
        Some(at) => text.split_at(at),
        None => return false,
    };
    let offset_ok = matches!(offset, "Z" | "z")
        || (offset.len() == 6
            && offset.as_bytes()[3] == b':'
            && digits(&offset[1..3], 2).is_some_and(|h| h < 24)
            && digits(&offset[4..6], 2).is_some_and(|m| m < 60));
    let (whole, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let parts: Vec<&str> = whole.split(':').collect();
    let [h, m, s] = parts.as_slice() else {
        return false;
    };
    offset_ok
        && !fraction.is_empty()
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && digits(h, 2).is_some_and(|h| h < 24)
        && digits(m, 2).is_some_and(|m| m < 60)
        && digits(s, 2).is_some_and(|s| s <= 60)
}

fn uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn ipv4(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|v| v <= 255)
        })
}

/// Plainly an address (`local@domain.tld` of common characters), plainly not (no `@`), or
/// undecided (the full grammar allows quoted parts and address literals).
fn email(text: &str) -> Option<bool> {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return Some(false);
    };
    let plain_local = !local.is_empty()
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._%+-".contains(&b));
    let plain_domain = domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && domain
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-".contains(&b));
    (plain_local && plain_domain).then_some(true)
}

/// Plainly a URI (a scheme, `:`, then no space or control character), plainly not (no
/// scheme), or undecided.
fn uri(text: &str) -> Option<bool> {
    let Some((scheme, rest)) = text.split_once(':') else {
        return Some(false);
    };
    let scheme_ok = scheme
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic())
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+.-".contains(&b));
    if !scheme_ok {
        return Some(false);
    }
    (!rest.is_empty() && rest.chars().all(|c| !c.is_whitespace() && !c.is_control()))
        .then_some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_accept_their_samples_and_refuse_plain_words() {
        for format in ["date", "time", "date-time", "uuid", "ipv4", "email", "uri"] {
            let sample = sample(format).expect(format);
            assert_eq!(accepts(format, sample), Some(true), "{format}");
            assert_eq!(accepts(format, "example"), Some(false), "{format}");
        }
        assert_eq!(accepts("date", "2024-02-30"), Some(false));
        assert_eq!(accepts("date", "2024-02-29"), Some(true));
        assert_eq!(accepts("date", "YYYY-MM-DD"), Some(false));
        assert_eq!(
            accepts("date-time", "2024-01-31t01:02:03.5+01:00"),
            Some(true)
        );
        assert_eq!(accepts("ipv4", "256.1.1.1"), Some(false));
        assert_eq!(accepts("email", "\"odd\"@example.com"), None);
        assert_eq!(accepts("hostname", "example.com"), None);
        assert_eq!(sample("hostname"), None);
    }
}
