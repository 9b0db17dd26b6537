// Everything of an MCP connection that needs the 2.x client (`@modelcontextprotocol/client`): the one module
// McpConnection loads when it first offers the 2026 era, so a connection that never does (a 2025-only
// profile, a reconnect to a known 2025 server) and a host with no MCP connection never load the 2.x client.
export { StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client'
export { probe2026, sdkHttpStatus } from './eraProbe'
export { ModernSession } from './modernSession'
