//! The one place that reads the process environment and the clock: every variable a user can
//! set is read here, named in the crate docs' table.

use mcp_contract_engine::lint::allow::Date;

/// Today in UTC, from the system clock (1970-01-01 if the clock is before the epoch): the day an
/// allow-list entry's `expires` is compared with.
pub(crate) fn today() -> Date {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    Date::from_unix_days(i64::try_from(secs / 86_400).unwrap_or(0))
}
