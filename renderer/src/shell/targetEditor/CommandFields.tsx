import type { FieldsProps } from './targetForm'

const COMMANDS = {
  'mcp-stdio': {
    placeholder: 'npx -y @modelcontextprotocol/server-everything',
    hint: 'Run directly, never through a shell. Quote arguments that contain spaces. Saving approves running exactly this command, with the environment and folder below.',
    envPlaceholder: 'API_KEY=…\nLOG_LEVEL=debug',
  },
  acp: {
    placeholder: 'npx my-coding-agent --acp',
    hint: 'The agent speaks ACP on its stdin and stdout. Run directly, never through a shell; saving approves running exactly this command, with the environment and folder below.',
    envPlaceholder: 'API_KEY=…',
  },
}

/** A command Parallax runs (an MCP server over stdio, an ACP agent): its command line, its environment, its working folder. */
export function CommandFields({ form, set, kind }: FieldsProps & { kind: keyof typeof COMMANDS }) {
  const { placeholder, hint, envPlaceholder } = COMMANDS[kind]
  return (
    <>
      <label htmlFor="t-cmd">Command</label>
      <input
        id="t-cmd"
        className="input mono"
        value={form.commandLine}
        onChange={(e) => set({ commandLine: e.target.value })}
        placeholder={placeholder}
      />
      <div className="hint">{hint}</div>
      <label htmlFor="t-env">Environment</label>
      <textarea id="t-env" value={form.env} onChange={(e) => set({ env: e.target.value })} placeholder={envPlaceholder} />
      <label htmlFor="t-cwd">Working folder</label>
      <input
        id="t-cwd"
        className="input mono"
        value={form.cwd}
        onChange={(e) => set({ cwd: e.target.value })}
        placeholder="(Parallax's own)"
      />
    </>
  )
}
