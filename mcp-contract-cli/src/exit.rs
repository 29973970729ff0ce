//! The exit codes of `mcp-contract`, stable and documented in `docs/cli.md`: defined here
//! once, for the binary and its reports.

use mcp_contract_test::_support::run::FailureKind;

/// Nothing fails.
pub const OK: u8 = 0;
/// At least one change fails under `--fail-on`.
pub const FAILING: u8 = 1;
/// Usage error or unreadable input (arguments, configuration, snapshots, surface files), or
/// no accepted contract to check against.
pub const USAGE: u8 = 2;
/// The server requires authentication (HTTP 401/403).
pub const AUTH: u8 = 3;
/// The server could not be started or reached, or did not answer as an MCP server.
pub const UNREACHABLE: u8 = 4;

/// The exit code of a suite that could not be judged.
pub fn of_failure(kind: FailureKind) -> u8 {
    match kind {
        FailureKind::AuthRequired => AUTH,
        FailureKind::Unreachable => UNREACHABLE,
        // A configuration that cannot be used, snapshots that cannot be read, no contract,
        // and any kind a newer library adds: the user's input to fix.
        _ => USAGE,
    }
}
