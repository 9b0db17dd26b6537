// Example pre-validation hooks for the demo media-sales agent (an AdCP seller): `{ [toolName]: (toolName, args) => args }`.
// Load this file on a connection (or `parallax call … --hooks shared/demo/hooks/media-sales-hooks.mjs`).
// Plain JavaScript, so it loads wherever Parallax runs; a hooks file may be TypeScript too (.ts).

/**
 * Buyers written for AdCP 2.x omit get_products' buying_mode (AdCP 3 requires it), and some send briefs with
 * stray whitespace: fill and trim before validation.
 * @param {string} _tool
 * @param {Record<string, unknown>} args
 */
export function get_products(_tool, args) {
  const brief = typeof args.brief === 'string' ? args.brief.trim() : args.brief
  return { ...args, ...(brief !== undefined && { brief }), buying_mode: args.buying_mode ?? (brief ? 'brief' : 'wholesale') }
}

/**
 * Older buyers send each package's budget as a string ("$2,000"): coerce before validation.
 * @param {string} _tool
 * @param {Record<string, unknown>} args
 */
export function create_media_buy(_tool, args) {
  if (!Array.isArray(args.packages)) return args
  const packages = args.packages.map((pkg) =>
    typeof pkg?.budget === 'string' ? { ...pkg, budget: Number(pkg.budget.replace(/[$,]/g, '')) } : pkg,
  )
  return { ...args, packages }
}
