// What an MCP server lists, as the Catalog and the call surface read it (only the fields they use).

export interface Tool {
  name: string
  title?: string
  description?: string
  inputSchema?: { properties?: Record<string, unknown>; required?: string[] }
  outputSchema?: unknown
}
export interface Prompt {
  name: string
  title?: string
  description?: string
  arguments?: { name: string; description?: string; required?: boolean }[]
}
export interface Resource {
  uri: string
  name?: string
  title?: string
  mimeType?: string
  description?: string
  _meta?: unknown
}
export interface Template {
  uriTemplate: string
  name?: string
  title?: string
  mimeType?: string
  description?: string
}
