#!/usr/bin/env node
// The `mcp-contract-test` command of the npm package: runs the binary of the platform package
// npm installed beside it (one optional dependency per platform; npm installs only the one whose
// `os` and `cpu` match this machine). Nothing is downloaded, at install time or now.
//
// The binary gets this process's arguments, standard streams and environment; signals sent to
// this process are passed on to it, and its exit code (or the signal that ended it) is this
// process's.
"use strict";

const { spawn } = require("child_process");
const path = require("path");

const COMMAND = "mcp-contract-test";
const SCOPE = "@mcp-contract-test";
const OVERRIDE = "MCP_CONTRACT_TEST_BINARY";

function binary() {
  // A binary of your own (another platform, a build from source): its path.
  const own = process.env[OVERRIDE];
  if (own) {
    return own;
  }
  const platform = `${process.platform}-${process.arch}`;
  const pkg = `${SCOPE}/cli-${platform}`;
  const exe = process.platform === "win32" ? `${COMMAND}.exe` : COMMAND;
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
  } catch (e) {
    const supported = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];
    const why = supported.includes(platform)
      ? `its package ${pkg} is not installed (npm leaves an optional dependency out under ` +
        "--omit=optional, or when the registry could not serve it): install " +
        `${COMMAND} again, with optional dependencies`
      : `there is no prebuilt binary for ${platform} (there is for ${supported.join(", ")}): ` +
        `build one with \`cargo install mcp-contract-cli --locked\` and set ${OVERRIDE} to its path`;
    process.stderr.write(`${COMMAND}: cannot run the binary for ${platform}: ${why}\n`);
    process.exit(2);
  }
}

const exe = binary();
const child = spawn(exe, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
const forward = (signal) => child.kill(signal);
for (const signal of forwarded) {
  process.on(signal, forward);
}
child.on("error", (e) => {
  process.stderr.write(`${COMMAND}: cannot run ${exe}: ${e.message}\n`);
  process.exit(2);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Ended by a signal: end this process the same way, so the caller sees what it sees.
    for (const s of forwarded) {
      process.removeListener(s, forward);
    }
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
