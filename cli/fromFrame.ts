import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { changesState, notResendable, requestParams, type FrameEvent } from '../shared/contract'
import { parseRecording, RECORDING_FORMAT } from '../shared/session/recording'
import { askOnTerminal } from './approve'
import { UsageError } from './usage'
import { dataDir } from './web'

/** A request as a saved frame holds it: its method and params, and where it came from (for messages). */
export interface SavedRequest {
  method: string
  params: Record<string, unknown>
  source: string
  /** Why sending it changes state on the server (a tool call, a cancel): asked about first. */
  changesState?: string
}

/**
 * `--from-frame FILE#SEQ`: a request frame from a recording (JSON Lines, as the library keeps them and
 * exports them; SEQ is the frame's event number, as Frames shows it: "event #17"), or `FILE` alone holding
 * one request as JSON (a frame's payload, as Frames copies it). FILE is a path, or a recording's name in the
 * library (`media-buying` or `media-buying.jsonl`).
 */
export function savedRequest(reference: string): SavedRequest {
  const hash = reference.lastIndexOf('#')
  const file = hash === -1 ? reference : reference.slice(0, hash)
  const seqText = hash === -1 ? undefined : reference.slice(hash + 1)
  const path = resolveFile(file)
  const text = readFileSync(path, 'utf8')
  if (text.trimStart().startsWith('{') && firstLine(text).includes(RECORDING_FORMAT)) {
    if (seqText === undefined)
      throw new UsageError(`${file} is a recording: name the frame by its event number, e.g. --from-frame '${file}#17'`)
    return fromRecording(text, file, seqText)
  }
  if (seqText !== undefined)
    throw new UsageError(
      `${file} is not a ${RECORDING_FORMAT} recording, so it has no frame #${seqText}; give the file alone if it holds one request`,
    )
  return fromPayload(text, file)
}

function resolveFile(file: string): string {
  if (existsSync(file)) return file
  const inLibrary = join(dataDir(), 'recordings', file.endsWith('.jsonl') ? file : `${file}.jsonl`)
  if (existsSync(inLibrary)) return inLibrary
  throw new UsageError(`--from-frame: no file ${file} (nor a recording of that name in the library, ${join(dataDir(), 'recordings')})`)
}

function firstLine(text: string): string {
  const end = text.indexOf('\n')
  return end === -1 ? text : text.slice(0, end)
}

function fromRecording(text: string, file: string, seqText: string): SavedRequest {
  const seq = Number(seqText)
  if (!Number.isInteger(seq) || seq < 1) throw new UsageError(`--from-frame: "${seqText}" is not an event number (a whole number, e.g. 17)`)
  const { events } = parseRecording(text)
  const event = events.find((e) => e.seq === seq)
  const source = `${file}#${seq}`
  if (!event) throw new UsageError(`--from-frame: ${file} has no event #${seq}${requestsHint(events)}`)
  if (event.type !== 'frame')
    throw new UsageError(`--from-frame: event #${seq} of ${file} is a ${event.type} event, not a frame${requestsHint(events)}`)
  const why = notResendable(event)
  if (why) throw new UsageError(`--from-frame: frame #${seq} cannot be sent again: ${why}${requestsHint(events)}`)
  if (event.protocol !== 'mcp')
    throw new UsageError(
      `--from-frame: frame #${seq} is an ${event.protocol.toUpperCase()} request (${event.method}); request sends MCP requests`,
    )
  return withState({ method: event.method!, params: requestParams(event), source })
}

/** The request frames a recording holds, named so the user can pick one. */
function requestsHint(events: readonly { type: string }[]): string {
  const requests = (events as FrameEvent[]).filter((e) => e.type === 'frame' && !notResendable(e) && e.protocol === 'mcp' && !e.probe)
  if (requests.length === 0) return '; it holds no MCP request that can be sent again'
  const listed = requests.slice(0, 8).map((e) => `#${e.seq} ${e.method}${e.subject ? ` ${e.subject}` : ''}`)
  return `; its requests: ${listed.join(', ')}${requests.length > 8 ? `, … (${requests.length} in all)` : ''}`
}

function fromPayload(text: string, file: string): SavedRequest {
  let payload: unknown
  try {
    payload = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`--from-frame: ${file} is neither a recording nor one request as JSON: ${(error as Error).message}`)
  }
  const method = (payload as { method?: unknown } | null)?.method
  if (typeof method !== 'string' || Array.isArray(payload))
    throw new UsageError(`--from-frame: ${file} holds no request (a JSON object with a "method", as Frames copies one)`)
  return withState({ method, params: requestParams({ payload, transport: 'stdio' }), source: file })
}

function withState(request: SavedRequest): SavedRequest {
  const changes = changesState('mcp', request.method)
  return changes ? { ...request, changesState: changes } : request
}

/** A request that changes state is sent again only when the user says so: at the terminal, or with --yes. */
export async function confirmSavedRequest(request: SavedRequest, yes: boolean): Promise<void> {
  if (!request.changesState || yes) return
  const what = `${request.method}${typeof request.params.name === 'string' ? ` ${request.params.name}` : ''} from ${request.source}`
  if (await askOnTerminal(`Send ${what} again? ${request.changesState}. [y/N] `)) return
  throw new UsageError(`not sent: ${what} changes state on the server (${request.changesState}); run again with --yes to send it`)
}
