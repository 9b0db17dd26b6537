import { claudeCode } from './claudeCode'
import { claudeDesktop } from './claudeDesktop'
import { cursor } from './cursor'
import type { HostDefinition } from './host'
import { vscode } from './vscode'
import { windsurf } from './windsurf'
import { zed } from './zed'

/** Every host `parallax tap install` knows, by its --host name. */
export const HOSTS: readonly HostDefinition[] = [claudeDesktop, claudeCode, cursor, vscode, windsurf, zed]

export function hostNamed(name: string): HostDefinition | undefined {
  return HOSTS.find((host) => host.name === name)
}
