//! `notes-server`: a small MCP server (stdio) for personal notes, published in two releases.
//!
//! `NOTES_SERVER_VERSION` selects the release: unset or `1` serves v1 (the baseline),
//! `2` serves v2, whose surface differs from v1 in one or more ways per change class (see
//! README.md). It exists so that `mcp-contract-test` has a real rmcp server to record and judge.
#![forbid(unsafe_code)]

use std::process::ExitCode;

use notes_server::{v1, v2, NotesServer};

/// The environment variable that selects the release.
const VERSION_VAR: &str = "NOTES_SERVER_VERSION";

/// Which release to serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Selected {
    /// Release 1, the baseline.
    V1,
    /// Release 2, with one or more changes of each class.
    V2,
}

/// Reads the release from the value of `NOTES_SERVER_VERSION` (`None` when unset).
fn select(value: Option<std::ffi::OsString>) -> Result<Selected, String> {
    let Some(raw) = value else {
        return Ok(Selected::V1);
    };
    match raw.to_str().map(str::trim) {
        Some("" | "1") => Ok(Selected::V1),
        Some("2") => Ok(Selected::V2),
        _ => Err(format!(
            "notes-server: {VERSION_VAR}={raw:?} is not a release of this server; \
             set it to 1 (the default) or 2"
        )),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let selected = match select(std::env::var_os(VERSION_VAR)) {
        Ok(s) => s,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let outcome = match selected {
        Selected::V1 => NotesServer::<v1::V1>::new().serve_stdio().await,
        Selected::V2 => NotesServer::<v2::V2>::new().serve_stdio().await,
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("notes-server: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_defaults_to_v1_and_rejects_unknown_releases() {
        assert_eq!(select(None), Ok(Selected::V1));
        assert_eq!(select(Some("".into())), Ok(Selected::V1));
        assert_eq!(select(Some("1".into())), Ok(Selected::V1));
        assert_eq!(select(Some(" 2\n".into())), Ok(Selected::V2));
        let err = select(Some("v2".into())).expect_err("v2 is not a release number");
        assert!(err.contains("NOTES_SERVER_VERSION=\"v2\""), "{err}");
        assert!(err.contains("set it to 1 (the default) or 2"), "{err}");
    }
}
