import { z } from 'zod'
import type { CardDrift, ServerCardRead } from '../serverCards'
import { ConnectionRef } from './refs'

const CardUrl = z.string().min(1).max(10_000)

/** MCP server cards (SEP-2127, draft) and server.json: read before connecting, and diffed against a connected server. */
export const cardInputs = {
  /** Fetches and checks the card a URL names (a card, a server.json, or a server's base URL: its well-known card). */
  'cards.read': z.object({ url: CardUrl }),
  /** Reads the card again and diffs what it claims against what the connection's server answered. */
  'cards.drift': ConnectionRef.extend({ url: CardUrl }),
} as const

export interface CardOutputs {
  'cards.read': ServerCardRead
  'cards.drift': CardDrift
}
