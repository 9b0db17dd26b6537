import type { DomainHandlers } from './handler'

/** What the user approved to run or be contacted: listed, granted (exactly what a refusal asked about), revoked. */
export const approvalCommands: DomainHandlers<'approvals'> = {
  'approvals.list': (_, engine) => engine.approvals.list(),
  'approvals.grant': ({ fingerprint }, engine) => engine.approvals.grant(fingerprint),
  'approvals.revoke': async ({ fingerprint }, engine) => ({ revoked: await engine.approvals.revoke(fingerprint) }),
}
