/** Epoch milliseconds with sub-millisecond resolution: every event's `ts`, every latency. */
export const now = (): number => performance.timeOrigin + performance.now()
