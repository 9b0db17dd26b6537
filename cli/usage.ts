export const USAGE = `Parallax: an inspector for agent protocols (MCP and A2A).

Usage:
  parallax                         open the desktop app (the web host when Electron is unavailable)
  parallax web [--port N]          serve the UI on http://127.0.0.1:N/ (token-protected)
  parallax inspect <target>        connect, show handshake, discovery, catalog and keepalive
      [--config FILE] [--json] [--frames] [--probes N] [--interval MS] [--timeout MS]
  parallax call <target> <tool> --args JSON [--hooks FILE] [--json] [--protocol-fields a,b]
                                   one call with pre-validation hooks: raw vs hooked arguments,
                                   both validations, context echo, protocol-field lint
  parallax record <target> --turn T [--turn T …] --out FILE [--secret-key NAME …]
                                   record a conversation (turns as in converse) as JSON Lines
  parallax replay FILE --target A [--target B] [--ignore POINTER …] [--json] [--junit FILE]
                                   replay a recording: against one target (vs the recording) or two
                                   (A vs B), turn by turn; exit 1 when any turn differs
  parallax compare <targetA> [<targetB>] [--profile-a P] [--profile-b P] [--fail-on any|breaking] [--json]
                                   connect under two client profiles (minimal, full, hinted, or a
                                   file) or to two targets, and diff what each exposed
  parallax converse <target> --turn T [--turn T …] [--stream] [--json]
                                   run a multi-turn conversation; A2A turns are text or a JSON
                                   object (sent as a data part); MCP turns are {"tool", "arguments"}

Targets:
  demo:tools | demo:prompts | demo:resources   the built-in demo servers
  stdio:<command line>                         spawn an MCP server over stdio
  mcp:<url>                                    streamable HTTP, falling back to legacy SSE
  a2a:<url>                                    an A2A agent (base URL or agent card URL)
  demo:a2a                                     the built-in demo agent over A2A
  <name>                                       a server or agent from --config ("mcpServers" / "a2aAgents")

Consent: a command you type (stdio:…, --hooks FILE) runs for that run. A command from a --config file
that you have not approved (in the app or an earlier run), or that changed since, is asked about on the
terminal, or needs --yes (-y); approvals are remembered in the data folder.

Exit codes: 0 ok, 1 finding, 2 usage or connection error.`

/** A usage or connection problem: the CLI prints the message on one line and exits 2. */
export class UsageError extends Error {}
