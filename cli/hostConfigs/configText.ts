import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser'
import type { Section } from './host'

/** One entry of a section: its name, where it is (for people), and its node in the parsed text. */
export interface ConfigEntry {
  name: string
  /** The section's path with the entry's name last, e.g. ['projects', '/home/me/app', 'mcpServers', 'files']. */
  path: string[]
  section: Section
  node: Node
}

/** A config file that did not parse: what and where (1-based line and column). */
export class ConfigSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    problem: string,
  ) {
    super(`${line}:${column}: ${problem}`)
    this.name = 'ConfigSyntaxError'
  }
}

/** Parses a config file's text (JSON, with the comments and trailing commas JSONC allows) into its tree, or throws where it is broken. */
export function parseConfig(text: string): Node {
  const errors: ParseError[] = []
  // A byte order mark is kept as it is; parsed as a space, so every offset stays the file's.
  const root = parseTree(text.replace(/^\uFEFF/, ' '), errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  })
  const first = errors[0]
  if (first) {
    const { line, column } = lineAndColumn(text, first.offset)
    throw new ConfigSyntaxError(line, column, describe(printParseErrorCode(first.error)))
  }
  if (!root || root.type !== 'object') {
    const { line, column } = lineAndColumn(text, root?.offset ?? 0)
    throw new ConfigSyntaxError(line, column, 'the file is not a JSON object')
  }
  return root
}

/** Every entry of the host's sections, in file order within each section. */
export function configEntries(root: Node, sections: readonly Section[]): ConfigEntry[] {
  const entries: ConfigEntry[] = []
  for (const section of sections) {
    for (const path of expand(root, section.path)) {
      const map = findNodeAtLocation(root, path)
      if (map?.type !== 'object') continue
      for (const property of map.children ?? []) {
        const [key, value] = property.children ?? []
        if (key && value)
          entries.push({ name: String(getNodeValue(key)), path: [...path, String(getNodeValue(key))], section, node: value })
      }
    }
  }
  return entries
}

/** The concrete paths a section's path stands for, `*` taking each key of the object at that point. */
function expand(root: Node, pattern: readonly string[]): string[][] {
  let paths: string[][] = [[]]
  for (const part of pattern) {
    if (part !== '*') {
      paths = paths.map((path) => [...path, part])
      continue
    }
    paths = paths.flatMap((path) => {
      const node = findNodeAtLocation(root, path)
      if (node?.type !== 'object') return []
      return (node.children ?? []).flatMap((property) => {
        const key = property.children?.[0]
        return key ? [[...path, String(getNodeValue(key))]] : []
      })
    })
  }
  return paths
}

/** The property `key` of an object node: the property node and its value. */
export function propertyOf(object: Node, key: string): { property: Node; value: Node } | undefined {
  if (object.type !== 'object') return undefined
  for (const property of object.children ?? []) {
    const [name, value] = property.children ?? []
    if (name && value && getNodeValue(name) === key) return { property, value }
  }
  return undefined
}

/** 1-based line and column of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset)
  const lineStart = Math.max(before.lastIndexOf('\n') + 1, 0)
  return { line: before.split('\n').length, column: offset - lineStart + 1 }
}

/** jsonc-parser's error names, as a sentence ("CommaExpected" → "comma expected"). */
function describe(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()
}
