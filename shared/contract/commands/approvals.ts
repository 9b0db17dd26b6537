import { z } from 'zod'
import type { ApprovalRecord } from '../approvals'

/** What the user approved to run or be contacted: listed, granted (exactly what a refusal asked about), revoked. */
export const approvalInputs = {
  'approvals.list': z.object({}),
  /** Approves exactly what an `approval-required` refusal asked about (its fingerprint). */
  'approvals.grant': z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'a fingerprint from an approval request') }),
  'approvals.revoke': z.object({ fingerprint: z.string().min(1).max(100) }),
} as const

export interface ApprovalOutputs {
  'approvals.list': ApprovalRecord[]
  'approvals.grant': ApprovalRecord
  'approvals.revoke': { revoked: boolean }
}
