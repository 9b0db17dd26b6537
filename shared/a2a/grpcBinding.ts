import type { AgentInterface } from '@a2a-js/sdk'
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc'
import { credentials } from '@grpc/grpc-js'
import { grpcEndpoint, type GrpcEndpoint } from './grpcEndpoint'
import { createGrpcTap, type GrpcTapOptions } from './grpcTap'

/**
 * What a connection needs to talk to a card's gRPC interface (loaded only then: gRPC is a large part of the bundle): the SDK's gRPC transport factory (v1.0, and
 * v0.3 through its compatibility layer), with every call tapped as frames; and the interface as the SDK
 * must be given it, its URL turned into the channel's target (`host:port`).
 */
export function grpcBinding(chosen: AgentInterface, options: Omit<GrpcTapOptions, 'target' | 'tls'>) {
  const endpoint: GrpcEndpoint | undefined = grpcEndpoint(chosen.url)
  if (!endpoint) throw new Error(`the gRPC interface's url ${JSON.stringify(chosen.url)} names no host and port`)
  const tap = createGrpcTap({ ...options, target: endpoint.target, tls: endpoint.tls })
  const factory = new GrpcTransportFactory({
    grpcChannelCredentials: endpoint.tls ? credentials.createSsl() : credentials.createInsecure(),
    grpcCallOptions: { interceptors: [tap.interceptor] },
    legacyCompat: { enabled: true },
  })
  return { factory, tap, endpoint, sdkInterface: { ...chosen, url: endpoint.target } }
}
