import { useState } from 'react'
import type { SkillEntry, SkillLoad } from '../../../../../shared/contract'
import { sendsNothing, type ConnectionView } from '../../../store/connectionView'
import { command } from '../../../store/store'
import { AgentText } from '../../../components/Name'
import { CatalogItem } from './CatalogPanel'
import './catalog.css'

/**
 * An MCP server's skills (SEP-2640, a draft extension), listed only where the server offers the extension:
 * each with what activates it (its description) and its files. Nothing is read until Load: then each file
 * is read and checked against its entry (size, digest, SKILL.md's frontmatter), and SKILL.md is previewed.
 */
export function McpSkills({ view }: { view: ConnectionView }) {
  const skills = (view.catalog['skills/list'] ?? []) as SkillEntry[]
  if (skills.length === 0) return null
  return (
    <>
      <div
        className="section-title"
        data-testid="mcp-skills"
        title="Skills over MCP (SEP-2640): a draft extension, io.modelcontextprotocol/skills; its shape may still move"
      >
        Skills <span className="count">{skills.length}</span> <span className="muted">draft extension (SEP-2640)</span>
      </div>
      {skills.map((skill) => (
        <Skill key={skill.uri} skill={skill} view={view} />
      ))}
    </>
  )
}

function Skill({ skill, view }: { skill: SkillEntry; view: ConnectionView }) {
  const [load, setLoad] = useState<SkillLoad | undefined>()
  const live = view.state === 'connected' || view.state === 'degraded'
  const name = typeof skill.frontmatter?.name === 'string' ? skill.frontmatter.name : skill.uri
  const description = typeof skill.frontmatter?.description === 'string' ? skill.frontmatter.description : undefined
  const run = () => void command((api) => api.invoke('connections.loadSkill', { connectionId: view.id, uri: skill.uri })).then(setLoad)
  const skillFile = load?.files.find((f) => f.uri === skill.uri)
  return (
    <CatalogItem
      name={name}
      description={description}
      // What Load found opens the entry, where it shows.
      open={load ? true : undefined}
      action={
        sendsNothing(view)
          ? undefined
          : {
              label: 'Load',
              title: 'Read its files, each checked against the entry (size, digest, frontmatter), and preview SKILL.md',
              disabled: !live,
              run,
            }
      }
    >
      <div className="skill-activates" data-testid="skill-activates">
        <span className="muted">Activates on: </span>
        {description ? <AgentText value={description} /> : <span className="muted">(no description)</span>}
      </div>
      <table className="skill-files mono">
        <tbody>
          {(skill.resources ?? []).map((file) => {
            const read = load?.files.find((f) => f.uri === file.uri)
            return (
              <tr key={file.uri}>
                <td>{file.uri}</td>
                <td className="muted">{file.size !== undefined ? `${file.size} B` : ''}</td>
                <td className="muted" title={file.digest}>
                  {file.digest ? `${file.digest.slice(0, 19)}…` : ''}
                </td>
                <td>
                  {read ? (
                    read.verified ? (
                      <span className="badge ok">matches</span>
                    ) : (
                      <span className="badge bad">does not match</span>
                    )
                  ) : (
                    <span className="muted">not read</span>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      {load && !load.verified && (
        <p className="param-header-warning" data-testid="skill-refused">
          Not loaded: {load.problem}
        </p>
      )}
      {load?.verified && skillFile?.text !== undefined && (
        <pre className="skill-preview" data-testid="skill-preview">
          {skillFile.text}
        </pre>
      )}
    </CatalogItem>
  )
}
