//! The CLI as Python and Node users install it. `scripts/dist/local.sh` packages this build's
//! binary (the test build's: no second build), and the wheel and the npm packages are installed
//! into fresh environments with no registry reachable — pip with `--no-index`, uv `--offline`,
//! npm `--offline` against a registry address where nothing listens and an empty cache — then
//! run: `--version`, and a real `snapshot` and `check` of a fixture server, through the command
//! a user types (`mcp-contract-test`). The release path is checked on small stand-in binaries:
//! every channel carries the bytes of its archive, the archives are named as cargo-binstall's
//! metadata and the release workflow say, and a tampered archive is refused.

use super::BIN;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::repo_path;

/// The command the wheel and the npm packages install (never `mcp-contract`: PyPI's
/// `mcp-contract` is another tool, whose script a wheel of ours would overwrite).
const COMMAND: &str = "mcp-contract-test";

fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

fn text(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

fn python() -> &'static str {
    support::python::system_str().expect("python3, required by the test")
}

/// `scripts/dist/dist.py` with the machine's Python.
pub(super) fn dist_py() -> Command {
    let mut command = support::command(python());
    command.arg(repo_path("scripts/dist/dist.py"));
    command
}

/// The paths a packaging command printed, one a line; it must have succeeded.
fn printed_paths(output: &Output) -> Vec<PathBuf> {
    assert!(output.status.success(), "{}", text(output));
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(PathBuf::from)
        .collect()
}

/// What `scripts/dist/local.sh` made of this build's binary.
struct Local {
    wheel: PathBuf,
    npm_platform: PathBuf,
    npm_main: PathBuf,
}

/// `scripts/dist/local.sh --binary BIN`, its target folder in `dir`: three paths, one a line,
/// under `dir/dist/`.
fn local_packages(dir: &Path) -> Local {
    let output = support::command("bash")
        .arg(repo_path("scripts/dist/local.sh"))
        .args(["--binary", BIN])
        .env("CARGO_TARGET_DIR", dir)
        .output()
        .expect("bash runs");
    let paths = printed_paths(&output);
    assert_eq!(paths.len(), 3, "one path a line: {paths:?}");
    for path in &paths {
        assert!(path.is_file(), "{}", path.display());
        assert!(path.starts_with(dir.join("dist")), "{}", path.display());
    }
    Local {
        wheel: one_of(&paths, &|n| n.ends_with(".whl")).to_path_buf(),
        npm_platform: one_of(&paths, &|n| {
            n.starts_with("mcp-contract-test-cli-") && n.ends_with(".tgz")
        })
        .to_path_buf(),
        npm_main: one_of(&paths, &|n| {
            n == format!("mcp-contract-test-{}.tgz", version())
        })
        .to_path_buf(),
    }
}

fn fixture(surface: &str) -> Vec<String> {
    vec![
        python().to_owned(),
        repo_path("fixtures/servers/surface_server.py")
            .display()
            .to_string(),
        repo_path("fixtures/surfaces")
            .join(surface)
            .display()
            .to_string(),
    ]
}

/// A real use of an installed command (`run` gives it its arguments): `--version`; usage errors
/// name the command as typed; `snapshot` accepts a server; `check` passes against the same
/// release and fails (exit 1, a breaking change in the JSON report) against one that breaks it.
fn check_a_server(work: &Path, run: &dyn Fn(&[String]) -> Output) {
    let args = |words: &[&str], surface: Option<&str>| -> Vec<String> {
        let mut all: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        if let Some(surface) = surface {
            all.push("--".into());
            all.extend(fixture(surface));
        }
        all
    };
    let out = run(&args(&["--version"], None));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("mcp-contract {}", version())
    );
    let out = run(&args(&["check", "--no-such-flag"], None));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("Usage: {COMMAND} check")),
        "{}",
        text(&out)
    );

    let snaps = work.join("snaps").display().to_string();
    let out = run(&args(
        &["snapshot", "--dir", &snaps],
        Some("filesystem/0.6.2.json"),
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(std::fs::read_dir(&snaps).unwrap().count() > 3, "{snaps}");
    let out = run(&args(
        &["check", "--dir", &snaps, "--format", "json"],
        Some("filesystem/0.6.2.json"),
    ));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    assert_eq!(report["status"], "ok", "{report}");
    let out = run(&args(
        &["check", "--dir", &snaps, "--format", "json"],
        Some("filesystem/2026.8.31.json"),
    ));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    assert_eq!(report["status"], "fail", "{report}");
    assert!(
        report["summary"]["counts"]["breaking"]
            .as_u64()
            .unwrap_or(0)
            >= 1,
        "{report}"
    );
}

/// pip, in a fresh virtual environment, from the wheel file alone (`--no-index`: no registry,
/// no other folder of wheels). The environment's `bin/` gets `mcp-contract-test` and no
/// `mcp-contract`.
#[test]
fn the_wheel_installs_with_pip_offline_and_checks_a_server() {
    support::require!(support::python::system());
    let dir = support::temp_dir("dist-pip");
    let local = local_packages(&dir);
    let venv = dir.join("venv");
    let out = support::command(python())
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let out = support::command(venv.join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--no-index",
            "--disable-pip-version-check",
            "--no-input",
        ])
        .arg(&local.wheel)
        .env("PIP_CONFIG_FILE", "/dev/null")
        .env_remove("PIP_FIND_LINKS")
        .env_remove("PIP_INDEX_URL")
        .env_remove("PIP_EXTRA_INDEX_URL")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let installed = venv.join("bin").join(COMMAND);
    assert!(installed.is_file(), "{}", installed.display());
    assert!(
        !venv.join("bin/mcp-contract").exists(),
        "the wheel installs no `mcp-contract`: PyPI's mcp-contract owns that script name"
    );
    check_a_server(&dir, &|args| {
        support::command(&installed).args(args).output().unwrap()
    });
}

/// `uvx --from WHEEL mcp-contract-test …` (`uv tool run`), offline, with uv's cache, tools and
/// configuration in the test's folder and no Python downloads.
#[test]
fn the_wheel_runs_with_uvx_offline_and_checks_a_server() {
    support::require!(support::python::system());
    let uv = support::require!(support::tools::uv());
    let dir = support::temp_dir("dist-uvx");
    let local = local_packages(&dir);
    let nowhere = format!("http://127.0.0.1:{}/simple", support::process::free_port());
    check_a_server(&dir, &|args| {
        support::command(uv)
            .args(["tool", "run", "--offline", "--from"])
            .arg(&local.wheel)
            .arg(COMMAND)
            .args(args)
            .env("UV_CACHE_DIR", dir.join("uv-cache"))
            .env("UV_TOOL_DIR", dir.join("uv-tools"))
            .env("UV_TOOL_BIN_DIR", dir.join("uv-bin"))
            .env("UV_PYTHON_DOWNLOADS", "never")
            .env("UV_PYTHON", python())
            .env("UV_NO_CONFIG", "1")
            .env("UV_DEFAULT_INDEX", &nowhere)
            .output()
            .unwrap()
    });
}

fn npm_on_path() -> Result<(), support::Missing> {
    support::tools::on_path(
        "npm",
        "install Node.js 18 or later with npm (Debian: apt-get install nodejs npm)",
    )
}

/// npm with no registry: `--offline`, an empty cache of the test's own, a registry address
/// where nothing listens, no user configuration.
fn npm(project: &Path, registry_port: u16) -> Command {
    let mut command = support::command("npm");
    let userconfig = project.join("empty-npmrc");
    std::fs::write(&userconfig, "").unwrap();
    command
        .current_dir(project)
        .env("npm_config_userconfig", userconfig)
        .env("npm_config_cache", project.join("npm-cache"))
        .env(
            "npm_config_registry",
            format!("http://127.0.0.1:{registry_port}/"),
        )
        .env("npm_config_offline", "true")
        .env("npm_config_audit", "false")
        .env("npm_config_fund", "false")
        .env("npm_config_update_notifier", "false");
    command
}

/// A fresh npm project in `dir` with `tarballs` installed from their files.
fn npm_project(dir: &Path, tarballs: &[&Path]) -> (PathBuf, u16) {
    let project = dir.join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("package.json"),
        r#"{"name": "uses-mcp-contract-test", "private": true}"#,
    )
    .unwrap();
    let port = support::process::free_port();
    let out = npm(&project, port)
        .arg("install")
        .args(tarballs)
        .output()
        .expect("npm runs");
    assert!(out.status.success(), "{}", text(&out));
    (project, port)
}

/// The main package and this platform's package, installed from their tarballs with no
/// registry: `npx mcp-contract-test` runs the platform's binary (through the launcher: exit codes
/// as the binary's), and the project's `.bin` has no `mcp-contract`.
#[test]
fn the_npm_packages_install_offline_and_npx_checks_a_server() {
    support::require!(support::python::system());
    support::require!(npm_on_path());
    let dir = support::temp_dir("dist-npm");
    let local = local_packages(&dir);
    let (project, port) = npm_project(&dir, &[&local.npm_main, &local.npm_platform]);
    let bin = project.join("node_modules/.bin");
    assert!(bin.join(COMMAND).exists(), "{}", bin.display());
    assert!(
        !bin.join("mcp-contract").exists(),
        "no `mcp-contract` command"
    );
    // Only this platform's binary is there: the other optional dependencies were skipped.
    let scoped: Vec<String> = std::fs::read_dir(project.join("node_modules/@mcp-contract-test"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(scoped.len(), 1, "{scoped:?}");
    check_a_server(&dir, &|args| {
        npm(&project, port)
            .args(["exec", "--", COMMAND])
            .args(args)
            .output()
            .unwrap()
    });
}

/// The launcher of the npm package: without its platform package it says why and what to do
/// (exit 2); with `MCP_CONTRACT_TEST_BINARY` it runs that binary; the binary's exit code is its
/// exit code, and a signal sent to it reaches the binary, which does not outlive it.
#[test]
fn the_npm_launcher_explains_a_missing_binary_and_passes_exit_codes_and_signals_on() {
    support::require!(support::python::system());
    support::require!(npm_on_path());
    let dir = support::temp_dir("dist-launcher");
    let main = printed_paths(
        &dist_py()
            .args(["npm-main", "--out"])
            .arg(dir.join("out"))
            .output()
            .unwrap(),
    );
    let (project, _) = npm_project(&dir, &[&main[0]]);
    let launcher = project.join("node_modules/.bin").join(COMMAND);

    let out = support::command(&launcher)
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("@mcp-contract-test/cli-") && stderr.contains("install"),
        "{stderr}"
    );

    // A stand-in binary: exits with the code it is given, or sleeps until a signal ends it.
    let stand_in = dir.join("stand-in");
    std::fs::write(
        &stand_in,
        "#!/bin/sh\ncase \"$1\" in exit) exit \"$2\" ;; esac\nexec sleep \"$@\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755)).unwrap();
    for code in [0, 1, 3, 4] {
        let out = support::command(&launcher)
            .args(["exit", &code.to_string()])
            .env("MCP_CONTRACT_TEST_BINARY", &stand_in)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{}", text(&out));
    }
    // The stand-in found by its argument: a duration whose digits are this test process's.
    let unique = format!("30.{}", std::process::id());
    let mut child = support::command(&launcher)
        .arg(&unique)
        .env("MCP_CONTRACT_TEST_BINARY", &stand_in)
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !support::process::leftovers(&unique)
        .iter()
        .any(|line| line.contains(": sleep "))
    {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "the binary never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let pid = child.id().to_string();
    let out = support::command("kill")
        .args(["-TERM", &pid])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let status = child.wait().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        status.signal(),
        Some(15),
        "ended by the signal it passed on"
    );
    assert!(
        support::process::leftovers_settled(&unique).is_empty(),
        "the binary outlived the launcher"
    );
}

/// The files inside an archive, wheel or npm tarball, each with its SHA-256 and whether it is
/// executable, read by Python's zipfile and tarfile (not by the code that wrote them).
fn members(path: &Path) -> BTreeMap<String, (String, bool)> {
    let script = r#"
import hashlib, json, sys, tarfile, zipfile
path = sys.argv[1]
out = {}
if path.endswith((".zip", ".whl")):
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            out[info.filename] = [hashlib.sha256(z.read(info)).hexdigest(), bool((info.external_attr >> 16) & 0o111)]
else:
    with tarfile.open(path, "r:gz") as t:
        for info in t.getmembers():
            if info.isfile():
                out[info.name] = [hashlib.sha256(t.extractfile(info).read()).hexdigest(), bool(info.mode & 0o111)]
print(json.dumps(out))
"#;
    let out = support::command(python())
        .args(["-c", script])
        .arg(path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}: {}", path.display(), text(&out));
    let map: BTreeMap<String, (String, bool)> = serde_json::from_slice(&out.stdout).unwrap();
    map
}

fn sha256_of(bytes: &[u8]) -> String {
    let out = {
        let mut child = support::command(python())
            .args([
                "-c",
                "import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())",
            ])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(bytes).unwrap();
        child.wait_with_output().unwrap()
    };
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The release targets, as `dist.py targets` lists them.
pub(super) fn release_targets() -> Vec<String> {
    let out = dist_py().arg("targets").output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Release archives of a stand-in binary per target (distinct bytes each) in `dir/archives`,
/// with their SHA256SUMS; the stand-ins' SHA-256 by target.
fn stand_in_release(dir: &Path) -> BTreeMap<String, String> {
    let archives = dir.join("archives");
    let mut binaries = BTreeMap::new();
    for target in release_targets() {
        let binary = dir.join(format!("bin-{target}"));
        let bytes = format!("stand-in binary for {target}\n").into_bytes();
        std::fs::write(&binary, &bytes).unwrap();
        binaries.insert(target.clone(), sha256_of(&bytes));
        let out = dist_py()
            .args(["archive", "--target", &target, "--binary"])
            .arg(&binary)
            .arg("--out")
            .arg(&archives)
            .output()
            .unwrap();
        printed_paths(&out);
    }
    printed_paths(&dist_py().arg("sums").arg(&archives).output().unwrap());
    binaries
}

/// Every channel of a release carries the bytes of its archive's binary: the wheel's script and
/// the npm platform package's binary are the archive's, executable, under the names each
/// channel needs; the wheels' RECORD matches their files; the npm main package depends on
/// exactly the platform packages made, at this version. The same inputs give the same bytes.
#[test]
fn a_release_makes_every_channel_from_the_archives_binaries() {
    support::require!(support::python::system());
    let dir = support::temp_dir("dist-release");
    let binaries = stand_in_release(&dir);
    let release = |out: &Path| {
        printed_paths(
            &dist_py()
                .args(["release", "--archives"])
                .arg(dir.join("archives"))
                .arg("--out")
                .arg(out)
                .output()
                .unwrap(),
        )
    };
    let written = release(&dir.join("packages"));
    // A wheel and a platform package per target, and the main package.
    assert_eq!(written.len(), 2 * binaries.len() + 1, "{written:?}");
    let v = version();
    let mut platform_packages = Vec::new();
    for (target, sha) in &binaries {
        let windows = target.contains("windows");
        let exe = if windows { ".exe" } else { "" };
        let stem = format!("mcp-contract-{v}-{target}");
        let archive = dir.join("archives").join(format!(
            "{stem}{}",
            if windows { ".zip" } else { ".tar.gz" }
        ));
        let inside = members(&archive);
        assert_eq!(
            inside[&format!("{stem}/mcp-contract{exe}")],
            (sha.clone(), true),
            "{inside:?}"
        );

        let wheel = one_of(&written, &|name| {
            name.ends_with(".whl") && name.contains(wheel_platform(target))
        });
        let files = members(wheel);
        let data = format!("mcp_contract_test-{v}.data/scripts/{COMMAND}{exe}");
        assert_eq!(files[&data], (sha.clone(), true), "{files:?}");
        assert_record_matches(wheel, &files);

        let npm = one_of(&written, &|name| {
            name.starts_with("mcp-contract-test-cli-") && name.contains(npm_platform(target))
        });
        let files = members(npm);
        assert_eq!(
            files[&format!("package/bin/{COMMAND}{exe}")],
            (sha.clone(), true),
            "{files:?}"
        );
        platform_packages.push(format!("@mcp-contract-test/cli-{}", npm_platform(target)));
    }
    let main = one_of(&written, &|name| {
        name == format!("mcp-contract-test-{v}.tgz")
    });
    let manifest: Value = serde_json::from_str(&read_member(main, "package/package.json")).unwrap();
    let optional: BTreeMap<String, String> =
        serde_json::from_value(manifest["optionalDependencies"].clone()).unwrap();
    platform_packages.sort();
    assert_eq!(
        optional.keys().cloned().collect::<Vec<_>>(),
        platform_packages
    );
    assert!(optional.values().all(|pinned| pinned == v), "{optional:?}");
    assert_eq!(manifest["bin"][COMMAND], format!("bin/{COMMAND}.js"));

    // Reproducible: a second run writes the same bytes.
    let again = release(&dir.join("again"));
    for (first, second) in written.iter().zip(&again) {
        assert_eq!(
            std::fs::read(first).unwrap(),
            std::fs::read(second).unwrap(),
            "{}",
            first.display()
        );
    }
}

/// The one file of `written` whose name passes `test`.
fn one_of<'a>(written: &'a [PathBuf], test: &dyn Fn(&str) -> bool) -> &'a Path {
    let found: Vec<&PathBuf> = written
        .iter()
        .filter(|p| test(&p.file_name().unwrap().to_string_lossy()))
        .collect();
    assert_eq!(found.len(), 1, "{written:?}");
    found[0]
}

/// The platform part of the wheel's tag for a target.
fn wheel_platform(target: &str) -> &'static str {
    match target {
        "x86_64-unknown-linux-musl" => {
            "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64"
        }
        "aarch64-unknown-linux-musl" => {
            "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64"
        }
        "x86_64-apple-darwin" => "macosx_10_12_x86_64",
        "aarch64-apple-darwin" => "macosx_11_0_arm64",
        "x86_64-pc-windows-msvc" => "win_amd64",
        other => panic!("a release target this test does not know: {other}"),
    }
}

/// Node's `platform-arch` for a target.
fn npm_platform(target: &str) -> &'static str {
    match target {
        "x86_64-unknown-linux-musl" => "linux-x64",
        "aarch64-unknown-linux-musl" => "linux-arm64",
        "x86_64-apple-darwin" => "darwin-x64",
        "aarch64-apple-darwin" => "darwin-arm64",
        "x86_64-pc-windows-msvc" => "win32-x64",
        other => panic!("a release target this test does not know: {other}"),
    }
}

fn read_member(archive: &Path, member: &str) -> String {
    let out = support::command(python())
        .args([
            "-c",
            "import sys, tarfile, zipfile\n\
             p, m = sys.argv[1:3]\n\
             data = zipfile.ZipFile(p).read(m) if p.endswith(('.zip', '.whl')) else tarfile.open(p).extractfile(m).read()\n\
             sys.stdout.write(data.decode())",
        ])
        .arg(archive)
        .arg(member)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The wheel's RECORD names every other file with its SHA-256 (urlsafe base64, unpadded) and
/// size, and itself without a hash, as the wheel specification says.
fn assert_record_matches(wheel: &Path, files: &BTreeMap<String, (String, bool)>) {
    let stem = format!("mcp_contract_test-{}", version());
    let record = read_member(wheel, &format!("{stem}.dist-info/RECORD"));
    let lines: Vec<&str> = record.lines().collect();
    assert_eq!(lines.len(), files.len(), "{record}");
    for line in lines {
        let parts: Vec<&str> = line.split(',').collect();
        assert_eq!(parts.len(), 3, "{line}");
        if parts[0].ends_with("/RECORD") {
            assert_eq!(&parts[1..], ["", ""], "{line}");
            continue;
        }
        let (hex, _) = &files[parts[0]];
        let hash = parts[1].strip_prefix("sha256=").expect("sha256=");
        let out = support::command(python())
            .args([
                "-c",
                "import base64, sys; print(base64.urlsafe_b64encode(bytes.fromhex(sys.argv[1])).rstrip(b'=').decode())",
                hex,
            ])
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), hash, "{line}");
    }
}

/// An archive that is not the one SHA256SUMS hashes is refused (exit 2, naming it), and so is a
/// release with a target's archive missing: nothing is packaged from it.
#[test]
fn a_release_refuses_an_archive_its_sums_do_not_match() {
    support::require!(support::python::system());
    let dir = support::temp_dir("dist-tampered");
    stand_in_release(&dir);
    let archives = dir.join("archives");
    let linux = archives.join(format!(
        "mcp-contract-{}-x86_64-unknown-linux-musl.tar.gz",
        version()
    ));
    let mut bytes = std::fs::read(&linux).unwrap();
    bytes.extend_from_slice(b"tampered");
    std::fs::write(&linux, bytes).unwrap();
    let out = dist_py()
        .args(["release", "--archives"])
        .arg(&archives)
        .arg("--out")
        .arg(dir.join("packages"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("SHA-256") && text(&out).contains("x86_64-unknown-linux-musl"),
        "{}",
        text(&out)
    );
    std::fs::remove_file(&linux).unwrap();
    let out = dist_py()
        .args(["release", "--archives"])
        .arg(&archives)
        .arg("--out")
        .arg(dir.join("packages"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("is missing"), "{}", text(&out));
    let made = std::fs::read_dir(dir.join("packages"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert_eq!(made, 0, "nothing packaged from a refused release");
}

/// cargo-binstall's metadata (mcp-contract-cli/Cargo.toml) names the archives the release makes
/// and the binary's path inside them, for every release target; the release workflow builds
/// exactly those targets.
#[test]
fn binstall_metadata_and_the_release_workflow_name_the_archives_the_release_makes() {
    support::require!(support::python::system());
    let dir = support::temp_dir("dist-binstall");
    stand_in_release(&dir);
    let manifest: toml::Table =
        toml::from_str(&std::fs::read_to_string(repo_path("mcp-contract-cli/Cargo.toml")).unwrap())
            .unwrap();
    let binstall = &manifest["package"]["metadata"]["binstall"];
    let workspace: toml::Table =
        toml::from_str(&std::fs::read_to_string(repo_path("Cargo.toml")).unwrap()).unwrap();
    let repo = workspace["workspace"]["package"]["repository"]
        .as_str()
        .unwrap();
    let workflow = std::fs::read_to_string(repo_path(".github/workflows/release.yml")).unwrap();
    for target in release_targets() {
        let windows = target.contains("windows");
        let key = |name: &str| {
            binstall
                .get("overrides")
                .and_then(|o| o.get(&target))
                .and_then(|o| o.get(name))
                .or_else(|| binstall.get(name))
                .and_then(|v| v.as_str())
                .unwrap_or_else(|| panic!("binstall {name} for {target}"))
        };
        let expand = |template: &str| {
            template
                .replace("{ repo }", repo)
                .replace("{ version }", version())
                .replace("{ target }", &target)
                .replace("{ bin }", "mcp-contract")
                .replace("{ binary-ext }", if windows { ".exe" } else { "" })
        };
        let url = expand(key("pkg-url"));
        let (name, format) = url
            .rsplit_once('/')
            .map(|(_, name)| (name.to_owned(), key("pkg-fmt")))
            .unwrap();
        assert!(
            url.starts_with(&format!("{repo}/releases/download/v{}/", version())),
            "{url}"
        );
        let archive = dir.join("archives").join(&name);
        assert!(
            archive.is_file(),
            "binstall downloads {name}, the release has no such file"
        );
        assert_eq!(format, if windows { "zip" } else { "tgz" });
        let inside = members(&archive);
        assert!(
            inside.contains_key(&expand(key("bin-dir"))),
            "{}: {inside:?}",
            expand(key("bin-dir"))
        );
        assert!(
            workflow.contains(&format!("target: {target},")),
            "the release workflow does not build {target}"
        );
    }
    assert_eq!(
        workflow.matches("- { target: ").count(),
        release_targets().len(),
        "the workflow builds targets dist.py does not package"
    );
    // Every dist.py command the workflow runs exists.
    for command in workflow
        .split("scripts/dist/dist.py ")
        .skip(1)
        .filter_map(|rest| {
            let word = rest.split_whitespace().next()?;
            Some(word.trim_end_matches(|c: char| !c.is_ascii_lowercase()))
        })
    {
        let out = dist_py().args([command, "--help"]).output().unwrap();
        assert!(out.status.success(), "dist.py {command}: {}", text(&out));
    }
}
