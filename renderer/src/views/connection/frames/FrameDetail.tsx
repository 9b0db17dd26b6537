import { visibleName, type FrameEvent } from '../../../../../shared/contract'
import { CopyButton } from '../../../components/CopyButton'
import { bytes, ms } from '../../../components/format'
import { JsonView } from '../../../components/JsonView'
import { frameNumber, sendsNothing, type ConnectionView } from '../../../store/connectionView'
import { framePayloads, useWholeFrame } from '../../../store/framePayloads'
import type { Frames } from '../../../store/rowLists'
import { command } from '../../../store/store'
import { ResendRequest } from './ResendRequest'

/** The other half of a selected frame's exchange: the answer to a request, or the request an answer answers. */
export interface FramePair {
  index: number
  role: 'answer' | 'request'
}

/**
 * The selected frame, whole: which way it went and what it is, its size and latency, the other half of its
 * exchange; its HTTP exchange, App view or gRPC call; resend and edit for a request; its payload as JSON (a
 * truncated one as text, the whole a click away).
 */
export function FrameDetail({
  view,
  frames,
  selected,
  pair,
  onSelect,
  onSent,
}: {
  view: ConnectionView
  frames: Frames
  /** The selected frame's position in `frames`, if one is. */
  selected: number | undefined
  pair: FramePair | undefined
  /** Selects another frame by its position (the other half of the exchange, the request a resend came from). */
  onSelect: (index: number) => void
  /** A resend was sent: the seq of its request, to select once its frame arrives. */
  onSent: (seq: number) => void
}) {
  const frame = selected !== undefined ? frames.at(selected) : undefined
  const whole = useWholeFrame(view.id, frame)
  return (
    <aside className="detail" aria-label="Frame detail">
      {frame ? (
        <>
          <div className="detail-head">
            <span className={`dir ${frame.direction}`}>{frame.direction === 'out' ? '▲ sent' : '▼ received'}</span>
            <span className="mono">
              #{frames.first + selected! + 1} {visibleName(frame.method ?? frame.kind)}
              {frame.subject && <span className="muted"> · {visibleName(frame.subject)}</span>}
            </span>
            <span className="muted meta">
              {bytes(frame.bytes)}
              {frame.latencyMs !== undefined ? ` · ${ms(frame.latencyMs)}` : ''} · {frame.transport}
            </span>
            <span style={{ flex: 1 }} />
            {pair && (
              <button
                className="btn ghost small link"
                onClick={() => onSelect(pair.index)}
                data-testid="frame-pair"
                title="Jump to the other half of this exchange"
              >
                {pair.role === 'answer' ? `answer #${frames.first + pair.index + 1} →` : `← request #${frames.first + pair.index + 1}`}
              </button>
            )}
            <CopyButton value={async () => (await framePayloads(view.id, [frame]))[0]} />
          </div>
          {frame.http && <HttpExchange http={frame.http} request={frame.direction === 'out' || frame.kind === 'notification'} />}
          {frame.view && (
            <div className="view-exchange" data-testid="view-exchange">
              {frame.direction === 'in' ? 'From the MCP App view of ' : 'To the MCP App view of '}
              <span className="mono">{frame.view.uri}</span>{' '}
              <span className="muted">
                ({frame.protocol} over {frame.transport}, view {frame.view.id.slice(0, 8)})
              </span>
            </div>
          )}
          {frame.grpc && <GrpcExchange grpc={frame.grpc} frame={frame} />}
          {frame.truncated && <TruncatedNotice frame={frame} connectionId={view.id} />}
          {whole.frame && !sendsNothing(view) && (
            <ResendRequest
              frame={whole.frame}
              connectionId={view.id}
              onSent={onSent}
              origin={frame.resendOf === undefined ? -1 : frames.indexOfSeq(frame.resendOf)}
              originNumber={frame.resendOf === undefined ? undefined : frameNumber(view, frame.resendOf)}
              onOrigin={onSelect}
            />
          )}
          <div className="detail-body">
            {!whole.frame ? (
              <div className={whole.error ? 'error-text' : 'muted'}>
                {whole.error ? `The payload could not be fetched: ${whole.error}` : 'Fetching the payload…'}
              </div>
            ) : frame.truncated ? (
              <pre className="json">{String(whole.frame.payload)}</pre>
            ) : (
              <JsonView key={frame.seq} value={whole.frame.payload} openDepth={4} />
            )}
          </div>
        </>
      ) : selected !== undefined ? (
        <div className="empty muted" style={{ margin: '48px 24px' }}>
          Fetching frame #{(frames.first + selected + 1).toLocaleString()}…
        </div>
      ) : (
        <div className="empty" style={{ margin: '48px 24px' }}>
          Select a frame to see its JSON. <br />
          <kbd>↑</kbd> <kbd>↓</kbd> move, <kbd>/</kbd> filters.
        </div>
      )}
    </aside>
  )
}

/** How far past a request its answer is looked for among the frames held (answers follow their requests closely). */
const ANSWER_WITHIN = 10_000

/** The other half of a request/response exchange, among the frames held: the answer to a request, or the request an answer answers. */
export function pairOf(frames: Frames, index: number): FramePair | undefined {
  const frame = frames.at(index)
  if (!frame) return undefined
  if (frame.requestSeq !== undefined) {
    const request = frames.indexOfSeq(frame.requestSeq)
    return request === -1 ? undefined : { index: request, role: 'request' }
  }
  if (frame.kind !== 'request') return undefined
  // Answers follow their request; the first frame naming it as its request is the answer (a stream: its first event).
  for (let i = index + 1; i < Math.min(frames.length, index + ANSWER_WITHIN); i++) {
    const next = frames.at(i)
    if (!next) return undefined
    if (next.requestSeq === frame.seq) return { index: i, role: 'answer' }
  }
  return undefined
}

/**
 * An HTTP-level frame (A2A): the exchange it belongs to — method, URL, status — and its headers (secrets
 * redacted): a request's (what Parallax sent, or what an agent POSTed to it: a push notification), else the response's.
 */
function HttpExchange({ http, request }: { http: NonNullable<FrameEvent['http']>; request: boolean }) {
  const headers = Object.entries(http.headers ?? {})
  return (
    <details className="http-exchange" data-testid="http-exchange">
      <summary className="mono">
        {http.method} {http.url}
        {http.status !== undefined && (
          <span className={`http-status ${http.status < 300 ? 'ok' : http.status < 400 ? 'redirect' : 'bad'}`}>
            {' '}
            → {http.status}
            {http.statusText ? ` ${http.statusText}` : ''}
          </span>
        )}
        {http.eventId !== undefined && <span className="muted"> · event id {http.eventId}</span>}
        <span className="muted">
          {' '}
          · {headers.length} {http.mirrored ? 'Mcp-Param' : request ? 'request' : 'response'} header{headers.length === 1 ? '' : 's'}
          {http.mirrored ? ' (mirrored from the tool’s x-mcp-header parameters)' : ''}
        </span>
      </summary>
      <dl className="kv mono">
        {headers.map(([name, value]) => (
          <div key={name} style={{ display: 'contents' }}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </details>
  )
}

/**
 * A gRPC frame (A2A's gRPC binding): the call it belongs to — service, method, where the channel goes — its
 * status on the call's last frame, and the metadata it carried (request metadata, response headers, or trailers).
 */
function GrpcExchange({ grpc, frame }: { grpc: NonNullable<FrameEvent['grpc']>; frame: FrameEvent }) {
  const metadata = Object.entries(grpc.metadata ?? {})
  const what =
    frame.direction === 'out' ? 'request metadata' : frame.kind === 'trailers' || frame.kind === 'error' ? 'trailers' : 'response headers'
  return (
    <details className="http-exchange" data-testid="grpc-call">
      <summary className="mono">
        gRPC /{grpc.service}/{grpc.method}{' '}
        <span className="muted">
          on {grpc.target}
          {grpc.tls ? ' (TLS)' : ''}
        </span>
        {grpc.status && (
          <span className={`http-status ${grpc.status.code === 0 ? 'ok' : 'bad'}`}>
            {' '}
            → {grpc.status.code} {grpc.status.name}
            {grpc.status.details && grpc.status.details !== grpc.status.name ? `: ${grpc.status.details}` : ''}
          </span>
        )}
        {grpc.metadata && (
          <span className="muted">
            {' '}
            · {metadata.length} {what === 'trailers' ? 'trailer' : what === 'request metadata' ? 'metadata entr' : 'header'}
            {what === 'request metadata' ? (metadata.length === 1 ? 'y' : 'ies') : metadata.length === 1 ? '' : 's'}
          </span>
        )}
      </summary>
      <dl className="kv mono">
        {metadata.map(([name, value]) => (
          <div key={name} style={{ display: 'contents' }}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </details>
  )
}

/** An oversized frame: what is shown, its full size, and the whole payload one click away. */
function TruncatedNotice({ frame, connectionId }: { frame: FrameEvent; connectionId: string }) {
  const save = async () => {
    const whole = await command((api) => api.invoke('frames.export', { connectionId, seq: frame.seq }))
    if (!whole) return
    const link = document.createElement('a')
    link.href = URL.createObjectURL(new Blob([whole.text], { type: 'application/json' }))
    link.download = `frame-${frame.seq}${frame.method ? `-${frame.method.replaceAll('/', '_')}` : ''}.json`
    link.click()
    URL.revokeObjectURL(link.href)
  }
  return (
    <div className="verdict warn" style={{ margin: '8px 12px 0' }} data-testid="truncated">
      {frame.truncated!.refused
        ? `Parallax refused this message (${frame.truncated!.refused}): it was not handed on. Showing ${frame.truncated!.shownBytes < frame.bytes ? `the first ${bytes(frame.truncated!.shownBytes)} of ` : ''}its text, ${bytes(frame.bytes)}.`
        : `Too large to keep whole in view: showing the first ${bytes(frame.truncated!.shownBytes)} of ${bytes(frame.bytes)}.`}{' '}
      {frame.truncated!.file ? (
        <button className="btn small" onClick={() => void save()}>
          Save whole…
        </button>
      ) : (
        'The whole payload could not be kept (the disk refused it).'
      )}
    </div>
  )
}
