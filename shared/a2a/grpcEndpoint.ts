/**
 * Where a card's gRPC interface is, for a gRPC channel: cards write it as `host:port` (the SDK's samples)
 * or as a URL (`https://grpc.example.com`, the spec's examples; `grpc://`, `grpcs://`). `target` is what
 * the channel dials, `tls` whether it runs over TLS (https, grpcs), and `origin` the http(s) origin the
 * user's headers are weighed against, as for the other bindings.
 */
export interface GrpcEndpoint {
  target: string
  tls: boolean
  origin: string
}

export function grpcEndpoint(url: string): GrpcEndpoint | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase()
  const tls = scheme === 'https' || scheme === 'grpcs'
  if (scheme && !['http', 'https', 'grpc', 'grpcs'].includes(scheme)) return undefined
  const asUrl = `${tls ? 'https' : 'http'}://${scheme ? url.slice(scheme.length + 3) : url}`
  if (!URL.canParse(asUrl)) return undefined
  const parsed = new URL(asUrl)
  if (!parsed.hostname) return undefined
  const port = parsed.port || (tls ? '443' : '80')
  return { target: `${parsed.hostname}:${port}`, tls, origin: parsed.origin }
}

/** Closes a gRPC transport's channel (the SDK keeps its client to itself and offers no close); other transports hold nothing open. */
export function closeTransport(transport: unknown): void {
  // A tenant's transport is the SDK's decorator around the one that holds the channel.
  const inner = transport as { grpcClient?: { close?: () => void }; base?: unknown } | undefined
  const client = inner?.grpcClient ?? (inner?.base as typeof inner)?.grpcClient
  try {
    client?.close?.()
  } catch {
    // closing is best effort
  }
}
