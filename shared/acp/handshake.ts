import { ACP_HINT_FIELD, ACP_HINT_META_KEY, ACP_PROTOCOL_VERSION, type AcpHandshake, type ClientProfile } from '../contract'

type AcpProfile = NonNullable<ClientProfile['acp']>

/** What Parallax offers an ACP agent under a profile, given whether the target has a workspace folder. */
export interface AcpOffer {
  capabilities: Record<string, unknown>
  hint?: AcpHandshake['hint']
  /** What the profile has but this connection cannot offer, and why. */
  notOffered: string[]
  offered: { read: boolean; write: boolean; terminal: boolean }
}

/**
 * The client capabilities for `initialize`: `fs` and `terminal` as the profile says — only with a workspace
 * to confine them to — and the requested tool categories hint as the proposal's field and/or under `_meta`.
 * The field goes on the wire as it is: no SDK schema has it yet, and an agent that parses with one never sees it.
 */
export function acpOffer(profile: AcpProfile | undefined, hasWorkspace: boolean): AcpOffer {
  const fs = profile?.fs ?? { readTextFile: false, writeTextFile: false }
  const wantsFs = fs.readTextFile || fs.writeTextFile
  const terminal = profile?.terminal ?? false
  const notOffered: string[] = []
  if (!hasWorkspace && wantsFs) notOffered.push('fs: the target has no workspace folder to confine file requests to')
  if (!hasWorkspace && terminal) notOffered.push('terminal: the target has no workspace folder to run commands in')
  const offered = {
    read: hasWorkspace && fs.readTextFile,
    write: hasWorkspace && fs.writeTextFile,
    terminal: hasWorkspace && terminal,
  }
  const categories = profile?.requestedToolCategories
  const via = profile?.hintVia ?? ['field', 'meta']
  const capabilities: Record<string, unknown> = {
    fs: { readTextFile: offered.read, writeTextFile: offered.write },
    terminal: offered.terminal,
    ...(categories && via.includes('field') && { [ACP_HINT_FIELD]: categories }),
    ...(categories && via.includes('meta') && { _meta: { [ACP_HINT_META_KEY]: categories } }),
  }
  return { capabilities, offered, notOffered, ...(categories && { hint: { categories, via } }) }
}

export function acpProtocolVersion(profile: AcpProfile | undefined): number {
  return profile?.protocolVersion ?? ACP_PROTOCOL_VERSION
}

/** The agent's `initialize` answer as the handshake shows it (read from its frame: nothing the SDK's schema dropped is lost). */
export function agentSide(
  result: Record<string, unknown> | undefined,
): Pick<AcpHandshake, 'protocolVersion' | 'agentCapabilities' | 'agentInfo' | 'authMethods'> {
  const info = result?.agentInfo as AcpHandshake['agentInfo'] | null | undefined
  return {
    ...(typeof result?.protocolVersion === 'number' && { protocolVersion: result.protocolVersion }),
    agentCapabilities: (result?.agentCapabilities as Record<string, unknown> | undefined) ?? {},
    ...(info && { agentInfo: info }),
    authMethods: Array.isArray(result?.authMethods) ? (result.authMethods as AcpHandshake['authMethods']) : [],
  }
}
