#!/usr/bin/env python3
"""Packages one built `mcp-contract` binary for every channel it ships through.

The same bytes go everywhere: the release archive (what cargo-binstall and the GitHub Action
download), the Python wheel (pip, pipx, uv, uvx) and the npm packages (npm, npx). Nothing is
compiled here; the binary is built before (`cargo build --profile dist`, or any build for a
local package) and given by its path.

    dist.py version                                     the workspace's version
    dist.py targets                                     the release targets, one a line
    dist.py host-target                                 this machine's target (rustc -vV)
    dist.py archive --binary B --target T [--out DIR]   the release archive
    dist.py wheel   --binary B --target T [--out DIR]   the wheel
    dist.py npm-platform --binary B --target T [--out DIR]  the platform's npm package
    dist.py npm-main [--out DIR]                        the npm package users install
    dist.py sums DIR                                    DIR/SHA256SUMS of DIR's archives
    dist.py release --archives DIR [--out DIR]          wheels and npm packages of every archive
                                                        in DIR, checked against DIR/SHA256SUMS

Every command prints the paths it wrote, one a line. The version is the workspace's (Cargo.toml)
unless `--version` says otherwise. Outputs are reproducible: fixed timestamps
(SOURCE_DATE_EPOCH when set), sorted entries, no user or host names.

Only the standard library: it runs on every CI runner and developer machine with Python 3.8+.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import io
import json
import os
import re
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

# What a user types. The binary stays `mcp-contract` where it is installed on its own (cargo,
# cargo-binstall, the release archives, the Action, which runs it by its path); installed next
# to other packages it is `mcp-contract-test`, the package's name: PyPI's `mcp-contract` (another
# tool) installs a command `mcp-contract`, and two wheels writing one script overwrite each
# other. docs/install.md says why.
BINARY = "mcp-contract"
PACKAGE = "mcp-contract-test"
COMMAND = "mcp-contract-test"
# One platform package per target under this npm scope (the organisation must exist on npm).
NPM_SCOPE = "@mcp-contract-test"


class Target(NamedTuple):
    """How one Rust target is named by each channel."""

    # Python wheel platform tags (a static musl binary runs on every Linux: all of them).
    wheel_tags: List[str]
    # Node's `process.platform` and `process.arch`.
    npm_os: str
    npm_cpu: str
    # Released (the release workflow builds it) or only for a local package.
    released: bool

    @property
    def exe(self) -> str:
        return ".exe" if self.npm_os == "win32" else ""

    @property
    def npm_name(self) -> str:
        return f"{NPM_SCOPE}/cli-{self.npm_os}-{self.npm_cpu}"


def _linux(arch: str) -> List[str]:
    return [f"manylinux_2_17_{arch}", f"manylinux2014_{arch}", f"musllinux_1_1_{arch}"]


TARGETS: Dict[str, Target] = {
    "x86_64-unknown-linux-musl": Target(_linux("x86_64"), "linux", "x64", True),
    "aarch64-unknown-linux-musl": Target(_linux("aarch64"), "linux", "arm64", True),
    "x86_64-apple-darwin": Target(["macosx_10_12_x86_64"], "darwin", "x64", True),
    "aarch64-apple-darwin": Target(["macosx_11_0_arm64"], "darwin", "arm64", True),
    "x86_64-pc-windows-msvc": Target(["win_amd64"], "win32", "x64", True),
    # A developer's own build (glibc, dynamically linked): local packages only, never published
    # (PyPI refuses the plain `linux_*` tag, which says "this machine's kind of Linux").
    "x86_64-unknown-linux-gnu": Target(["linux_x86_64"], "linux", "x64", False),
    "aarch64-unknown-linux-gnu": Target(["linux_aarch64"], "linux", "arm64", False),
}


class DistError(Exception):
    """A problem with the inputs: printed as one line, exit 2."""


# ---------------------------------------------------------------------------------------------
# The workspace's metadata


def workspace() -> dict:
    """`[workspace.package]` of the root Cargo.toml (version, license, repository)."""
    text = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    try:
        import tomllib  # Python 3.11+

        return tomllib.loads(text)["workspace"]["package"]
    except ImportError:
        # Older Pythons: the three flat `key = "value"` lines of that table.
        section = text.split("[workspace.package]", 1)[1].split("\n[", 1)[0]
        return dict(re.findall(r'^(\w[\w-]*)\s*=\s*"([^"]*)"', section, re.M))


# One line on PyPI and npm (the crate's description names the command `mcp-contract`).
SUMMARY = (
    "Contract testing for MCP servers in any language: record their tools, prompts and "
    "resources, fail CI on changes that break agents. Prebuilt CLI."
)


SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)(?:-(alpha|beta|rc)\.(\d+))?$")


def check_version(version: str) -> str:
    if not SEMVER.match(version):
        raise DistError(
            f"version {version!r} is not X.Y.Z or X.Y.Z-(alpha|beta|rc).N: "
            "the one form that means the same to Cargo, npm and Python"
        )
    return version


def python_version(version: str) -> str:
    """The Python spelling of a Cargo version (PEP 440): 1.2.0-rc.1 → 1.2.0rc1."""
    major, minor, patch, pre, number = SEMVER.match(version).groups()
    base = f"{major}.{minor}.{patch}"
    if pre is None:
        return base
    return base + {"alpha": "a", "beta": "b", "rc": "rc"}[pre] + number


def repository() -> str:
    return workspace()["repository"].rstrip("/")


# ---------------------------------------------------------------------------------------------
# Reproducible archives


def epoch() -> int:
    """Every timestamp written: SOURCE_DATE_EPOCH, else 1980-01-01 (the earliest zip allows)."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "")
    return int(value) if value.isdigit() else 315532800


def zip_time() -> tuple:
    return time.gmtime(max(epoch(), 315532800))[:6]


class Entry(NamedTuple):
    """One file of an archive: its path inside, its bytes, executable or not."""

    name: str
    data: bytes
    executable: bool = False


def write_tar_gz(path: Path, entries: List[Entry]) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for entry in sorted(entries):
            info = tarfile.TarInfo(entry.name)
            info.size = len(entry.data)
            info.mtime = epoch()
            info.mode = 0o755 if entry.executable else 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(entry.data))
    # gzip's header carries a time and a file name: fixed and empty.
    with open(path, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=epoch(), compresslevel=6) as gz:
            gz.write(buffer.getvalue())


def write_zip(path: Path, entries: List[Entry], keep_order: bool = False) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for entry in entries if keep_order else sorted(entries):
            info = zipfile.ZipInfo(entry.name, date_time=zip_time())
            info.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if entry.executable else 0o644
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.create_system = 3  # Unix: the mode above is read by pip, uv and unzip
            archive.writestr(info, entry.data, compresslevel=6)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


# ---------------------------------------------------------------------------------------------
# The channels


def target_of(name: str) -> Target:
    try:
        return TARGETS[name]
    except KeyError:
        raise DistError(
            f"no packaging for target {name!r}; known: {', '.join(TARGETS)}"
        ) from None


def read_binary(path: Path) -> bytes:
    if not path.is_file():
        raise DistError(f"{path}: no such binary (build it first: scripts/dist/local.sh builds one)")
    return path.read_bytes()


def archive_name(version: str, target: str) -> str:
    """`mcp-contract-0.1.0-x86_64-unknown-linux-musl.tar.gz` (`.zip` for Windows); its one
    folder is the same name without the suffix. cargo-binstall's metadata in
    mcp-contract-cli/Cargo.toml and the Action (action.yml) spell the same names."""
    suffix = ".zip" if target_of(target).exe else ".tar.gz"
    return f"{BINARY}-{version}-{target}{suffix}"


def package_readme(version: str) -> str:
    """The README of the archive, the wheel and the npm package, its links at this version."""
    text = (HERE / "package-readme.md").read_text(encoding="utf-8")
    return text.replace("{repository}", repository()).replace("{version}", version)


def build_archive(binary: Path, target: str, version: str, out: Path) -> Path:
    spec = target_of(target)
    name = archive_name(version, target)
    folder = name[: -len(".zip")] if name.endswith(".zip") else name[: -len(".tar.gz")]
    entries = [
        Entry(f"{folder}/{BINARY}{spec.exe}", read_binary(binary), True),
        Entry(f"{folder}/README.md", package_readme(version).encode("utf-8")),
    ]
    path = out / name
    if spec.exe:
        write_zip(path, entries)
    else:
        write_tar_gz(path, entries)
    return path


def record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def build_wheel(binary: Path, target: str, version: str, out: Path) -> Path:
    """A wheel whose one file is the binary, as a script: pip, pipx, uv and uvx put it on the
    environment's PATH as `mcp-contract-test`. Nothing Python runs: `py3-none-PLATFORM`."""
    spec = target_of(target)
    meta = workspace()
    distribution = PACKAGE.replace("-", "_")
    py_version = python_version(version)
    stem = f"{distribution}-{py_version}"
    tags = [f"py3-none-{platform}" for platform in spec.wheel_tags]
    readme = package_readme(version)
    metadata = "\n".join(
        [
            "Metadata-Version: 2.4",
            f"Name: {PACKAGE}",
            f"Version: {py_version}",
            f"Summary: {SUMMARY}",
            f"License-Expression: {meta['license']}",
            f"Project-URL: Repository, {repository()}",
            f"Project-URL: Documentation, {repository()}/blob/v{version}/docs/install.md",
            "Keywords: mcp,model-context-protocol,contract-testing,snapshot,ci",
            "Classifier: Environment :: Console",
            "Classifier: Topic :: Software Development :: Testing",
            "Classifier: Programming Language :: Rust",
            "Requires-Python: >=3.8",
            "Description-Content-Type: text/markdown",
            "",
            readme,
        ]
    )
    wheel = "\n".join(
        ["Wheel-Version: 1.0", "Generator: mcp-contract-test scripts/dist/dist.py", "Root-Is-Purelib: false"]
        + [f"Tag: {tag}" for tag in tags]
    ) + "\n"
    entries = [
        Entry(f"{stem}.data/scripts/{COMMAND}{spec.exe}", read_binary(binary), True),
        Entry(f"{stem}.dist-info/METADATA", metadata.encode("utf-8")),
        Entry(f"{stem}.dist-info/WHEEL", wheel.encode("utf-8")),
    ]
    record = "".join(f"{e.name},{record_hash(e.data)},{len(e.data)}\n" for e in entries)
    record += f"{stem}.dist-info/RECORD,,\n"
    # The .dist-info last, RECORD last of all, as the wheel specification recommends.
    entries.append(Entry(f"{stem}.dist-info/RECORD", record.encode("utf-8")))
    # Compressed tag set: one file for every Linux (the binary is static).
    path = out / f"{stem}-py3-none-{'.'.join(spec.wheel_tags)}.whl"
    write_zip(path, entries, keep_order=True)
    return path


def npm_repository() -> dict:
    return {"type": "git", "url": f"git+{repository()}.git"}


def npm_tarball(out: Path, name: str, version: str, files: List[Entry]) -> Path:
    """`npm pack`'s shape: a gzipped tar whose files are under `package/`."""
    flat = name.lstrip("@").replace("/", "-")
    path = out / f"{flat}-{version}.tgz"
    write_tar_gz(path, [Entry(f"package/{e.name}", e.data, e.executable) for e in files])
    return path


def build_npm_platform(binary: Path, target: str, version: str, out: Path) -> Path:
    spec = target_of(target)
    manifest = {
        "name": spec.npm_name,
        "version": version,
        "description": f"The {COMMAND} binary for {spec.npm_os}-{spec.npm_cpu}: installed by "
        f"the `{PACKAGE}` package, not for direct use.",
        "license": workspace()["license"],
        "repository": npm_repository(),
        "os": [spec.npm_os],
        "cpu": [spec.npm_cpu],
        # Yarn's Plug'n'Play cannot run a binary from inside a zip archive.
        "preferUnplugged": True,
    }
    readme = f"# {spec.npm_name}\n\nThe `{COMMAND}` binary for {spec.npm_os}-{spec.npm_cpu}. Install [`{PACKAGE}`](https://www.npmjs.com/package/{PACKAGE}) instead.\n"
    return npm_tarball(
        out,
        spec.npm_name,
        version,
        [
            Entry("package.json", (json.dumps(manifest, indent=2) + "\n").encode("utf-8")),
            Entry("README.md", readme.encode("utf-8")),
            Entry(f"bin/{COMMAND}{spec.exe}", read_binary(binary), True),
        ],
    )


def build_npm_main(version: str, out: Path) -> Path:
    released = sorted({t.npm_name for t in TARGETS.values() if t.released})
    manifest = {
        "name": PACKAGE,
        "version": version,
        "description": SUMMARY,
        "license": workspace()["license"],
        "repository": npm_repository(),
        "homepage": f"{repository()}/blob/v{version}/docs/install.md",
        "keywords": ["mcp", "model-context-protocol", "contract-testing", "snapshot", "ci"],
        "bin": {COMMAND: f"bin/{COMMAND}.js"},
        "files": ["bin/"],
        "engines": {"node": ">=18"},
        # Exactly this version's binary; npm installs only the one whose os and cpu match.
        "optionalDependencies": {name: version for name in released},
    }
    return npm_tarball(
        out,
        PACKAGE,
        version,
        [
            Entry("package.json", (json.dumps(manifest, indent=2) + "\n").encode("utf-8")),
            Entry("README.md", package_readme(version).encode("utf-8")),
            Entry(f"bin/{COMMAND}.js", (HERE / "npm" / "launcher.js").read_bytes(), True),
        ],
    )


def write_sums(folder: Path) -> Path:
    archives = sorted(
        p for p in folder.iterdir() if p.name.startswith(f"{BINARY}-") and p.name.endswith((".tar.gz", ".zip"))
    )
    if not archives:
        raise DistError(f"{folder}: no {BINARY}-*.tar.gz or .zip archive")
    sums = folder / "SHA256SUMS"
    sums.write_text("".join(f"{sha256(p)}  {p.name}\n" for p in archives), encoding="utf-8")
    return sums


def read_sums(path: Path) -> Dict[str, str]:
    """`sha256sum` lines (`HEX  NAME`, `HEX *NAME`); `#` comments and blank lines ignored."""
    sums = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        found = re.fullmatch(r"([0-9a-f]{64}) [ *](\S+)", line)
        if not found:
            raise DistError(f"{path}:{number}: not a `SHA256  NAME` line: {line!r}")
        sums[found.group(2)] = found.group(1)
    return sums


def extract_binary(archive: Path, target: str, version: str, into: Path) -> Path:
    """The binary of one release archive, by the name the archive must hold it under."""
    name = archive.name[: -len(".zip")] if archive.name.endswith(".zip") else archive.name[: -len(".tar.gz")]
    member = f"{name}/{BINARY}{target_of(target).exe}"
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as z:
                data = z.read(member)
        else:
            with tarfile.open(archive, "r:gz") as t:
                found = t.extractfile(member)
                if found is None:
                    raise KeyError(member)
                data = found.read()
    except KeyError:
        raise DistError(f"{archive}: holds no file {member}") from None
    path = into / target / f"{BINARY}{target_of(target).exe}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def build_release(archives: Path, out: Path, version: str) -> List[Path]:
    """Wheels and npm packages from the very binaries of the release archives, each archive
    checked against SHA256SUMS first, every released target present."""
    sums = read_sums(archives / "SHA256SUMS")
    # Every archive checked before anything is written: a refused release leaves no packages.
    checked = {}
    for target, spec in sorted(TARGETS.items()):
        if not spec.released:
            continue
        name = archive_name(version, target)
        path = archives / name
        if not path.is_file():
            raise DistError(f"{archives}: {name} is missing")
        if sums.get(name) != sha256(path):
            raise DistError(f"{path}: its SHA-256 is not the one SHA256SUMS gives")
        checked[target] = path
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        for target, path in checked.items():
            binary = extract_binary(path, target, version, Path(tmp))
            written.append(build_wheel(binary, target, version, out))
            written.append(build_npm_platform(binary, target, version, out))
    written.append(build_npm_main(version, out))
    return written


def host_target() -> str:
    try:
        out = subprocess.run(["rustc", "-vV"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise DistError(f"cannot ask rustc for this machine's target: {e}") from None
    found = re.search(r"^host: (\S+)$", out, re.M)
    if not found:
        raise DistError("rustc -vV names no host")
    return found.group(1)


# ---------------------------------------------------------------------------------------------


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="dist.py", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("version", help="the workspace's version (Cargo.toml)")
    commands.add_parser("targets", help="the release targets, one a line")
    commands.add_parser("host-target", help="this machine's target (rustc -vV)")
    sums = commands.add_parser("sums", help="FOLDER/SHA256SUMS of FOLDER's archives")
    sums.add_argument("folder", type=Path)
    writers = {
        "archive": "the release archive of one binary",
        "wheel": "the Python wheel of one binary",
        "npm-platform": "the npm package of one binary",
        "npm-main": "the npm package users install",
        "release": "wheels and npm packages of every release archive",
    }
    for name, text in writers.items():
        sub = commands.add_parser(name, help=text)
        if name in ("archive", "wheel", "npm-platform"):
            sub.add_argument("--binary", type=Path, required=True)
            sub.add_argument("--target", required=True)
        if name == "release":
            sub.add_argument("--archives", type=Path, required=True)
        sub.add_argument("--version", help="default: the workspace's (Cargo.toml)")
        sub.add_argument("--out", type=Path, default=Path("target/dist"))
    args = parser.parse_args(argv)

    try:
        if args.command == "version":
            print(check_version(workspace()["version"]))
            return 0
        if args.command == "targets":
            print("\n".join(t for t, spec in TARGETS.items() if spec.released))
            return 0
        if args.command == "host-target":
            print(host_target())
            return 0
        if args.command == "sums":
            print(write_sums(args.folder))
            return 0
        version = check_version(args.version or workspace()["version"])
        args.out.mkdir(parents=True, exist_ok=True)
        if args.command == "archive":
            written = [build_archive(args.binary, args.target, version, args.out)]
        elif args.command == "wheel":
            written = [build_wheel(args.binary, args.target, version, args.out)]
        elif args.command == "npm-platform":
            written = [build_npm_platform(args.binary, args.target, version, args.out)]
        elif args.command == "npm-main":
            written = [build_npm_main(version, args.out)]
        else:
            written = build_release(args.archives, args.out, version)
    except (DistError, OSError, zipfile.BadZipFile, tarfile.TarError) as e:
        print(f"dist.py: {e}", file=sys.stderr)
        return 2
    for path in written:
        print(path.resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
