import type { RequestCheck, ResendResult } from '../../../shared/contract'
import { command, showToast, useStore } from './store'

// Sending a request seen in Frames again: checked as the user edits (quietly: a half-typed edit is no
// failure), then sent, once the user confirmed one that changes state.

/** Checks params against the protocol's schema for the frame's method; a refusal (no such frame, not resendable) is the check's answer. */
export async function checkResend(
  connectionId: string,
  seq: number,
  params?: Record<string, unknown>,
): Promise<RequestCheck | { refused: string }> {
  const api = useStore.getState().api
  if (!api) return { refused: 'not attached to the engine' }
  try {
    return await api.invoke('requests.check', { connectionId, seq, ...(params && { params }) })
  } catch (error) {
    return { refused: (error as Error).message }
  }
}

/** Sends the frame's request again (edited params in its place); says how it went. */
export async function resendRequest(
  connectionId: string,
  seq: number,
  params: Record<string, unknown> | undefined,
  confirmed: boolean,
): Promise<ResendResult | undefined> {
  const result = await command((api) => api.invoke('requests.resend', { connectionId, seq, confirmed, ...(params && { params }) }))
  if (result) showToast(resendSummary(result))
  return result
}

/** How a resend went, in a line. */
function resendSummary(result: ResendResult): string {
  const what = `${result.method} sent again`
  if (result.kind === 'call') {
    const report = result.report
    if (!report.sent) return `${what}: nothing was sent (${report.hookError?.message ?? 'the call was refused'})`
    return `${what}: ${report.error ? `failed: ${report.error}` : 'answered'}`
  }
  if (result.kind === 'request') {
    const answer = result.answer
    if (answer.outcome === 'result') return `${what}: answered`
    if (answer.outcome === 'error') return `${what}: the server answered error ${answer.error.code}: ${answer.error.message}`
    return `${what}: no answer (${answer.reason})`
  }
  if (result.kind === 'turn') return `${what}: ${result.result.state}`
  if (result.kind === 'tasks') return `${what}: ${result.tasks.length} task${result.tasks.length === 1 ? '' : 's'}`
  return `${what}: answered`
}
