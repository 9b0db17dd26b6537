import type { CompareResult, ParsedCommandInput } from '../../contract'
import { compareReportHtml } from '../../session/compareReport'
import { Redactor } from '../../runtime/redaction'
import type { CommandContext, DomainHandlers } from './handler'

/** Compare two sides (one target under two client profiles, or two targets), and the profiles themselves. */
export const compareCommands: DomainHandlers<'compare' | 'profiles'> = {
  'compare.run': async ({ a, b, operations, prompt }, engine) => {
    // Both sides (and their profiles) are checked before anything connects.
    const [sa, sb] = [await side(a, engine), await side(b, engine)]
    return engine.compare(sa, sb, { names: operations }, prompt)
  },
  // A file for reviewers: secrets are taken out (a server's instructions, a card's fields), as in recordings.
  'compare.report': ({ result }) => ({ html: compareReportHtml(new Redactor().redact(result as CompareResult)) }),
  'profiles.list': (_, engine) => engine.profiles.list(),
  'profiles.save': ({ profile }, engine) => engine.profiles.save(profile),
  'profiles.remove': async ({ name }, engine) => ({ removed: await engine.profiles.remove(name) }),
}

async function side({ profile, ...ref }: ParsedCommandInput<'compare.run'>['a'], engine: CommandContext) {
  return { target: await engine.resolveTarget(ref), profile: await engine.profiles.resolve(profile) }
}
