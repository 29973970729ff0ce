//! The fixture servers (`fixtures/servers/*.py`) and the recorded surfaces they serve
//! (`fixtures/surfaces/`).

use crate::{python, repo_path, Missing};
use std::path::PathBuf;

/// `fixtures/servers/<name>`.
pub fn server_script(name: &str) -> PathBuf {
    repo_path("fixtures/servers").join(name)
}

/// `fixtures/surfaces/<relative>`, e.g. `memory/2025.11.25.json`.
pub fn surface_path(relative: &str) -> PathBuf {
    repo_path("fixtures/surfaces").join(relative)
}

/// A recorded surface document.
pub fn surface_json(relative: &str) -> serde_json::Value {
    let path = surface_path(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The stdio fixture server (`surface_server.py`, stdlib only) serving a recorded surface: its
/// program (the machine's Python) and arguments, `--mode MODE` and `--marker MARKER` when given,
/// then `extra`.
pub fn surface_server(
    surface: &str,
    mode: Option<&str>,
    marker: Option<&str>,
    extra: &[&str],
) -> Result<(String, Vec<String>), Missing> {
    let python = python::system_str()?;
    let mut args = vec![
        server_script("surface_server.py").display().to_string(),
        surface_path(surface).display().to_string(),
    ];
    if let Some(mode) = mode {
        args.extend(["--mode".to_owned(), mode.to_owned()]);
    }
    if let Some(marker) = marker {
        args.extend(["--marker".to_owned(), marker.to_owned()]);
    }
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    Ok((python.to_owned(), args))
}

/// [`surface_server`] as one command line, each word quoted for POSIX-style splitting.
pub fn surface_server_line(
    surface: &str,
    mode: Option<&str>,
    marker: Option<&str>,
    extra: &[&str],
) -> Result<String, Missing> {
    let (program, args) = surface_server(surface, mode, marker, extra)?;
    Ok(std::iter::once(program)
        .chain(args)
        .map(|w| quote(&w))
        .collect::<Vec<_>>()
        .join(" "))
}

/// A word quoted for POSIX-style command-line splitting.
pub fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The third-party FastMCP server (`fixtures/servers/fastmcp_server.py`, streamable HTTP at
/// `/mcp`) on a free port, under `python_with_mcp` ([`python::with_mcp`]), in a controlled
/// environment; returns once it accepts connections (up to 30 seconds).
pub fn fastmcp(python_with_mcp: &std::path::Path) -> crate::process::Spawned {
    let port = crate::process::free_port();
    crate::process::spawn_listening(
        crate::command(python_with_mcp)
            .arg(server_script("fastmcp_server.py"))
            .arg(port.to_string()),
        port,
        "FastMCP",
        std::time::Duration::from_secs(30),
    )
}
