/**
 * Consent: the engine runs nothing the user has not approved. What is approved is exactly what runs —
 * a stdio command with its arguments, environment and working directory; a hooks module's content; an
 * origin an agent card sends Parallax to — identified by a fingerprint, so any change asks again.
 */
export type ApprovalKind = 'command' | 'hooks' | 'origin'

export interface ApprovalRequest {
  kind: ApprovalKind
  /** A hash of exactly what would run (or be contacted); approving grants this and nothing else. */
  fingerprint: string
  /** What the approval is about, across changes ("command of target X", "hooks file P"): earlier approvals of it are compared. */
  subject: string
  /** One line for the dialog's title. */
  title: string
  targetId?: string
  targetName?: string
  /** A command as it would run; secret-looking environment values are shown redacted. An ACP agent's workspace: the folder it may read and write in. */
  command?: { command: string; args: string[]; env: Record<string, string>; cwd?: string; workspace?: string }
  hooks?: { path: string; sha256: string }
  origin?: { configured: string; requested: string; via: string }
  /** What differs from the version of the same subject the user approved before. */
  changes?: string[]
  /** When the user approved an earlier version of the same subject. */
  previouslyApprovedAt?: number
}

/** A granted approval, as listed (and revocable) in the settings. */
export interface ApprovalRecord {
  kind: ApprovalKind
  fingerprint: string
  subject: string
  title: string
  approvedAt: number
}

/** The `details` of a CommandError with code `approval-required`. */
export interface ApprovalRequiredDetails {
  approval: ApprovalRequest
}

export function isApprovalRequired(details: unknown): details is ApprovalRequiredDetails {
  const approval = (details as ApprovalRequiredDetails | undefined)?.approval
  return !!approval && typeof approval.fingerprint === 'string' && typeof approval.kind === 'string'
}
