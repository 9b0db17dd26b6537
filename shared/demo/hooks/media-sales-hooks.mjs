// Example pre-validation hooks for the demo media-sales agent: `{ [toolName]: (toolName, args) => args }`.
// Load this file on a connection (or `parallax call … --hooks shared/demo/hooks/media-sales-hooks.mjs`).
// Plain JavaScript, so it loads wherever Parallax runs; a hooks file may be TypeScript too (.ts).

/**
 * Older buyers omit buying_mode and send the budget as a string: fill and coerce before validation.
 * @param {string} _tool
 * @param {Record<string, unknown>} args
 */
export function create_media_buy(_tool, args) {
  args.buying_mode ??= 'auction'
  if (typeof args.budget === 'string') args.budget = Number(args.budget.replace(/[$,]/g, ''))
  return args
}

/**
 * Briefs arrive with stray whitespace from some clients.
 * @param {string} _tool
 * @param {Record<string, unknown>} args
 */
export function search_products(_tool, args) {
  return { ...args, ...(typeof args.brief === 'string' && { brief: args.brief.trim() }) }
}
