//! The Python interpreter the fixture servers run on: the machine's `python3` (stdlib-only
//! fixtures), or a virtual environment under `target/test-tools/` with the pinned packages of
//! `tests/workspace/python-requirements.txt` (the third-party MCP SDK), which ignores what is
//! installed system-wide.

use crate::tools::{dir, locked};
use crate::Missing;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The pinned packages of the virtual environment (every package, dependencies included,
/// installed with `--no-deps`: the same set on every machine).
pub const REQUIREMENTS: &str = include_str!("../python-requirements.txt");

/// The machine's `python3`, resolved once to the interpreter's own path (version-manager shims
/// such as pyenv's would otherwise cost a shell script per fixture start).
pub fn system() -> Result<&'static Path, Missing> {
    static PYTHON: OnceLock<Result<PathBuf, Missing>> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let fix = "install Python 3 (Debian: apt-get install python3)";
            let out = Command::new("python3")
                .args(["-c", "import sys; print(sys.executable)"])
                .stdin(Stdio::null())
                .output()
                .map_err(|e| Missing::new("python3", format!("cannot run python3: {e}"), fix))?;
            let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
            if !out.status.success() || path.is_empty() {
                return Err(Missing::new(
                    "python3",
                    format!(
                        "python3 failed: {}",
                        String::from_utf8_lossy(&out.stderr).trim()
                    ),
                    fix,
                ));
            }
            Ok(PathBuf::from(path))
        })
        .as_deref()
        .map_err(Clone::clone)
}

/// [`system`] as a string, for command lines.
pub fn system_str() -> Result<&'static str, Missing> {
    static TEXT: OnceLock<Result<String, Missing>> = OnceLock::new();
    TEXT.get_or_init(|| system().map(|p| p.display().to_string()))
        .as_deref()
        .map_err(Clone::clone)
}

/// The interpreter of a virtual environment with the pinned packages (the Python MCP SDK and its
/// dependencies), made once per machine under `target/test-tools/`.
pub fn with_mcp() -> Result<&'static Path, Missing> {
    static VENV: OnceLock<Result<PathBuf, Missing>> = OnceLock::new();
    VENV.get_or_init(provision_venv)
        .as_deref()
        .map_err(Clone::clone)
}

/// The reference time server (`mcp-server-time`, pinned in the same environment as the MCP SDK):
/// its console script, run as `uvx mcp-server-time` runs it.
pub fn time_server() -> Result<PathBuf, Missing> {
    let interpreter = with_mcp()?;
    let script = interpreter.with_file_name("mcp-server-time");
    if script.is_file() {
        Ok(script)
    } else {
        Err(Missing::new(
            "mcp-server-time",
            format!(
                "{} is missing from the provisioned environment",
                script.display()
            ),
            format!(
                "remove {} and run again (it is provisioned from tests/workspace/python-requirements.txt)",
                interpreter
                    .parent()
                    .and_then(Path::parent)
                    .unwrap_or(interpreter)
                    .display()
            ),
        ))
    }
}

fn provision_venv() -> Result<PathBuf, Missing> {
    let python = system()?;
    // A new set of pins is a new folder: an old environment is never half-upgraded.
    let venv = dir().join(format!("python-{:016x}", fnv(REQUIREMENTS)));
    let interpreter = venv.join("bin/python");
    let marker = venv.join(".provisioned");
    let ready = || marker.is_file().then(|| interpreter.clone());
    let fix = format!(
        "let the tests reach PyPI once (they install into {}), or make that environment by hand: \
         python3 -m venv DIR && DIR/bin/pip install --no-deps -r tests/workspace/python-requirements.txt",
        venv.display()
    );
    locked("python", ready, || {
        eprintln!(
            "provisioning a Python environment with the MCP SDK into {} (once per target folder)",
            venv.display()
        );
        let _ = std::fs::remove_dir_all(&venv);
        run(
            Command::new(python).args(["-m", "venv"]).arg(&venv),
            "python3 -m venv",
            "install the venv module (Debian: apt-get install python3-venv)",
        )?;
        let requirements = venv.join("requirements.txt");
        std::fs::write(&requirements, REQUIREMENTS)
            .map_err(|e| Missing::new("a Python environment", e.to_string(), fix.clone()))?;
        run(
            Command::new(&interpreter)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "--no-input",
                    "--no-deps",
                    "-r",
                ])
                .arg(&requirements)
                .env("PIP_CONFIG_FILE", "/dev/null"),
            "pip install",
            &fix,
        )?;
        std::fs::write(&marker, REQUIREMENTS)
            .map_err(|e| Missing::new("a Python environment", e.to_string(), fix.clone()))
    })
}

fn run(command: &mut Command, what: &str, fix: &str) -> Result<(), Missing> {
    let out = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| Missing::new("a Python environment", format!("{what}: {e}"), fix))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(Missing::new(
            "a Python environment",
            format!(
                "{what} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            fix,
        ))
    }
}

/// FNV-1a, for naming the environment after its pins.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
