import { CliError } from './failure'

export const USAGE = `Parallax: an inspector for agent protocols (MCP and A2A).

Usage:
  parallax                         open the desktop app (the web host when Electron is unavailable)
  parallax web [--port N]          serve the UI on http://127.0.0.1:N/ (token-protected)
  parallax inspect <target>        connect, show handshake, discovery, catalog and keepalive
      [--config FILE] [--json] [--frames] [--probes N] [--interval MS] [--timeout MS] [--log-level L]
      [--profile P] [--binding auto|JSONRPC|HTTP+JSON|GRPC] [--skill NAME …]
                                   exit 1 when the server goes down or a probe fails; an MCP server's
                                   skills (SEP-2640) are listed, --skill loads one (its files read, each
                                   checked against its entry: exit 1 when one does not match)
  parallax inspect --card URL [<target>] [--json]
                                   read an MCP server card (SEP-2127, a draft), a server.json or a base
                                   URL's /.well-known/mcp/server-card, connect (to the card's endpoint
                                   unless a target is given) and diff what it claims against what the
                                   server answers: same, only in card, only on server, changed; exit 1 on drift
  parallax call <target> <tool> --args JSON [--hooks FILE] [--json] [--protocol-fields a,b] [--log-level L]
                                   one call with pre-validation hooks: raw vs hooked arguments,
                                   both validations, context echo, protocol-field lint; --task makes
                                   it an MCP task (2025-11-25), followed to its result (its task id
                                   and the status it ended in are said, and are the JSON's "task"),
                                   for at most --task-deadline SECONDS (600), then said and left running
  parallax request <target> <method> [--params JSON] [--json] [--timeout MS] [--log-level L]
                                   send any MCP request (prompts/get, resources/read,
                                   completion/complete, logging/setLevel, …) and print the answer;
                                   progress on stderr, Ctrl+C cancels it (notifications/cancelled);
                                   exit 1 for a JSON-RPC error answer or no answer
  parallax request <target> --from-frame FILE#SEQ [--params JSON] [--yes]
                                   send again a request a recording holds (SEQ: its event number,
                                   as Frames shows it; FILE: a path or a library recording's name)
                                   or a file holding one request as JSON; --params replaces its
                                   params; a tool call or a cancel asks first (or needs --yes)
  parallax record <target> --turn T [--turn T …] --out FILE [--secret-key NAME …] [--json]
                                   record a conversation (turns as in converse) as JSON Lines
  parallax replay FILE|FOLDER … --target A [--target B] [--ignore POINTER …] [--shard i/n]
      [--json] [--junit FILE] [--report FILE.html]
                                   replay recordings (files, or a folder's *.jsonl): against one target
                                   (vs the recording) or two (A vs B), turn by turn; --shard i/n takes
                                   the i-th of n parts of the sorted files (a CI matrix); --junit writes
                                   one file, a <testsuite> per recording; --report one HTML page;
                                   exit 1 when any turn differs or fails
  parallax compare <targetA> [<targetB>] [--profile-a P] [--profile-b P] [--fail-on any|breaking] [--json]
      [--pair tool=skill …]
                                   connect under two client profiles (minimal, full, hinted,
                                   mcp-2025, mcp-2026, or a file) or to two targets, and diff what
                                   each exposed: same, only in A, only in B, changed; MCP tools,
                                   A2A skills and ACP commands pair by name, or as --pair says;
                                   --prompt TEXT also sends it to each ACP side and lists the tools used
  parallax converse <target> --turn T [--turn T …] [--stream] [--json] [--log-level L]
      [--push [--push-within MS]]
                                   run a multi-turn conversation; A2A turns are text or a JSON
                                   object (sent as a data part); MCP turns are {"tool", "arguments"};
                                   ACP turns are prompts (a {"tool", "arguments"} goes as /tool {json})
                                   --push gives each unfinished A2A task a webhook on Parallax's
                                   receiver (127.0.0.1) and reports the pushes; a task that changes
                                   state with no push within MS (5000) is a finding: exit 1
  parallax tap [--name NAME] [--record FILE] [--protocol mcp|acp] -- COMMAND [ARGS…]
                                   run a stdio MCP server or ACP agent for a host (put this where the
                                   host's config had the command): every byte relayed as it comes, the
                                   session kept for Parallax (live in a running app, or in History later)
      [--hold METHOD …] [--hold-tool NAME …] [--hold-way out|in] [--hold-timeout MS]
                                   hold matching messages in flight until released in the app (or MS)
  parallax tap --listen 127.0.0.1:PORT --to URL [--name NAME] [--record FILE] [--json]
                                   the same for an MCP server over HTTP or an A2A agent: a reverse proxy
                                   on loopback (the agent card points the host at it)
  parallax tap install --host H [--config FILE] [--server NAME …] [--write] [--json]
                                   make a host's stdio servers start through parallax tap (H: claude-desktop,
                                   claude-code, cursor, vscode, windsurf, zed; Zed's agent_servers as ACP):
                                   shows each entry before and after and writes nothing without --write;
                                   with it, the file is kept in the data folder's tap-backups/ first, and only
                                   the tapped entries' command and args change (comments and layout stay)
  parallax tap uninstall --host H [--config FILE] [--server NAME …] [--write] [--json]
                                   put the tapped entries back as they were (byte for byte when untouched since)
  parallax sessions [--target ID] [--json]
                                   every session kept (each connection's whole life, written as it
                                   happened, by the app, the web host and these commands), newest first
  parallax sessions export ID --out FILE [--from TIME] [--to TIME]
                                   one session (or the part between two times: ISO or epoch ms) as a
                                   recording; parallax sessions delete ID removes one

Targets:
  demo:tools | demo:prompts | demo:resources   the built-in demo servers
  stdio:<command line>                         spawn an MCP server over stdio
  mcp:<url>                                    streamable HTTP; legacy SSE if it answers 404 or 405
  a2a:<url>                                    an A2A agent (base URL or agent card URL)
  demo:a2a                                     the built-in demo agent over A2A
  demo:a2a-grpc                                the same agent over A2A's gRPC binding
  acp:<command line>                           run an ACP agent over stdio
  demo:acp                                     the built-in demo agent over ACP
  <name>                                       a server or agent from --config ("mcpServers" / "a2aAgents" / "acpAgents")

Playing the client (call, converse, request): --profile P (default, minimal, full, hinted, mcp-2025,
mcp-2026, or a file), --roots URI|PATH …, --sampling FILE (canned replies in JSON, or a module (request) => result),
--elicit accept|decline|cancel [--elicit-content JSON]. Without them, sampling is refused and an
elicitation cancelled. An ACP agent (converse, call, record): --permission allow|reject answers its
permission requests, --terminal allow|reject the commands it asks to run, --workspace DIR is the folder
its file requests and terminals are confined to (without it, no files are offered); without them,
permission requests are rejected and no command runs.

Authorization (inspect, call, converse, request; remote servers and agents): a server that answers
with an OAuth challenge is signed in to as the MCP authorization spec says (resource and authorization
server metadata, client registration, PKCE, the resource parameter, step-up on insufficient_scope).
--client-id ID [--client-secret S | --client-key FILE.pem] a pre-registered client (a key signs a JWT
assertion); --client-metadata-url URL a client ID metadata document; --scope "a b" the scopes when the
challenge names none; --oauth-grant client_credentials for a machine client; --assertion-file FILE a
workload identity token (a JWT) exchanged with the JWT bearer grant (with --client-id); --id-token-file FILE
--idp-token-endpoint URL [--idp-client-id ID] enterprise-managed authorization (an ID token exchanged at the
identity provider for an ID-JAG, then for an access token); --oauth-headless follows the
authorization redirect itself (servers that approve without a person). Otherwise, on a desktop, the
system browser opens and the redirect comes back to 127.0.0.1. Each step is said on stderr; inspect
--json lists them (auth); sign-ins are kept in the data folder's secret store. Config files: "oauth"
({"clientId", "clientSecret", "clientKeyFile", "clientMetadataUrl", "assertionFile", "idTokenFile", "idpTokenEndpoint", "idpClientId", "scope", "grant", "headless"}).

Consent: a command you type (stdio:…, --hooks FILE) runs for that run. A command from a --config file
that you have not approved (in the app or an earlier run), or that changed since, is asked about on the
terminal, or needs --yes (-y); approvals are remembered in the data folder.

MCP eras: by default Parallax offers MCP 2026-07-28 first (server/discover) and falls back to the 2025
handshake (initialize) when the server does not take it; inspect says which era it reached and how, and
which rules it kept (no ping in the 2026 era: keepalive probes with tools/list or server/discover).
--profile mcp-2025 asks for the 2025 era only, --profile mcp-2026 for 2026-07-28 only (no fallback).

--binding B (auto, JSONRPC, HTTP+JSON, GRPC; inspect, call, converse) talks to an A2A agent over that
interface of its card instead of the card's first; an interface on another origin (gRPC's own port) is
asked about as any origin the card points to.

--log-level L (debug … emergency) asks an MCP server for its log messages (logging/setLevel) when it
advertises "logging", and says when it was skipped and why.

A stdio server is given 200 ms to exit once a command is done with it (its stdin closed), then SIGTERM,
then 200 ms more before SIGKILL; PARALLAX_EXIT_GRACE_MS sets that time (the app and the web host give 2 s).

Exit codes: 0 ok, 1 finding (a dead server, a failed probe, a failed turn, a difference), 2 usage or
connection error. With --json, stdout holds one object on every exit path; a failure's is
{"format", "error": {"kind", "message", "cause"}}, the cause whole (HTTP status and challenge, the
host:port that refused, the whole command line, its exit code and stderr).`

/** A usage mistake: the CLI prints it (as the `error` of one object with --json) and exits 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 'usage')
  }
}
