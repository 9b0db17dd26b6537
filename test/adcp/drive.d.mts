export interface DriveStep {
  success: boolean
  status?: string
  data?: Record<string, unknown>
  error?: string
}
export declare function driveSeller(options: {
  protocol: 'mcp' | 'a2a'
  url: string
  brand?: string
  operator?: string
}): Promise<Record<'capabilities' | 'require' | 'products' | 'formats' | 'buy' | 'mediaBuys' | 'delivery', DriveStep>>
export declare function refusedBuy(options: { protocol: 'mcp' | 'a2a'; url: string }): Promise<DriveStep>
export declare function buyTwiceWithOneKey(options: {
  protocol: 'mcp' | 'a2a'
  url: string
}): Promise<{ first: DriveStep; again: DriveStep; request: Record<string, unknown> }>
