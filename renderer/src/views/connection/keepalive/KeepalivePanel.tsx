import { useLayoutEffect, useRef, useState } from 'react'
import { handshakeEra, type KeepaliveEvent } from '../../../../../shared/contract'
import { isObserved, type ConnectionView } from '../../../store/connectionView'
import { command, useSelectedTarget, useStore } from '../../../store/store'
import { clock, duration, ms } from '../../../components/format'
import './keepalive.css'

const CHART_PROBES = 60
const TABLE_PROBES = 200

/** The keepalive loop at a glance: probe kind, interval, health, round trips, reconnect attempts. */
export function KeepalivePanel({ view }: { view: ConnectionView }) {
  const target = useSelectedTarget()
  const defaults = useStore((s) => s.info?.defaults)
  const last = view.probes.at(-1)
  const [interval, setIntervalMs] = useState<number | undefined>()
  const intervalMs = interval ?? last?.intervalMs ?? target?.options.keepaliveIntervalMs ?? defaults?.keepaliveIntervalMs ?? 15000
  const [draft, setDraft] = useState('')
  const h = view.handshake
  const expectedProbe = !h
    ? '—'
    : h.protocol === 'a2a'
      ? 'agent-card'
      : h.protocol === 'acp'
        ? 'process'
        : h.serverCapabilities.tools
          ? 'tools/list'
          : handshakeEra(h) === '2026'
            ? 'server/discover'
            : 'ping'
  const rtts = view.probes.filter((p) => p.ok).map((p) => p.rttMs)
  const median = rtts.length ? [...rtts].sort((a, b) => a - b)[Math.floor(rtts.length / 2)] : undefined
  const attempts = view.lifecycle.filter((e) => e.state === 'reconnecting' || e.attempt !== undefined || e.state === 'failed')
  const observed = isObserved(view)
  const live = !observed && (view.state === 'connected' || view.state === 'degraded')
  // The protocol era's rule behind the probe (MCP: never ping in the 2026 era).
  const rule = last?.rule ?? (h?.protocol === 'mcp' ? h.rules?.keepalive : undefined)

  const apply = async () => {
    const seconds = Number(draft)
    if (!Number.isFinite(seconds) || seconds < 0.1) return
    const result = await command((api) =>
      api.invoke('connections.setKeepalive', { connectionId: view.id, intervalMs: Math.round(seconds * 1000) }),
    )
    if (result) {
      setIntervalMs(result.intervalMs)
      setDraft('')
    }
  }

  return (
    <div className="panel">
      <div className="stat-row">
        <Stat label="Probe">
          <span className="mono" data-testid="probe-kind">
            {last?.probe ?? expectedProbe}
          </span>
        </Stat>
        <Stat label="Interval">
          <span data-testid="keepalive-interval">{observed ? "the host's own" : duration(intervalMs)}</span>
          {live && (
            <span style={{ fontSize: 12, fontWeight: 400 }}>
              <input
                className="input"
                style={{ width: 56, padding: '1px 6px' }}
                placeholder="secs"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onKeyDown={(e) => e.key === 'Enter' && void apply()}
                aria-label="New interval in seconds"
              />
              <button className="btn small" onClick={() => void apply()} disabled={!draft}>
                Set
              </button>
            </span>
          )}
        </Stat>
        <Stat label="Health">
          <span className={`dot ${view.health === 'healthy' ? 'ok' : view.health === 'degraded' ? 'warn' : 'bad'}`} />
          <span data-testid="health">{view.health}</span>
        </Stat>
        <Stat label="Round trip (median)">{median === undefined ? '—' : ms(median)}</Stat>
      </div>
      {rule && (
        <p className="muted" data-testid="probe-rule">
          Why this probe: {rule}
        </p>
      )}
      <div className="card" style={{ marginBottom: 16 }}>
        <h3>Round trips, last {Math.min(CHART_PROBES, view.probes.length)} probes</h3>
        {view.probes.length ? (
          <RttChart probes={view.probes.slice(-CHART_PROBES)} />
        ) : (
          <div className="muted">The first probe runs {duration(intervalMs)} after connecting, or now with “Probe now”.</div>
        )}
      </div>
      {attempts.length > 0 && (
        <div className="card" style={{ marginBottom: 16 }}>
          <h3>Reconnects</h3>
          <table className="grid" data-testid="reconnects">
            <tbody>
              {attempts.map((e) => (
                <tr key={e.seq}>
                  <td className="mono muted">{clock(e.ts)}</td>
                  <td>{e.state}</td>
                  <td>{e.attempt !== undefined ? `attempt ${e.attempt} of ${e.maxAttempts}` : ''}</td>
                  <td className="muted">{e.delayMs !== undefined ? `after ${duration(e.delayMs)}` : ''}</td>
                  <td>{e.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {view.probes.length > 0 && (
        <table className="grid" data-testid="probes">
          <thead>
            <tr>
              <th>Time</th>
              <th>Probe</th>
              <th>Result</th>
              <th className="num">Round trip</th>
              <th>Health</th>
              <th>Note</th>
            </tr>
          </thead>
          <tbody>
            {view.probes
              .slice(-TABLE_PROBES)
              .reverse()
              .map((p) => (
                <tr key={p.seq}>
                  <td className="mono muted">{clock(p.ts)}</td>
                  <td className="mono">{p.probe}</td>
                  <td>
                    <span className={`status ${p.ok ? 'called' : 'failed'}`}>{p.ok ? 'ok' : 'failed'}</span>
                  </td>
                  <td className="num">{ms(p.rttMs)}</td>
                  <td>{p.health}</td>
                  <td className="muted">{p.error ?? p.note}</td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </div>
  )
}

function Stat({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="stat">
      <div className="label">{label}</div>
      <div className="value">{children}</div>
    </div>
  )
}

/**
 * Round trips over the last probes. Drawn at the width it is shown at (measured), so its labels keep
 * their shape at any window size.
 */
function RttChart({ probes }: { probes: KeepaliveEvent[] }) {
  const box = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(600)
  useLayoutEffect(() => {
    const el = box.current
    if (!el) return
    setWidth(Math.max(160, Math.round(el.clientWidth)))
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(160, Math.round(entry.contentRect.width))))
    observer.observe(el)
    return () => observer.disconnect()
  }, [])
  const height = 120
  const pad = { left: 44, right: 8, top: 10, bottom: 18 }
  const max = Math.max(1, ...probes.filter((p) => p.ok).map((p) => p.rttMs)) * 1.15
  const x = (i: number) =>
    pad.left + (probes.length === 1 ? (width - pad.left - pad.right) / 2 : (i / (probes.length - 1)) * (width - pad.left - pad.right))
  const y = (v: number) => pad.top + (1 - v / max) * (height - pad.top - pad.bottom)
  const okPoints = probes.map((p, i) => (p.ok ? `${x(i)},${y(p.rttMs)}` : undefined)).filter(Boolean)
  const base = height - pad.bottom
  return (
    <div ref={box} className="chart-box">
      <svg className="chart" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label="keepalive round trips">
        <line className="axis" x1={pad.left} x2={width - pad.right} y1={base} y2={base} />
        <text x={4} y={pad.top + 8}>
          {ms(max)}
        </text>
        <text x={4} y={base}>
          0
        </text>
        {okPoints.length > 1 && (
          <polygon className="area" points={`${x(0)},${base} ${okPoints.join(' ')} ${x(probes.length - 1)},${base}`} />
        )}
        {okPoints.length > 1 && <polyline className="line" points={okPoints.join(' ')} />}
        {probes.map((p, i) =>
          p.ok ? (
            <circle key={p.seq} className="okpt" cx={x(i)} cy={y(p.rttMs)} r={2.5}>
              <title>{`${p.probe} ${ms(p.rttMs)}`}</title>
            </circle>
          ) : (
            <rect key={p.seq} className="fail" x={x(i) - 3} y={pad.top} width={6} height={base - pad.top}>
              <title>{`${p.probe} failed: ${p.error}`}</title>
            </rect>
          ),
        )}
      </svg>
    </div>
  )
}
