import { describe, expect, it } from 'vitest'
import { backoffDelay } from '../../shared/runtime/supervisedConnection'

describe('backoffDelay', () => {
  it('doubles from the base and stops at the cap', () => {
    const options = { reconnectBaseDelayMs: 500, reconnectMaxDelayMs: 8000 }
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, options))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000])
  })
})
