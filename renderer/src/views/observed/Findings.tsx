import { useEffect, useState } from 'react'
import { askInParts } from '../../../../shared/contract'
import { AgentText } from '../../components/Name'
import { timeOfDay } from '../../components/format'
import type { ConnectionView, Finding } from '../../store/connectionView'
import { useStore } from '../../store/store'

/**
 * What the analysis found in an observed session, where a user looks first: about the host (a tool called that
 * was not listed, a list change ignored, protocol fields in a call's arguments, a list the server did not
 * advertise: discovery is the host's doing here) and about the server (its own oddities).
 */
export function Findings({ view }: { view: ConnectionView }) {
  const texts = useFindingTexts(view)
  const host = view.findings.filter((f) => f.about === 'host')
  const server = view.findings.filter((f) => f.about === 'server')
  // A discovery oddity the log said too (the analysis says both) is listed once.
  const said = new Set(host.map((f) => f.text ?? texts[f.seq]))
  const discovery = view.discovery.filter((d) => d.oddity && !said.has(d.reason))
  return (
    <div className="findings" data-testid="findings">
      <FindingList
        title="Host findings"
        testId="host-findings"
        findings={host}
        texts={texts}
        none="Nothing odd in what the host sent so far."
        extra={discovery.map((d) => (
          <li key={`d${d.seq}`}>
            <span className="muted mono">{timeOfDay(d.ts)}</span> <span className="mono">{d.method}</span>: <AgentText value={d.reason} />
          </li>
        ))}
      />
      <FindingList
        title={view.protocol === 'acp' ? 'Agent findings' : 'Server findings'}
        testId="server-findings"
        findings={server}
        texts={texts}
        none="Nothing odd in what it answered so far."
      />
    </div>
  )
}

function FindingList({
  title,
  testId,
  findings,
  texts,
  none,
  extra = [],
}: {
  title: string
  testId: string
  findings: Finding[]
  texts: Record<number, string>
  none: string
  extra?: React.ReactNode[]
}) {
  const count = findings.length + extra.length
  return (
    <section className="finding-list" data-testid={testId}>
      <h3>
        {title} <span className={`count${count ? ' warn' : ''}`}>{count}</span>
      </h3>
      {count === 0 ? (
        <p className="muted">{none}</p>
      ) : (
        <ul>
          {[...findings].reverse().map((f) => (
            <li key={f.seq}>
              <span className="muted mono">{timeOfDay(f.ts)}</span>{' '}
              {texts[f.seq] !== undefined || f.text !== undefined ? (
                <AgentText value={f.text ?? texts[f.seq]} />
              ) : (
                <span className="muted">…</span>
              )}
            </li>
          ))}
          {extra}
        </ul>
      )}
    </section>
  )
}

/** The texts of findings a backlog brought without them (its log rows carry no text), fetched once. */
function useFindingTexts(view: ConnectionView): Record<number, string> {
  const [texts, setTexts] = useState<Record<number, string>>({})
  const api = useStore((s) => s.api)
  const missing = view.findings.filter((f) => f.text === undefined && texts[f.seq] === undefined).map((f) => f.seq)
  const key = missing.join(',')
  useEffect(() => {
    if (!api || missing.length === 0) return
    let stale = false
    void askInParts(missing, async (part) => (await api.invoke('logs.texts', { connectionId: view.id, seqs: part })).texts)
      .then((got) => {
        if (!stale) setTexts((t) => ({ ...t, ...Object.fromEntries(missing.map((seq, k) => [seq, got[k]])) }))
      })
      .catch(() => {})
    return () => {
      stale = true
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the findings without their text
  }, [api, view.id, key])
  return texts
}
