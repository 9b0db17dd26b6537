/** test/adcp/syncSchemas.mjs: the AdCP schemas Parallax bundles, as the checked-in file holds them. */
export const OUTPUT: string
export const TASKS_OUTPUT: string
export function buildBundle(folder?: string): unknown
export function bundleText(folder?: string): string
export function tasksText(folder?: string): string
