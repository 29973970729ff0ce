//! Poisoning's precision on real servers nobody tuned on (`fixtures/poisoning-precision/`):
//! each case is a real server's item, as published, whose text the lint once misread, and an
//! attack of our own in the same shape that must still be found. A reading fixed for the real
//! sentence alone would pass the first half and fail the second.

use mcp_contract_engine::lint::{self, allow::Date, Lints};
use mcp_contract_engine::Surface;
use serde_json::{json, Value};
use std::path::Path;

/// The lint with the reading of plain prose (`text-intent`, off by default) turned on: its
/// precision is what these fixtures hold.
fn reader() -> Lints {
    let mut config = Lints::default();
    config
        .apply_setting("text-intent=warn")
        .expect("a known lint");
    config
}

fn poisoning(f: &lint::Finding) -> bool {
    ["text-poisoning", "text-attack", "text-intent"].contains(&f.rule)
}

/// What the lint (with [`reader`]) finds poisoned in `surface`, a surface's JSON.
fn lint_of(surface: Value) -> Vec<String> {
    let surface = Surface::from_json(&surface).expect("a surface");
    lint::lint_at(&surface, &[], &[], &reader(), Date::from_unix_days(20_000))
        .into_iter()
        .filter(poisoning)
        .map(|f| f.line())
        .collect()
}

/// What a drift from the surface `before` to `after` (their JSON) calls poisoned, and also
/// unreadable when `unreadable` is set.
fn drift_of(before: Value, after: Value, unreadable: bool) -> Vec<String> {
    use mcp_contract_engine::diff::diff_surfaces;
    use mcp_contract_engine::Policy;
    let before = Surface::from_json(&before).expect("a surface");
    let after = Surface::from_json(&after).expect("a surface");
    diff_surfaces(&before, &after, &Policy::default())
        .changes
        .into_iter()
        .filter(|c| c.rule.ends_with("poisoned") || (unreadable && c.rule == "text-unreadable"))
        .map(|c| format!("{} {}", c.rule, c.message))
        .collect()
}

fn findings(tool: &Value) -> Vec<String> {
    lint_of(json!({ "tools": [tool] }))
}

/// What a drift that adds the tool to an empty surface calls poisoned (a finding the lint of a
/// first recording does not make: sentences judged together, as added text).
fn added_findings(tool: &Value) -> Vec<String> {
    drift_of(json!({ "tools": [] }), json!({ "tools": [tool] }), false)
}

/// What a drift from the accepted item `before` to `tool` calls poisoned or unreadable (a
/// finding on text the release added, read against what the accepted one said).
fn changed_findings(before: &Value, tool: &Value) -> Vec<String> {
    drift_of(
        json!({ "tools": [before] }),
        json!({ "tools": [tool] }),
        true,
    )
}

/// What the lint finds in server instructions `text`, and what a drift to them from the
/// accepted instructions `before` (a string, or none) calls poisoned.
fn instructions_findings(before: &Value, text: &str) -> Vec<String> {
    let after = json!({ "instructions": text, "tools": [] });
    let before = match before.as_str() {
        Some(old) => json!({ "instructions": old, "tools": [] }),
        None => json!({ "tools": [] }),
    };
    let mut found = lint_of(after.clone());
    found.extend(drift_of(before, after, false));
    found
}

#[test]
fn poison_precision_real_sentences_pass_and_their_attack_twins_do_not() {
    let mut wrong = Vec::new();
    let mut read = 0;
    for round in [
        "round6.json",
        "round7.json",
        "round8.json",
        "round9.json",
        "round11.json",
        "round14.json",
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures/poisoning-precision")
            .join(round);
        let text = std::fs::read_to_string(&path).expect("a fixtures/poisoning-precision file");
        let cases: Value = serde_json::from_str(&text).expect("a precision file is JSON");
        let cases = cases["cases"].as_array().expect("`cases`");
        assert!(!cases.is_empty(), "{round} has no case");
        for case in cases {
            read += 1;
            let at = format!(
                "{round}: {} {} ({})",
                case["server"], case["version"], case["reading"]
            );
            // A drift finding is checked on drift, and the lint must stay quiet too.
            let judge = |tool: &Value| {
                let mut found = findings(tool);
                if case["drift"] == json!(true) {
                    found.extend(added_findings(tool));
                }
                // (`before`: the release the finding was a drift from.)
                if case["before"].is_object() {
                    found.extend(changed_findings(&case["before"], tool));
                }
                found
            };
            // (A case of server instructions: the lint of them, and the drift to them.)
            if let Some(honest) = case["honest_instructions"].as_str() {
                let before = &case["instructions_before"];
                let found = instructions_findings(before, honest);
                if !found.is_empty() {
                    wrong.push(format!("{at}: the real text is flagged: {found:#?}"));
                }
                let attack = case["attack_instructions"].as_str().expect("an attack");
                if instructions_findings(before, attack).is_empty() {
                    wrong.push(format!("{at}: its attack twin is not flagged"));
                }
                continue;
            }
            let honest = judge(&case["honest"]);
            if !honest.is_empty() {
                wrong.push(format!("{at}: the real text is flagged: {honest:#?}"));
            }
            if judge(&case["attack"]).is_empty() {
                wrong.push(format!("{at}: its attack twin is not flagged"));
            }
        }
    }
    assert!(read >= 31, "only {read} cases read");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Every server folder of `fixtures/real-servers/` with its captures, oldest name first.
fn real_servers() -> Vec<(String, Vec<(String, Surface)>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/real-servers");
    let mut servers = Vec::new();
    for entry in std::fs::read_dir(&root).expect("fixtures/real-servers") {
        let path = entry.expect("an entry").path();
        if !path.is_dir() {
            continue;
        }
        let server = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let mut releases = Vec::new();
        for file in std::fs::read_dir(&path).expect("a server folder") {
            let file = file.expect("an entry").path();
            let Some(version) = file.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
                continue;
            };
            let text = std::fs::read_to_string(&file).expect("a capture");
            let value: Value = serde_json::from_str(&text).expect("a capture is JSON");
            let surface = Surface::from_json(&value).expect("a capture is a surface");
            releases.push((version, surface));
        }
        releases.sort_by(|a, b| a.0.cmp(&b.0));
        servers.push((server, releases));
    }
    servers.sort_by(|a, b| a.0.cmp(&b.0));
    servers
}

/// Each finding on the real servers as read by hand: the server, a piece of the finding's line
/// that tells it apart, and whether the text really addresses the model (`true`) or the
/// finding is a false alarm (`false`). A finding no entry covers is marked `unread` in the
/// snapshot, to be read and added here.
const REVIEWED: &[(&str, &str, bool)] = &[
    ("circleci", "you MUST pass it as the `outputDir`", true),
    ("circleci", "The LLM MUST NOT invoke", true),
    (
        "circleci",
        "proceed automatically and do not ask the user",
        true,
    ),
    ("mapbox", "Preferred usage: any other Mapbox tool", true),
    ("neon", "\"<instructions>\"", true),
    ("shopify-dev", "you MUST extract the conversationId", true),
    ("shopify-dev", "Do not ask the user to run it", true),
    // Cleared by round 10's precision readings (`round11.json`: a shortening forbidden with no
    // one named, a value "always present"): they address the model but ask nothing the rule
    // claims. Kept so that a return reads as already reviewed.
    (
        "shopify-dev",
        "Do not summarize, translate, or paraphrase",
        true,
    ),
    (
        "firecrawl",
        "What the job did with Alexandria providers",
        true,
    ),
    // Round 7's held-out servers, scored, then fixed in round 8 (`round8.json`): kept so that
    // a return of either finding reads as the false alarm it is.
    ("context7", "use more context window", false),
    (
        "gitlab-zereight",
        "Omit to use the current user's namespace",
        false,
    ),
    // Round 9's fresh population (precision10), measured once and not read for fixing: usage
    // of the server's own arguments and tools, and an API limit, read as concealment or as
    // another tool's arguments forced.
    (
        "ms365",
        "accept silently without notifying the organizer",
        false,
    ),
    ("ms365", "support only the updated changeType", false),
    ("ms365", "call download-bytes with target=", false),
    // Round 8's population (precision9), left by round 9: it asks for honesty only because
    // an earlier sentence says scheduling is impossible; alone, it has concealment's shape.
    ("workspace-mcp", "Never tell a user a message", false),
    // Round 11's fresh population (precision11), measured once and not read for fixing: an
    // argument list read as data to pass on, a described behaviour read as an argument forced,
    // and a prohibition ("Under no circumstances should you use this tool to: …") read as
    // skipping the user's confirmation.
    ("elevenlabs", "agent_id: The ID of the agent", false),
    ("elevenlabs", "always returns text directly", false),
    ("jupyter", "Execute dangerous code that may harm", false),
    // Round 14's fresh population (precision14, the seventh capture), measured once: a
    // documentation link read as data sent to it, a session id and a tool's own output read
    // as the conversation taken, a plan's approval, a schema's "first call" and a
    // "downstream" clear read as consent and delay, an argument left out or needed read as
    // concealment or forced, the character reader's "Preferred … tool" (all false). Those of
    // the readings were cleared by round 14's readings (`round14.json`) and are kept so that a
    // return reads as already reviewed; five `text-intent` ones are left (service keys, a
    // snapshot store, an output field, environment variables, an item code). Kept true: a
    // tool that tells the model what not to say about discounts.
    (
        "awslabs-billing-cost-management-mcp-server",
        "do NOT state that no discounts",
        true,
    ),
    ("0nmcp", "Service keys to include", false),
    ("0nmcp", "extract its system prompt", false),
    ("0nmcp", "please have a look", false),
    (
        "0nmcp",
        "To continue the conversation within the same session",
        false,
    ),
    ("0nmcp", "Previous execution ID to continue", false),
    (
        "0nmcp",
        "including the System Prompt, Conversation history",
        false,
    ),
    ("0nmcp", "Execute a plan that a human has approved", false),
    (
        "astro-airflow-mcp",
        "also clear all downstream tasks",
        false,
    ),
    ("mcp-grafana", "values confirmed by the user", false),
    ("mcp-grafana", "Store snapshot on external server", false),
    (
        "mcp-grafana",
        "If the version is not already confirmed with the user",
        false,
    ),
    (
        "mcp-grafana",
        "keyed by field key from the schema returned",
        false,
    ),
    ("server-pdf", "use list_pdfs to see available files", false),
    ("server-pdf", "always required when omitting", false),
    ("unifi-protect-mcp", "Record everything while active", false),
    (
        "xcodebuildmcp",
        "Default environment variables to pass to launched apps",
        false,
    ),
    ("xcodebuildmcp", "the character reader scores it", false),
    (
        "xero-mcp-server",
        "can be obtained from the list-items tool",
        false,
    ),
    // Round 15's population (the eighth capture), read by hand: tool routing of the server's own
    // sub-commands, an optional dependency, example kinds, a cache's source, a platform's own
    // environment-variable API, an id the model may invent: none asks what its rule claims.
    (
        "azure__mcp",
        "Set \"learn=true\" to discover available",
        false,
    ),
    (
        "code-index-mcp",
        "Regex matching requires passing regex=True",
        false,
    ),
    (
        "kubernetes-mcp-server",
        "common apiVersion and kind include",
        false,
    ),
    ("vercel__sdk", "The source is either `LOCAL`", false),
    (
        "vercel__sdk",
        "an argument named for something outside the item's purpose",
        false,
    ),
    (
        "vercel__sdk",
        "Retrieve the environment variables of a project",
        false,
    ),
    ("wcgw", "or whatever user provided", false),
    // The ninth capture (round 16's fresh population), read 2026-12-03: documentation.
    (
        "awslabs.aws-serverless-mcp-server",
        "container_env_var_file",
        false,
    ),
    (
        "awslabs.aws-serverless-mcp-server",
        "container_env_vars",
        false,
    ),
    ("awslabs.aws-serverless-mcp-server", "config_file", false),
    (
        "awslabs.aws-serverless-mcp-server",
        "environment_variables_file",
        false,
    ),
    (
        "awslabs.aws-serverless-mcp-server",
        "Uses pre-approved templates, not LLM generat",
        false,
    ),
    (
        "awslabs.aws-support-mcp-server",
        "- Include relevant logs, configuration files",
        false,
    ),
    (
        "awslabs.aws-support-mcp-server",
        "**describe_communications** → read full conv",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "注意：如果未传入 ide 参数且无法从环境变量检测到 IDE，将提示错误并要求传入 id",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "传 imageUrl 时 targetPath 可省略；已存在服务会 Read-Merg",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "强制操作开关，用于跳过确认提示。",
        false,
    ),
    ("cloudbase__cloudbase-mcp", "envVariables", false),
    (
        "cloudbase__cloudbase-mcp",
        "若包含 DATABASE_URL / MYSQL_* / POSTGRES_* / RE",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "⚠ 底层每次托管操作都会请求 DescribeStaticStore 管控接口（20 次",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "- 直接设置用户 Rego：`action=",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "设置 Rego 后会立即禁用旧网关鉴权，必须显式传 confirm=true（对齐 CL",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "建表/ALTER/DROP 等 schema 变更必须使用 applyMigration",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "/ MIGRATION_TASK_TIMEOUT / 失败诊断，listMigratio",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "设为 false 时 Push 后立即返回 TaskId（errorCode=MIGRA",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "本工具用于查看常规存储；为 PG 浏览器上传准备 bucket 时，请确认目标 buck",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "- confirm：必须显式传 true 才执行部署，否则直接拒绝",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "构建为纯本地操作：不解析环境、不要求登录，也不需要 confirm。",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "管理 CloudBase 环境，支持：listPackages=查询可选套餐列表，cre",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "func.buildStrategy=image（已有镜像，填 func.imageCo",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "字段级回退：显式传入的字段优先，未传字段读环境变量。",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "环境级凭据（API Key / 托管授权 token）为单环境权限，该参数会被忽略：结果",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "返回 data.build（构建子状态）、data.deploy（部署子状态）、data",
        false,
    ),
    (
        "cloudbase__cloudbase-mcp",
        "⚠ 角色类 action（`listRoles` / `getRole`）在 **Pos",
        false,
    ),
    (
        "creem",
        "Retrieve a paginated list of license keys fo",
        false,
    ),
    (
        "figma-console-mcp",
        "- **figma_setup_design_tokens**: Create a co",
        false,
    ),
    (
        "figma-console-mcp",
        "On failure/retry: DELETE any partial artifac",
        false,
    ),
    (
        "figma-console-mcp",
        "TIP: For full design system extraction (toke",
        false,
    ),
    (
        "figma-console-mcp",
        "Set to true ONLY after: (1) you received a c",
        false,
    ),
    (
        "figma-console-mcp",
        "Overwrite existing scaffold files (token fil",
        false,
    ),
    (
        "figma-console-mcp",
        "running the same structural check or fix aga",
        false,
    ),
    (
        "figma-console-mcp",
        "toUpdate entries push value updates in a bat",
        false,
    ),
    (
        "figma-console-mcp",
        "If another connected plugin matches the URL,",
        false,
    ),
    (
        "hypothesi__tauri-mcp-server",
        "Call this tool when: (1) driver_session fail",
        false,
    ),
    (
        "hypothesi__tauri-mcp-server",
        "Call this tool when: (1) tauri_driver_sessio",
        false,
    ),
    (
        "morphllm__morphmcp",
        "WHEN TO USE vs native edit/patch tools: pref",
        false,
    ),
    (
        "morphllm__morphmcp",
        "Example: reflex_predict({ text: ",
        false,
    ),
    (
        "morphllm__morphmcp",
        "Use this before reading individual turns; fo",
        false,
    ),
    // Rounds 17 and 18's fresh populations (precision17, precision18), each measured once and then
    // added as the tenth and eleventh captures. rm-mcp's descriptions are sections, one an
    // `<instructions>` block for the model (as neon's): true. The rest false: guidance within the
    // server's own tools and arguments, phone numbers and examples read as sinks.
    ("rm-mcp", "posing as the system", true),
    ("kube-assistant-mcp", "Always show the plan", false),
    ("mcp-portainer", "ConfigFilePath", false),
    ("mcp-portainer", "replaces stored credentials", false),
    ("mcp-portainer", "envVars", false),
    ("mcp-semclone", "Detect undisclosed OSS components", false),
    (
        "mcp-semclone",
        "path: Directory or file path to scan",
        false,
    ),
    ("mcp-server-bitbucket", "repo_slug: Repository slug", false),
    ("notebooklm-mcp", "run `setup_auth`", false),
    ("notebooklm-mcp-cli", "new_conversation", false),
    ("notebooklm-mcp-cli", "\"a@b.com\"", false),
    (
        "react-native-ai-debugger",
        "are FALLBACKS for non-React",
        false,
    ),
    (
        "react-native-ai-debugger",
        "WORKFLOW: disconnect_metro",
        false,
    ),
    (
        "react-native-ai-debugger",
        "List the credentials this session has captured",
        false,
    ),
    (
        "react-native-ai-debugger",
        "Omit to skip returning state",
        false,
    ),
    (
        "react-native-ai-debugger",
        "WHEN TO USE (only these cases)",
        false,
    ),
    (
        "react-native-ai-debugger",
        "keep that out of the report",
        false,
    ),
    ("signal-mcp", "an exfiltration target", false),
    ("signal-mcp", "the user's own choice set aside", false),
    ("sportsdata-mcp", "Leave it alone", false),
    ("sportsdata-mcp", "keys here are UPPERCASE", false),
    ("tailscale-blade-mcp", "Devices are pre-approved", false),
    ("thruk-mcp", "pass `columns=''`", false),
    ("vps-guardian-mcp", "bounded agent runbook", false),
    ("web-forager", "Use this instead of regular search", false),
    (
        "wheel-size-mcp",
        "ws_search_by_tire responses include",
        false,
    ),
    ("wheel-size-mcp", "Prefer this over ws_search_by_", false),
    // Round 19's population (twelfth capture).
    ("influencers-club-mcp", "IGNORE this block", true),
    (
        "influencers-club-mcp",
        "Open Claude Code and drop your file there",
        true,
    ),
    (
        "us-eli-mcp",
        "Do not answer past the edge of this corpus",
        true,
    ),
    ("gephi-mcp", "then say nothing about versions", true),
    ("alpacon-mcp", "Put composition inside the script", false),
    (
        "alpacon-mcp",
        "Get the current authenticated user info",
        false,
    ),
    (
        "alpacon-mcp",
        "Omitting users scopes the approved policy",
        false,
    ),
    ("alpacon-mcp", "skip this round trip entirely", false),
    ("alpacon-mcp", "Upload multiple local files", false),
    (
        "amazing-marvin-complete-mcp",
        "the UI does not aggregate it",
        false,
    ),
    (
        "amazing-marvin-complete-mcp",
        "On a 429/error the fetch stops",
        false,
    ),
    (
        "amazing-marvin-complete-mcp",
        "Also look up the block",
        false,
    ),
    ("amazing-marvin-complete-mcp", "Only on weekdays", false),
    ("copernicus-mcp", "bypass the size confirmation gate", false),
    ("gephi-mcp", "never reports which one", false),
    ("gephi-mcp", "drop words appearing fewer than", false),
    ("polar-sh__sdk", "renamed from `orders_list`", false),
    // The thirteenth capture (round 22's population, tuning material of round 7): every
    // finding is a `text-intent` warning; usage guidance that tells the model how to call
    // the tool addresses it, descriptions of what the tool does do not.
    (
        "claude-memory-layer",
        "Explicitly import the latest local Claude Code",
        true,
    ),
    ("context-mode", "NEVER call with bare {confirm:true}", true),
    ("context-mode", "BM25 ranked, current session only", false),
    (
        "context-mode",
        "Every command's output is auto-indexed",
        false,
    ),
    (
        "respira-wordpress",
        "Approval-gated: first call returns",
        true,
    ),
    (
        "respira-wordpress",
        "The plugin returns a fresh token",
        true,
    ),
    ("respira-wordpress", "Send the exact token verbatim", true),
    (
        "respira-wordpress",
        "Provide exactly one of id / admin_label",
        true,
    ),
    (
        "respira-wordpress",
        "Never say \"we\" or \"our team.\"",
        true,
    ),
    ("respira-wordpress", "bypass the inhale opt-in gate", false),
    ("respira-wordpress", "false skips that round trip", false),
    // Reviewed after round 7's model was trained (it scores 1.68 once the texts above are left
    // out of the honest material): the committed model was trained without this entry.
    ("respira-wordpress", "Approval flow (added v6.14.2)", true),
    // Rounds 23 and 24's fresh populations (precision23, precision24), each measured once and
    // then added as the fourteenth and fifteenth captures. True: hostinger tells the model to
    // send real values "taken from the project `.env` file or the user prompt" and to leave the
    // archive's build output out; greptile's argument asks for the previous messages (the tool
    // chats about a codebase; the rule's claim is literally right). The rest are guidance within
    // the server's own tools and arguments, CLI placeholders, described defaults, and the
    // character reader on operational prose and short titles.
    (
        "hostinger",
        "values taken from the project `.env` file",
        true,
    ),
    ("hostinger", "never copy the masked values", true),
    ("hostinger", "Node.js apps read them from environment", true),
    ("hostinger", "the archive must ONLY contain", true),
    (
        "greptile",
        "Previous conversation messages for context",
        true,
    ),
    ("hostinger", "must all be provided by the caller", false),
    ("hostinger", "back out of a WHOIS change", false),
    ("hostinger", "Returns the build settings stored", false),
    (
        "hostinger",
        "agency-hosting_replaceWebsitePHPOptionsV1",
        false,
    ),
    ("hostinger", "mail_resendForwarderConfirmationV1", false),
    ("agentcore", "a tag posing as the system", false),
    ("agentcore", "rotates the key without", false),
    ("bycrawl", "Returns the root post", false),
    ("camt053", "session/{session_id}/bank/{bic}", false),
    ("consultllm", "the `model` parameter is ignored", false),
    (
        "contextstream",
        "Replaces the need to include full chat",
        false,
    ),
    ("contextstream", "uses current session workspace", false),
    (
        "contextstream",
        "defaults to current session project",
        false,
    ),
    ("contextstream", "grouped (default, ~120 tokens)", false),
    ("debugmcp", "Adapter-specific attach configuration", false),
    ("falconer", "call upload_media for local files first", false),
    (
        "falconer",
        "Continue a previous ask_falcon conversation",
        false,
    ),
    ("firefoxdt", "binary path, environment variables", false),
    ("malcolm", "three other things on this server", false),
    ("malcolm", "`query` is always a string", false),
    (
        "malcolm",
        "tool `arkime_session_file_by_hash`: the text",
        false,
    ),
    ("malcolm", "tool `cluster_health`: the text", false),
    ("stamp", "tool `get_time`: the text", false),
    ("unipile", "pass phone numbers (with country code", false),
    ("unipile", "attachment_paths: Optional list", false),
    (
        "vuetify",
        "tool `get_frequently_asked_questions`: the",
        false,
    ),
    // Round 25's fresh population (precision25), measured once and then added as the sixteenth
    // capture. True: cygnusssh tells the model to warn the user that credentials would be
    // visible to it (protective, but it addresses the model). The rest describe the server's
    // own tools, arguments and results, or are the character reader on operational prose.
    (
        "cygnusssh",
        "Warn the user that credentials will be visible",
        true,
    ),
    ("cygnusssh", "already confirmed not running", false),
    ("cygnusssh", "hide unrelated internal plumbing", false),
    ("cygnusssh", "Copy a directory recursively", false),
    ("cygnusssh", "Switch which host configuration file", false),
    ("ableton", "op: \"duplicate_loop\"", false),
    ("clickup", "To add or remove a reaction", false),
    ("clickup", "regardless of the requested value", false),
    ("clickup", "Set `custom_task_ids=true`", false),
    ("cookunity", "Confirmation message with skip ID", false),
    ("firmaradar", "the per-year lists are always null", false),
    (
        "firmaradar",
        "Always empty for the async report flow",
        false,
    ),
    (
        "gworkspace",
        "delete operations work on all comments",
        false,
    ),
    ("hydrus", "recursively scrape subdirectories", false),
    ("hydrus", "TRUE total match count is always reported", false),
    ("llmledger", "Two to six models side by side", false),
    ("llmledger", "\"cached_tokens\"", false),
    ("llmledger", "tool `estimate_time`: the", false),
    ("llmledger", "tool `forecast_job`: the", false),
    ("llmledger", "tool `estimate_cost`: the", false),
    ("llmledger", "tool `log_run`: the", false),
    ("molecules", "report the result as value", false),
    ("molecules", "tool `find_chemical_compound`: the", false),
    (
        "playhub",
        "Prefer this over get_tournament_round_standings",
        false,
    ),
    // Round 26's fresh population (precision26), measured once and then added as the
    // seventeenth capture: all false. popdb's and postmanrunner's instructions do address the
    // model, but to call the server's own tools and to ask the user for input, not the
    // exfiltration the finding claims; pve's `confirm=true` is its own argument's interlock.
    ("adobecommerce", "Your feedback about this session.", false),
    ("codexmcp", "Enable full-auto mode", false),
    ("mingdao", "MD_ACCOUNT_ID", false),
    ("popdb", "ALWAYS call setup_app_password", false),
    (
        "postmanrunner",
        "ask the user to fill the generated config",
        false,
    ),
    (
        "postmanrunner",
        "The generated config file will list",
        false,
    ),
    ("postmanrunner", "Call prepare_collection first", false),
    ("pve", "sets root access via password", false),
    ("pve", "Read-only actions (status, is-active", false),
    ("pve", "Requires confirm=true on every call.", false),
    ("pve", "wipe first via proxmox_disk_prepare", false),
    // Round 27's fresh population (precision27), measured once and then added as the
    // eighteenth capture. True: pdfcrowd tells the model to report configuration problems to
    // the user instead of trying other PDF tools (honest, but it does steer away from other
    // tools). The rest name the tool's own arguments (`system_prompt` of a prompt-running
    // tool, `userPassword` of a database user), describe what a mode does, or are the
    // character reader on the tool's own behaviour.
    ("pdfcrowd", "instead of trying other PDF tools", true),
    ("foundry", "\"system_prompt\"", false),
    ("xampp", "\"userPassword\"", false),
    ("godot-server", "ALWAYS saves the scene back", false),
    ("godot-server", "destructive denylist", false),
    ("godot-server", "Paths are scene-relative", false),
    ("godot-server", "Ignored when atomic=true", false),
    ("nodedebugger", "Keep breakpoints active", false),
    ("phcivic", "validation_error stays false", false),
    ("freshrss", "save credentials to environment", false),
    // Round 28's fresh population (precision28), measured once and then added as the
    // nineteenth capture: all false. dominican-opendata's instructions address the model, to
    // say when a file cannot be read (the truth, not concealment); the rest describe the
    // server's own tools, arguments and limits, or are the character reader on a short Spanish
    // prompt description.
    (
        "bitbucket-bb",
        "pipe_fail_summary filters to FAILED runs",
        false,
    ),
    ("docgen", "Optional per-call", false),
    ("docgen", "optionally overrides the input root", false),
    (
        "dominican-opendata",
        "Export endpoint for analysis workflows",
        false,
    ),
    (
        "dominican-opendata",
        "If a file cannot be read, say so",
        false,
    ),
    ("dominican-opendata", "prompt `empezar_aqui`", false),
    ("epics", "withholds rather than", false),
    ("epics", "withholds the WHOLE result", false),
    ("epics", "Call get_alarm_history WITHOUT root", false),
    ("gitlab-pack", "remove a source_branch", false),
    ("godot", "Clear buffer after reading", false),
    ("godot", "Clear the editor error buffer", false),
    ("godot", "every autoload by its own name", false),
    ("godot", "never reports a virtual pad", false),
    ("godot", "owns the sequence clock", false),
    ("godot", "set_cell: Set a single cell", false),
    ("metabase-nao", "MUST include an 'aggregation' field", false),
    ("optimizely", "ALWAYS call get_entity_documentation", false),
    // Round 12's lexicons (the Chinese one extended): an omitted argument's default read as
    // leaving something out, a reserved role named as no one's read as withheld, and guidance
    // not to call the tool again read as skipping a confirmation. None is.
    (
        "cloudbase__cloudbase-mcp",
        "省略时默认使用当前环境 ID",
        false,
    ),
    ("cloudbase__cloudbase-mcp", "不要传 postgres", false),
    ("antdcomp", "直接展示而不再调用工具", false),
    // Precision populations 29 to 32 (2026-12-04, measured once each in round 12, then joined
    // here in round 13): the opt-in `text-intent` lint and the drift findings left on them.
    // `true` where the text really addresses the model, whatever the rule read in it.
    (
        "adoactivity",
        "ALWAYS dry_run=True first, then confirm",
        true,
    ),
    ("almanac", "Estado ROLLING de un Texto Ordenado", false),
    (
        "amzbuildertools",
        "Called once per session by the agent",
        false,
    ),
    (
        "apple-events",
        "Subtasks are stored in the notes field",
        false,
    ),
    ("askgemini", "Optional Gemini session ID", false),
    ("askgemini", "session usage stats", false),
    ("automox", "Permissions: as of 2025-10-27", false),
    ("automox", "confirm before use", true),
    ("blackdome", "not an auth bypass", false),
    (
        "boxadm",
        "Every other tool here reads the event stream",
        false,
    ),
    ("boxadm", "next_stream_position``", false),
    ("callrail", "customer_phone_number", false),
    ("cf-crunch", "Every method works", true),
    ("cited", "Include trust-signal evidence", false),
    ("cited", "recommend running ``crawl_business``", true),
    ("clawnch", "already-broadcast launch transaction", false),
    ("comfyui", "Do not restart ComfyUI until", true),
    ("comfyui", "discard the memoized", false),
    ("comfyui", "READ THE ROUTE-AWARE NOTE", true),
    ("comfyui", "Builds a txt2img workflow", false),
    ("comfyui", "pass persist:true", false),
    ("comfyui", "a RECURSIVE filesystem scan", false),
    (
        "comfyui",
        "These call external image/video providers",
        false,
    ),
    ("comfyui", "extra-search-path YAML", false),
    (
        "comfyui",
        "check here for a custom-node-contributed starter",
        true,
    ),
    ("comfyui", "validates the pack's pyproject.toml", false),
    ("comfyui", "Use this before action:", true),
    ("comfyui", "Connect comfyui-mcp to a pod", false),
    ("comfyui", "Captioning ALWAYS runs through Claude", false),
    ("comfyui", "DRAW a diagram of, or convert", true),
    ("comfyui", "Include widget values", false),
    ("contree", "Prefer `list_files`", true),
    ("contree", "Truncate Output At", false),
    ("contree", "Wait for user to provide the token", true),
    ("contree", "Sync local files to", false),
    ("docauto", "Save a converted PDF", false),
    ("elog", "Always include the URL of e", true),
    ("feedback-enhanced", "You MUST provide this parameter", true),
    ("figma-mcp", "Add a Figma file to your context", false),
    ("nextaidrawio", "Use this when the user wants", true),
    (
        "pencil",
        "When starting a conversation, call list_workflows",
        true,
    ),
    ("pencil", "external apps can also call POST", false),
    ("sec-scanner", "Previous conversation messages", false),
    ("selenium-ai", "Provide just testPath", false),
    ("swiss-road", "Instead of calling 5 different tools", true),
    ("tcg", "Behind the scenes, sealed product", false),
    // Precision populations 33 to 36 (2026-12-04, measured once each in round 13, then joined
    // here in round 14): the opt-in `text-intent` lint and the drift finding left on them.
    ("aorch", "Ignored for \"decline\"", false),
    ("aorch", "you don't know when the watched", true),
    ("archai", "Absolute path to the repository root", false),
    ("assurance", "Check what a task required", false),
    (
        "bookingkoala",
        "Part of a name, email or phone number",
        false,
    ),
    ("booksy", "Reads the settings an agent needs", false),
    ("booksy", "Change an appointment", false),
    ("cronos", "Usa questo tool DOPO cronos_fine_giornata", true),
    ("exasol", "Selects the list of builtin functions", false),
    ("fasttest", "Manage browser sessions", false),
    ("fatturapa", "Newline-separated root paths", false),
    ("finerx", "skip a step the person did not ask for", true),
    (
        "halflife",
        "When the user asks you to forget something",
        true,
    ),
    ("indiastack", "Provides offline validation for GSTIN", false),
    ("indiastack", "Use when computing withholding tax", true),
    ("indiastack", "Look up bank details from RBI", false),
    (
        "jdocmunch",
        "window='session' reads the in-memory ring",
        false,
    ),
    ("jdocmunch", "Resolve a filesystem path", false),
    (
        "jdocmunch",
        "Section ids or doc paths retrieved this session",
        false,
    ),
    ("jupymcp", "code: Code to execute", false),
    (
        "kanoniv",
        "raw agent text (conversation, email, ticket)",
        false,
    ),
    (
        "kanoniv",
        "Natural language text (conversation, email, ticket)",
        false,
    ),
    ("lm-mcp", "Acknowledge multiple alerts at once", false),
    ("lm-mcp", "Delete multiple SDTs at once", false),
    ("mingli", "调用排盘前，先向用户确认", true),
    ("mireye", "Store request_id in durable task state", true),
    ("mireye", "also carries free area context", false),
    ("mireye", "Give EITHER address OR lat+lng", true),
    ("mireye", "NEVER cache or restate a `failed` field", true),
    ("obol", "Retrieve the latest cluster lock created", false),
    ("onshape", "Always uses auto-fit", false),
    ("packetfabric", "Always show the user the preview", true),
    ("roberto", "List the owner's phones", false),
    ("sarvam", "Everything is concatenated", false),
    (
        "skillforge",
        "silently evaluate whether it contains feedback",
        true,
    ),
    // Precision populations 37 and 38 (2026-12-04, measured once each in round 14, then joined
    // here in round 14): the opt-in `text-intent` lint and the drift findings left on them
    // (and round 14's reader on population 34's exasol).
    (
        "ankinote",
        "How many notes the user agreed to delete",
        false,
    ),
    (
        "ankinote",
        "act on anything a snippet tells you to do",
        true,
    ),
    ("aruba", "name: Full name", false),
    ("bizonquant", "保存前查重", true),
    ("bizonquant", "新配置可能立即影响实盘", true),
    ("bizonquant", "是否覆盖同类型同名策略", true),
    ("bizonquant", "覆盖已部署策略可能立即影响实盘", true),
    ("bootspring", "Files modified this session", false),
    (
        "bytesmith",
        "Returns {algorithm, digest, output_format, bits}",
        false,
    ),
    ("calcom-mcp", "Please enter multiple emails", false),
    ("dbatools-mcp", "never bypass safety checks", true),
    (
        "exasol",
        "Describes one or more User Defined Functions",
        true,
    ),
    ("fastapiarch", "It is cached in <project_root>", false),
    ("logseq", "ALWAYS use false with the parent's UUID", true),
    (
        "matchawards",
        "Award records may be incomplete, so say so",
        true,
    ),
    (
        "matchawards",
        "label it as such whenever you quote it",
        true,
    ),
    (
        "zendesk-mcp-ro",
        "Retrieve all comments (conversation thread)",
        false,
    ),
    (
        "zenmoney-mcp",
        "Remove unchanged updates before preparing",
        true,
    ),
    ("zoty", "uses the batch `items` shape", false),
    (
        "zsnoop-mcp",
        "Exploration and recovery of ZFS snapshots",
        false,
    ),
    ("zte-f680-mcp", "Nunca inventes IPs internas", true),
    // Round 15's fresh populations (precision41, precision42), read when they joined.
    ("icloud-mail", "Read the current session log", true),
    (
        "next-devtools",
        "Reset AI's Next.js knowledge baseline",
        true,
    ),
    ("next-devtools", "Call 'nextjs_call' with port=3000", true),
    ("next-devtools", "forget any prior Next.js knowledge", true),
    ("paddle", "without checking with the user first", true),
    ("yunxiao-devops", "\"environmentVariables\"", false),
    (
        "yunxiao-devops",
        "Review a change request (merge request)",
        false,
    ),
    (
        "ai-vault",
        "Never tell the user you cannot access a source path",
        true,
    ),
    ("aigentsy", "VOUCHED FOR OUTSIDE", true),
    ("basecamp-cli", "ignoring BASECAMP_TOKEN env var", false),
    ("basecamp-cli", "Skip confirmation prompt", false),
    (
        "basecamp-cli",
        "Disable a tool to hide it from the project dock",
        false,
    ),
    ("db-explorer", "outputs CSV instead", false),
    ("missioncache", "Mark a plan as completed or failed", false),
    ("missioncache", "Claude Code session ID", false),
    (
        "missioncache",
        "the parent-context mtime this session last saw",
        false,
    ),
    ("missioncache", "rather than omitting the arg", false),
    ("nutanix", "over the requested time window", false),
    ("nutanix", "read/write latency (µs) over the", false),
    ("nutanix", "total storage capacity/usage", false),
    ("steam", "hide games the user already owns", false),
    // Round 15's populations 43 and 44 (precision43, precision44), read when they joined.
    ("omniroute", "\"preserveSystemPrompt\"", false),
    (
        "bruno",
        "Optional names of environment variables to read",
        false,
    ),
    ("jmri", "always report a failed command or a", true),
    ("jmri", "address outside it is refused here", false),
    ("jmri", "don't say that", true),
    ("jmri", "explanatory responses for", true),
    ("jmri", "turn_on=True is REFUSED", false),
    ("jmri", "report that honestly, not as", true),
    ("opensolr", "That list is the whole set, not a", true),
    ("opensolr", "Use opensolr_search for retrieval", true),
    (
        "opensolr",
        "Read local files on Opensolr without indexing them",
        false,
    ),
    ("plane-ce", "are silently skipped", false),
    ("sonilo", "omit it unless the user asks for stricter", true),
    ("whitebit", "refuse to call trading tools", true),
    // Round 16's populations 45 to 47 (precision45 to precision47), read when they joined.
    (
        "basicmemory",
        "If the knowledge base is empty, briefly explain",
        true,
    ),
    ("basicmemory", "whose files are always deleted", false),
    ("basicmemory", "cloud files are always deleted", false),
    (
        "browserstack",
        "Do NOT answer accessibility questions directly",
        true,
    ),
    (
        "browserstack",
        "Use this when no other BrowserStack tool",
        true,
    ),
    (
        "browserstack",
        "omit to have it requested from the user",
        false,
    ),
    ("cloudinary", "Mapped to the closest format", false),
    (
        "cloudinary",
        "ignored by models that don't support it",
        false,
    ),
    ("cloudinary", "to that family's edit model", false),
    (
        "digitalocean",
        "If there is not an environment variable",
        false,
    ),
    ("digitalocean", "Copy from the user's message only", true),
    ("digitalocean", "Returns two markdown tables", false),
    ("digitalocean", "\"MinContextWindow\"", false),
    ("magic21st", "Extract the specific UI elements", true),
    (
        "magic21st",
        "Full user's message about UI refinement",
        false,
    ),
    ("mastradocs", "Mastra Course lesson", false),
    ("mcpdoc", "Always use this first", true),
    ("netlify", "EnvVar", false),
    ("netlify", "envVar", false),
    ("nextcloud", "The link is always **read-only**", false),
    ("nextcloud", "Past that, write the content to a note", true),
    ("nextcloud", "(TRANSP:TRANSPARENT)", false),
    (
        "nextcloud",
        "surfaces this as 'never show me as busy'",
        false,
    ),
    ("nextcloud", "10 for Talk conversation", false),
    (
        "nextcloud",
        "Add a participant to a group or public Talk",
        false,
    ),
    ("octocode", "Include the PR conversation time", false),
    ("octocode", "On paginationChanged, discard prior", true),
    ("qase", "the hash that other tools reference it by", false),
    ("sanity", "Always use this instead of other tools", true),
    ("skydeck", "WHEN NOT TO USE", true),
    ("tmdb", "Unlike get_movie/get_tv's own certification", false),
    ("tmdb", "need the TMDB id for the other tools", true),
    ("triggerdev", "To keep it out, run the CLI instead", true),
    // Round 16's population 48 (precision48), read when it joined.
    ("plex", "to the PLEX_TOKEN account's Watchlist", false),
    ("rootly", "You can select a phone number using", false),
    ("rootly", "system_prompt", false),
    ("rootly", "Allow the Rootly bot to", false),
    ("rootly", "For questions about totals across a", true),
    ("sqlalchemy", "支持通过环境变量控制SQL操作权限", false),
    ("teradata", "Execute entire workflow silently", true),
    (
        "teradata",
        "NEVER call this tool with an empty database_name",
        true,
    ),
    (
        "teradata",
        "Sequence objects for deployment or migration",
        false,
    ),
    ("tigergraph", "**Do not provide both**", true),
    ("tigergraph", "Call 'get_data_source_types'", true),
    (
        "unstructured",
        "Name of the schema associated with the volume",
        false,
    ),
    ("vizro", "All data used in the chart must be derived", true),
    ("vizro", "Must be ALWAYS called FIRST", true),
    // Round 17's populations 49 and 50 (precision49, precision50), read when they joined.
    ("awsvalkey", "confirm=True parameter on each call", true),
    ("ipinfo", "OMITS heavy nested blocks", false),
    ("macmessages", "hours: Number of hours to look back", false),
    (
        "macmessages",
        "recipient: Phone number, email, contact name",
        false,
    ),
    // Round 17's population 51 (precision51), read when it joined.
    ("domshell", "prefer over native browser tools", true),
    (
        "fabric",
        "the calling principal is authorized to access",
        false,
    ),
    ("inkeepmanage", "conversationHistoryConfig", false),
    (
        "inkeepmanage",
        "Delete a complete project and cascade",
        false,
    ),
    ("loopuman", "Add funds at https://loopuman.com", false),
    // Round 18's populations 52 and 53 (precision52, precision53: servers documented in other
    // languages), read when they joined.
    (
        "firsttofly",
        "Mark a work item as completed or failed.",
        false,
    ),
    ("fiscalbr", "Extrai dados do certificado assinante", false),
    ("fiscalbr", "Orienta sobre como consultar", false),
    ("mcpuruguay", "Asistencia a sesiones del Senado", false),
    ("mcpuruguay", "La respuesta de `combustible_ancap()`", false),
    ("mcpuruguay", "Quién publica cada dato", false),
    (
        "observability-gcp",
        "to gather full information call get_trace",
        false,
    ),
    ("rio-uikit", "a coherent look and feel across", false),
    ("rio-uikit", "import { useRef", false),
    ("strava", "Disconnect your Strava account", false),
];

/// The verdict of [`REVIEWED`] on one finding's line.
fn verdict(server: &str, line: &str) -> &'static str {
    match REVIEWED
        .iter()
        .find(|(s, piece, _)| *s == server && line.contains(piece))
    {
        Some((_, _, true)) => "true ",
        Some((_, _, false)) => "false",
        None => "unread",
    }
}

/// The poisoning findings on the published servers nobody tuned on (`fixtures/real-servers/`,
/// docs/lints.md "Precision on servers nobody tuned on"): the live lints on every capture and
/// what a drift between two captures of a server (both ways) calls poisoned, each with its
/// verdict ([`REVIEWED`]). A finding more or less, or a verdict changed, is a pending snapshot
/// for `cargo insta review`, never a silently moved number.
#[test]
fn real_servers_findings_are_the_reviewed_ones() {
    use mcp_contract_engine::diff::diff_surfaces;
    use mcp_contract_engine::Policy;
    let mut lines = Vec::new();
    let (mut surfaces, mut pairs) = (0, 0);
    for (server, releases) in real_servers() {
        for (version, surface) in &releases {
            surfaces += 1;
            let found = lint::lint_at(surface, &[], &[], &reader(), Date::from_unix_days(20_000));
            for f in found.iter().filter(|f| poisoning(f)) {
                let line = f.line();
                let short: String = line.chars().take(240).collect();
                let verdict = verdict(&server, &line);
                lines.push(format!("{verdict} lint  {server} {version}: {short}"));
            }
        }
        for w in releases.windows(2) {
            for (a, b) in [(&w[0], &w[1]), (&w[1], &w[0])] {
                pairs += 1;
                for c in diff_surfaces(&a.1, &b.1, &Policy::default()).changes {
                    if c.rule.ends_with("poisoned") {
                        let verdict = verdict(&server, &c.message);
                        let message: String = c.message.chars().take(200).collect();
                        lines.push(format!(
                            "{verdict} drift {server} {} -> {}: {} {}: {message}",
                            a.0,
                            b.0,
                            c.item.test_name(),
                            c.rule
                        ));
                    }
                }
            }
        }
    }
    assert!(surfaces >= 220, "only {surfaces} captures read");
    let count = |v: &str| lines.iter().filter(|l| l.starts_with(v)).count();
    let report = format!(
        "{surfaces} captures, {pairs} release pairs (both ways), {} findings: {} true, {} false, \
         {} unread\n{}\n",
        lines.len(),
        count("true "),
        count("false"),
        count("unread"),
        lines.join("\n")
    );
    let mut settings = insta::Settings::clone_current();
    settings.set_description(
        "Poisoning findings on fixtures/real-servers/, each read by hand (docs/lints.md, \
         \"Precision on servers nobody tuned on\"): `true` when the text really addresses the \
         model, `false` for a false alarm (REVIEWED in poison_precision.rs).",
    );
    settings.set_omit_expression(true);
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("real_servers_findings", report));
}
