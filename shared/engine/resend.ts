import {
  changesState,
  CommandError,
  notResendable,
  requestParams,
  type FrameEvent,
  type RequestCheck,
  type ResendResult,
} from '../contract'
import { a2aResend, checkA2aRequest } from '../a2a/requestShapes'
import { checkAcpRequest } from '../acp/requestShapes'
import { knownRequest, requestProblems } from '../mcp/requests'
import type { CommandContext } from './commands/handler'

type ResendInput = { connectionId: string; seq: number; params?: Record<string, unknown> }

/** The request frame `seq` of a connection, or a clear refusal: none such, or not one Parallax can send again. */
function requestFrame(engine: CommandContext, connectionId: string, seq: number): FrameEvent {
  engine.connection(connectionId)
  const frame = engine.events.at(seq)
  if (!frame || frame.seq !== seq || frame.type !== 'frame' || frame.connectionId !== connectionId)
    throw new CommandError(`no frame #${seq} on this connection`, 'not-found')
  const why = notResendable(frame)
  if (why) throw new CommandError(`frame #${seq} cannot be sent again: ${why}`, 'invalid-input')
  return frame
}

/** A REST request names its task in the URL (`/tasks/{id}`, `/tasks/{id}:cancel`), not in a body. */
function restParams(frame: FrameEvent): Record<string, unknown> {
  const params = requestParams(frame)
  const id = frame.http && /\/tasks\/([^/:]+)/.exec(new URL(frame.http.url).pathname)?.[1]
  return id && params.id === undefined ? { ...params, id: decodeURIComponent(id) } : params
}

/**
 * Checks a request frame (or params in place of its own) against the schema of the frame's own protocol for
 * its method — never another protocol's, so params shaped for another protocol are refused. Sends nothing.
 */
export function checkResend(engine: CommandContext, { connectionId, seq, params }: ResendInput): RequestCheck {
  const frame = requestFrame(engine, connectionId, seq)
  const method = frame.method!
  const sent = params ?? (frame.transport === 'rest' ? restParams(frame) : requestParams(frame))
  const changes = changesState(frame.protocol, method)
  const common = { method, ...(changes && { changesState: changes }) }
  switch (frame.protocol) {
    case 'mcp':
      return { ...common, problems: requestProblems(method, sent), schemaKnown: knownRequest(method) }
    case 'a2a': {
      const { problems, known } = checkA2aRequest(method, sent)
      return { ...common, problems, schemaKnown: known }
    }
    case 'acp': {
      const { problems, known } = checkAcpRequest(method, sent)
      return { ...common, problems, schemaKnown: known }
    }
    default:
      return { ...common, problems: [{ path: '', message: `a ${frame.protocol} frame is not sent again` }], schemaKnown: false }
  }
}

/**
 * Sends a request frame again on its connection, as it was or with edited params: checked first against its
 * own protocol's schema (nothing is sent when it refuses them), confirmed when it changes state (anything but
 * a known read, whatever the protocol), then through the same path as the request's own kind — a tool call as
 * an inspected call (hooks apply), an A2A message as a turn, an ACP prompt as a prompt turn.
 */
export async function resend(engine: CommandContext, input: ResendInput & { confirmed: boolean }): Promise<ResendResult> {
  const frame = requestFrame(engine, input.connectionId, input.seq)
  const check = checkResend(engine, input)
  const method = check.method
  if (check.problems.length)
    throw new CommandError(
      `not sent: the params break the ${frame.protocol.toUpperCase()} schema for ${method}: ${check.problems.map((p) => `${p.path || '(params)'}: ${p.message}`).join('; ')}`,
      'invalid-input',
      { problems: check.problems },
    )
  if (check.changesState && !input.confirmed)
    throw new CommandError(`not sent: ${method} asks first (${check.changesState}); confirm to send it again`, 'invalid-input', {
      confirm: check.changesState,
    })
  const params = input.params ?? (frame.transport === 'rest' ? restParams(frame) : requestParams(frame))
  const connection = engine.connection(input.connectionId)
  const mark = connection.resends.expect(method, frame.seq)
  const linked = { resendOf: frame.seq, method }
  try {
    if (frame.protocol === 'mcp' && method === 'tools/call') {
      const { name, arguments: args } = params as { name: string; arguments?: Record<string, unknown> }
      const report = await engine.callTool(input.connectionId, name, args ?? {})
      return { ...linked, kind: 'call', report, ...seqOf(mark) }
    }
    if (frame.protocol !== 'a2a') {
      const answer = await connection.request(method, params)
      return { ...linked, kind: 'request', answer, ...seqOf(mark) }
    }
    const op = a2aResend(method, params)
    if (op.op === 'send') {
      const result = await engine.sendTurn(input.connectionId, op.turn, { stream: op.stream })
      return { ...linked, kind: 'turn', result, ...seqOf(mark) }
    }
    const tasks = connection.tasks()
    if (op.op === 'list') return { ...linked, kind: 'tasks', tasks: await tasks.listTasks(op.contextId), ...seqOf(mark) }
    const task =
      op.op === 'get'
        ? (await tasks.getTask(op.taskId, op.historyLength)).task
        : op.op === 'cancel'
          ? await tasks.cancelTask(op.taskId)
          : await tasks.resubscribe(op.taskId)
    return { ...linked, kind: 'task', task, ...seqOf(mark) }
  } catch (error) {
    if (error instanceof CommandError) throw error
    throw new CommandError(`${method} sent again failed: ${(error as Error).message}`, 'failed')
  } finally {
    mark.done()
  }
}

function seqOf(mark: { requestSeq: () => number | undefined }): { requestSeq?: number } {
  const seq = mark.requestSeq()
  return seq === undefined ? {} : { requestSeq: seq }
}
