import { CommandError } from '../../contract'
import { cardDrift } from '../../compare/cardDrift'
import { readServerCard } from '../../mcp/serverCard'
import type { DomainHandlers } from './handler'

/** MCP server cards (SEP-2127, draft): what a card claims before connecting, and how a connected server differs from it. */
export const cardCommands: DomainHandlers<'cards'> = {
  'cards.read': ({ url }) => read(url),
  'cards.drift': async ({ connectionId, url }, engine) => {
    const connection = engine.connection(connectionId)
    if (connection.protocol !== 'mcp')
      throw new CommandError('a server card describes an MCP server: this connection is not MCP', 'invalid-input')
    const card = await read(url)
    // Discovery has answered (the lists the card is diffed against) before anything is compared.
    await connection.settled()
    return cardDrift(card, engine.events.eventsOf(connectionId), connectionId)
  },
}

async function read(url: string) {
  try {
    return await readServerCard(url)
  } catch (error) {
    throw new CommandError((error as Error).message, 'failed')
  }
}
