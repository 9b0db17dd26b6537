import type { TapBreakpoints } from '../shared/contract'
import { MAX_HOLD_MS, NO_BREAKPOINTS, type Holds } from '../shared/tap/holds'
import { TapControl } from '../shared/tap/tapControl'
import { UsageError } from './usage'

/** The tap's hold flags, for parseArgs: `--hold METHOD`, `--hold-tool NAME`, `--hold-way out|in`, `--hold-timeout MS`. */
export const HOLD_OPTIONS = {
  hold: { type: 'string' as const, multiple: true as const, default: [] as string[] },
  'hold-tool': { type: 'string' as const, multiple: true as const, default: [] as string[] },
  'hold-way': { type: 'string' as const, multiple: true as const, default: [] as string[] },
  'hold-timeout': { type: 'string' as const },
}

type HoldValues = { hold: string[]; 'hold-tool': string[]; 'hold-way': string[]; 'hold-timeout'?: string }

/** The breakpoints the flags ask for: on from the start when any method or tool is given. */
export function breakpointsOf(values: HoldValues): TapBreakpoints {
  const ways = values['hold-way']
  if (ways.some((w) => w !== 'out' && w !== 'in')) throw new UsageError("--hold-way is out (the host's messages) or in (the server's)")
  const timeout = values['hold-timeout'] === undefined ? NO_BREAKPOINTS.timeoutMs : Number(values['hold-timeout'])
  if (!Number.isFinite(timeout) || timeout < 100 || timeout > MAX_HOLD_MS)
    throw new UsageError(`--hold-timeout is milliseconds, from 100 to ${MAX_HOLD_MS}`)
  return {
    on: values.hold.length > 0 || values['hold-tool'].length > 0,
    methods: values.hold,
    tools: values['hold-tool'],
    directions: ways.length ? (ways as ('out' | 'in')[]) : ['out', 'in'],
    timeoutMs: timeout,
  }
}

/** Sets the flags' breakpoints, and takes the app's decisions (breakpoints, releases, drops) from the session's control file. */
export function holdInFlight(holds: Holds, values: HoldValues, sessionDir: () => string | undefined): TapControl {
  const breakpoints = breakpointsOf(values)
  if (breakpoints.on) holds.set(breakpoints)
  return new TapControl(sessionDir, (line) => {
    if ('breakpoints' in line) holds.set(line.breakpoints)
    else if ('release' in line) holds.release(line.release, 'user', line.message)
    else holds.drop(line.drop)
  })
}
