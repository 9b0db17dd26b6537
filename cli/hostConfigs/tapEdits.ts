import { getNodeValue, modify, type Edit, type Node } from 'jsonc-parser'
import { propertyOf, type ConfigEntry } from './configText'

/** How a host starts an entry: its command and args. */
export interface Launch {
  command: string
  args: string[]
}

/** What to do with one entry: these edits of the file's text, or nothing, and why. */
export type EntryPlan =
  { change: 'wrap' | 'unwrap'; edits: Edit[]; before: Launch; after: Launch } | { change: 'none'; why: string; launch: Launch | null }

/** The nodes of an entry's launch: the object holding the command (the entry, or Zed's older {command: {path, args}}), the command, the args. */
interface LaunchNodes {
  holder: Node
  command: { property: Node; value: Node }
  args?: { property: Node; value: Node }
  launch: Launch
}

/**
 * The edits that make an entry start through `parallax tap`: the command becomes the launcher, and the args
 * begin with the launcher's own, then `tap --name NAME [--protocol acp] --`, then the original command. The
 * original command and args keep their exact text, and the new elements follow the array's own layout, so
 * unwrapping gives back the same bytes. Everything else in the entry (env, cwd, type, …) is untouched.
 */
export function planWrap(text: string, entry: ConfigEntry, launcher: Launch): EntryPlan {
  const found = launchNodes(entry)
  if ('why' in found) return { change: 'none', why: found.why, launch: null }
  const { holder, command, args, launch } = found
  if (tapSplit(launch.args)) return { change: 'none', why: 'already tapped', launch }
  if (isDisabled(entry.node)) return { change: 'none', why: 'disabled', launch }

  const tapArgs = [...launcher.args, 'tap', '--name', entry.name, ...(entry.section.protocol === 'acp' ? ['--protocol', 'acp'] : []), '--']
  const inserted = [...tapArgs.map((arg) => JSON.stringify(arg)), source(text, command.value)]
  const edits: Edit[] = []
  if (!args) {
    // No args: they are added right after the command, as the entry's other properties are laid out.
    const content = `${JSON.stringify(launcher.command)}${propertySeparator(text, holder)}"args": [${inserted.join(', ')}]`
    edits.push({ offset: command.value.offset, length: command.value.length, content })
  } else {
    edits.push({ offset: command.value.offset, length: command.value.length, content: JSON.stringify(launcher.command) })
    const [first] = args.value.children ?? []
    if (!first) edits.push({ offset: args.value.offset + 1, length: 0, content: inserted.join(', ') })
    else {
      const separator = elementSeparator(text, args.value)
      edits.push({ offset: first.offset, length: 0, content: inserted.join(separator) + separator })
    }
  }
  return { change: 'wrap', edits, before: launch, after: { command: launcher.command, args: [...tapArgs, launch.command, ...launch.args] } }
}

/**
 * The edits that undo planWrap on a tapped entry: the command back from the element after `--`, the tap's
 * elements out of the args. Args the wrap added (the entry had none, as `argsWereAbsent` says) go again when
 * nothing was added to them since; anything else the user changed in the entry stays.
 */
export function planUnwrap(text: string, entry: ConfigEntry, argsWereAbsent: (entry: ConfigEntry, original: Launch) => boolean): EntryPlan {
  const found = launchNodes(entry)
  if ('why' in found) return { change: 'none', why: found.why, launch: null }
  const { command, args, launch } = found
  const split = tapSplit(launch.args)
  if (!split || !args) return { change: 'none', why: 'not tapped', launch }
  const items = args.value.children ?? []
  const originalCommand = items[split.dash + 1]
  const after: Launch = { command: launch.args[split.dash + 1], args: launch.args.slice(split.dash + 2) }
  const commandEdit: Edit = { offset: command.value.offset, length: command.value.length, content: source(text, originalCommand) }
  const unwrapped = (edits: Edit[]): EntryPlan => ({ change: 'unwrap', edits, before: launch, after })

  const firstKept = items[split.dash + 2]
  if (firstKept) return unwrapped([commandEdit, { offset: items[0].offset, length: firstKept.offset - items[0].offset, content: '' }])
  if (argsWereAbsent(entry, after)) {
    const between = text.slice(command.property.offset + command.property.length, args.property.offset)
    if (/^\s*,\s*$/.test(between)) {
      // The args follow the command, as the wrap put them: one edit takes them out with the command's new text.
      const end = args.property.offset + args.property.length
      return unwrapped([{ offset: command.value.offset, length: end - command.value.offset, content: commandEdit.content }])
    }
    return unwrapped([commandEdit, ...modify(text, [...pathOf(entry, found), 'args'], undefined, {})])
  }
  const last = items[items.length - 1]
  return unwrapped([commandEdit, { offset: items[0].offset, length: last.offset + last.length - items[0].offset, content: '' }])
}

/**
 * Where a tapped entry's original command is: the index of the `--` after `tap` (the launcher's own script, if
 * it has one, comes first), with a command after it. Undefined for an entry that is not tapped.
 */
export function tapSplit(args: readonly string[]): { dash: number } | undefined {
  const start = args[0] === 'tap' ? 0 : args[1] === 'tap' && /^parallax(\.[cm]?[jt]s)?$/i.test(args[0].split(/[\\/]/).pop() ?? '') ? 1 : -1
  if (start < 0) return undefined
  const dash = args.indexOf('--', start + 1)
  return dash > start && dash + 1 < args.length ? { dash } : undefined
}

/** An entry's launch as written, and whether it gives args at all; undefined when it has no command. */
export function launchOf(entry: ConfigEntry): { launch: Launch; argsGiven: boolean } | undefined {
  const found = launchNodes(entry)
  return 'why' in found ? undefined : { launch: found.launch, argsGiven: found.args !== undefined }
}

function launchNodes(entry: ConfigEntry): LaunchNodes | { why: string } {
  if (entry.node.type !== 'object') return { why: 'not an object' }
  let holder = entry.node
  let command = propertyOf(holder, 'command')
  if (command?.value.type === 'object') {
    // Zed's older shape: {"command": {"path", "args", "env"}}.
    holder = command.value
    command = propertyOf(holder, 'path')
  }
  if (command?.value.type !== 'string') {
    const value = getNodeValue(entry.node) as Record<string, unknown>
    const url = ['url', 'serverUrl', 'httpUrl'].find((key) => typeof value[key] === 'string')
    return { why: url ? `a remote server (${url}): only stdio servers are tapped` : 'no command to run (built in, or from an extension)' }
  }
  const args = propertyOf(holder, 'args')
  const argValues: unknown = args ? getNodeValue(args.value) : []
  if (!Array.isArray(argValues) || !argValues.every((arg) => typeof arg === 'string')) return { why: 'its args are not a list of strings' }
  return { holder, command, args, launch: { command: getNodeValue(command.value) as string, args: argValues } }
}

function isDisabled(node: Node): boolean {
  const value = getNodeValue(node) as Record<string, unknown>
  return value.disabled === true || value.enabled === false
}

/** The JSON path of the object holding an entry's command. */
function pathOf(entry: ConfigEntry, nodes: LaunchNodes): (string | number)[] {
  return nodes.holder === entry.node ? entry.path : [...entry.path, 'command']
}

/** A node's text as written in the file (so a string keeps its exact escapes). */
function source(text: string, node: Node): string {
  return text.slice(node.offset, node.offset + node.length)
}

/** What separates an array's elements as written (", " or ",\n      "), or a guess from its layout when it has one element. */
function elementSeparator(text: string, array: Node): string {
  const [first, second] = array.children ?? []
  if (first && second) {
    const between = text.slice(first.offset + first.length, second.offset)
    if (/^\s*,\s*$/.test(between)) return between
  }
  const leading = first ? text.slice(array.offset + 1, first.offset) : ''
  return /^\s*$/.test(leading) && leading.includes('\n') ? `,${leading}` : ', '
}

/** What separates an object's properties as written, or a guess from its layout. */
function propertySeparator(text: string, object: Node): string {
  const properties = object.children ?? []
  for (let i = 0; i + 1 < properties.length; i++) {
    const between = text.slice(properties[i].offset + properties[i].length, properties[i + 1].offset)
    if (/^\s*,\s*$/.test(between)) return between
  }
  const leading = properties[0] ? text.slice(object.offset + 1, properties[0].offset) : ''
  return /^\s*$/.test(leading) && leading.includes('\n') ? `,${leading}` : ', '
}
