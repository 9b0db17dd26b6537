export declare const APP_ROOT: string
export declare function isCheckout(root?: string): boolean
export declare function freshBundle(name: string, sourceDirs: string[], root?: string): string | undefined
