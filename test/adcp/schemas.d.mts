export declare const ADCP_RELEASE: string
export declare function releaseErrors(task: string, kind: 'request' | 'response', data: unknown): string[]
