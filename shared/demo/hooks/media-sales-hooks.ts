// Example pre-validation hooks for the demo media-sales agent: `{ [toolName]: (toolName, args) => args }`.
// Load this file on a connection (or `parallax call … --hooks shared/demo/hooks/media-sales-hooks.ts`).

type Args = Record<string, unknown>

/** Older buyers omit buying_mode and send the budget as a string: fill and coerce before validation. */
export function create_media_buy(_tool: string, args: Args): Args {
  args.buying_mode ??= 'auction'
  if (typeof args.budget === 'string') args.budget = Number(args.budget.replace(/[$,]/g, ''))
  return args
}

/** Briefs arrive with stray whitespace from some clients. */
export function search_products(_tool: string, args: Args): Args {
  return { ...args, ...(typeof args.brief === 'string' && { brief: args.brief.trim() }) }
}
