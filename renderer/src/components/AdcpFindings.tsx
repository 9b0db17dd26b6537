import type { AdcpFinding } from '../../../shared/contract'
import { Name } from './Name'
import './adcpFindings.css'

/**
 * An AdCP task's request and response against AdCP's published schemas: each violation where it is (in the
 * request or the response) and which rule of which schema it breaks; or that both match.
 */
export function AdcpFindings({
  release,
  task,
  findings,
  known = true,
}: {
  release: string
  task: string
  findings: readonly AdcpFinding[]
  known?: boolean
}) {
  const title = (
    <>
      AdCP {release} · <Name value={task} className="mono" />
    </>
  )
  if (!known)
    return (
      <div className="verdict warn" data-testid="adcp-findings">
        {title}: not one of AdCP's seller tasks, so there is no AdCP schema to check it against.
      </div>
    )
  if (findings.length === 0)
    return (
      <div className="verdict ok" data-testid="adcp-findings">
        {title}: the request and the response match AdCP's schemas.
      </div>
    )
  return (
    <div className="verdict bad adcp-findings" data-testid="adcp-findings">
      {title}: {findings.length === 1 ? 'one violation' : `${findings.length} violations`} of AdCP's schemas
      <ul>
        {findings.map((f, i) => (
          <li key={i}>
            <span className="adcp-phase">{f.phase}</span> <span className="mono">{f.instancePath}</span> {f.message}
            <div className="adcp-rule mono" title="The schema and the rule in it">
              {f.schema}
              {f.schemaPath}
            </div>
          </li>
        ))}
      </ul>
    </div>
  )
}
