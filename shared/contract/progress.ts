/**
 * The MCP requests Parallax asks progress for unless told otherwise: the server's work a person waits on.
 * Asking puts a progress token in the request's `_meta`; the server may then report progress, and each
 * report restarts the request's timeout. Parallax's own requests (discovery, keepalive, subscriptions,
 * log level, task polling) ask for none, so the wire shows only what a request needs.
 */
export const PROGRESS_METHODS: readonly string[] = ['tools/call', 'prompts/get', 'resources/read']

/** Whether a request of `method` asks for progress: as `asked` says, else as `PROGRESS_METHODS` does. */
export function asksProgress(method: string, asked?: boolean): boolean {
  return asked ?? PROGRESS_METHODS.includes(method)
}
