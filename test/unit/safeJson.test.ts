import { builtInDemos } from '../../shared/demo/builtIns'
import { describe, expect, it } from 'vitest'
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import { CommandError, type ConversationEvent, type EventInput } from '../../shared/contract'
import { Engine } from '../../shared/engine/engine'
import { EventLog } from '../../shared/runtime/eventLog'
import { boundForUi, deeperThan, detachedCut, MAX_DEPTH, noteWholeInFrame, safeStringify } from '../../shared/runtime/safeJson'
import { JsonLineReader, wireText } from '../../shared/runtime/lines'

/** `[[[…"bottom"…]]]`, `depth` levels deep, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = 'bottom'
  for (let i = 0; i < depth; i++) value = [value]
  return value
}

describe('depth- and size-safe JSON', () => {
  it('measures depth at any depth, never recursing past the limit', () => {
    expect(deeperThan(nested(MAX_DEPTH))).toBe(false)
    expect(deeperThan(nested(MAX_DEPTH + 1))).toBe(true)
    expect(deeperThan(nested(200_000))).toBe(true)
    expect(deeperThan('text')).toBe(false)
  })

  it('serialises what JSON.stringify cannot: whole at any depth, or cut at a given depth; cycles and BigInts too', () => {
    const deep = nested(20_000)
    expect(() => JSON.stringify(deep)).toThrow(RangeError)
    expect(safeStringify(deep)).toBe(`${'['.repeat(20_000)}"bottom"${']'.repeat(20_000)}`)
    const cut = safeStringify({ a: deep }, 5)
    expect(cut).toBe('{"a":[[[["[nested deeper than 5 levels: not shown]"]]]]}')
    const cyclic: Record<string, unknown> = { n: 1n, list: [1, undefined, 'x'] }
    cyclic.self = cyclic
    expect(safeStringify(cyclic)).toBe('{"n":"1","list":[1,null,"x"],"self":"[circular]"}')
    expect(safeStringify({ ok: true })).toBe('{"ok":true}')
  })

  it('leaves small values as they are (the same object, uncopied)', () => {
    const value = { content: [{ type: 'text', text: 'x'.repeat(10_000) }] }
    expect(boundForUi(value)).toBe(value)
  })

  it('bounds a large value with the same shape, and each cut says how much and where the whole is', () => {
    const text = 'x'.repeat(5_000_000)
    const result = { content: [{ type: 'text', text }], isError: false }
    noteWholeInFrame(result, 42)
    const event = { type: 'call', seq: 7, response: result, items: Array.from({ length: 100_000 }, (_, i) => ({ i })) }
    const bounded = boundForUi(event)
    expect(bounded).not.toBe(event)
    expect(Object.keys(bounded)).toEqual(['type', 'seq', 'response', 'items', 'items…'])
    expect(bounded.response.isError).toBe(false)
    const shown = bounded.response.content[0].text
    expect(shown.startsWith('x'.repeat(1000))).toBe(true)
    expect(shown).toMatch(
      /… \[Parallax cut [\d,]+ characters of 5,000,000; the whole payload is in frame #42 \(Frames → Save whole…, or frames\.export\)\]$/,
    )
    // Cut items are noted beside the array, so what remains is still a list of the same things.
    expect(bounded.items.every((item) => typeof item === 'object')).toBe(true)
    expect((bounded as unknown as Record<string, string>)['items…']).toMatch(
      /^\[Parallax cut [\d,]+ items of 100,000; the whole payload is in this connection's frames/,
    )
    expect(JSON.stringify(bounded).length).toBeLessThan(300 * 1024)
    expect(event.response.content[0].text).toBe(text) // the original is untouched
  })

  it('a very large list keeps as many whole items as fit, never hollowed ones', () => {
    const tools = Array.from({ length: 3_000 }, (_, i) => ({
      name: `tool_${i}`,
      description: 'd'.repeat(300),
      inputSchema: { type: 'object', properties: { a: { type: 'string', description: 'p'.repeat(200) } } },
    }))
    const bounded = boundForUi({ type: 'discovery', items: tools }) as unknown as { items: typeof tools; 'items…': string }
    expect(bounded.items.length).toBeGreaterThan(100)
    expect(bounded.items.length).toBeLessThan(3_000)
    expect(bounded.items.every((t) => typeof t.name === 'string' && t.name.startsWith('tool_') && t.inputSchema.type === 'object')).toBe(
      true,
    )
    expect(bounded['items…']).toMatch(/Parallax cut [\d,]+ items of 3,000/)
    expect(JSON.stringify(bounded).length).toBeLessThan(300 * 1024)
  })

  it('bounds a value nested too deeply, whatever its size', () => {
    const bounded = boundForUi({ data: nested(10_000) }) as { data: unknown }
    expect(deeperThan(bounded, MAX_DEPTH + 1)).toBe(false)
    expect(JSON.stringify(bounded)).toMatch(/Parallax cut a value nested deeper than 256 levels/)
  })

  it('cuts never keep the whole string alive, and never split a surrogate pair', () => {
    expect(detachedCut('ab😀cd', 3)).toBe('ab')
    expect(detachedCut('ab😀cd', 4)).toBe('ab😀')
    expect(detachedCut('short', 100)).toBe('short')
  })
})

describe('the event log keeps large or deep agent data as a bounded preview', () => {
  it('bounds non-frame events and leaves frames (bounded as they are tapped) alone', () => {
    const log = new EventLog()
    const huge = 'y'.repeat(3_000_000)
    const message = {
      role: 'agent' as const,
      content: huge,
      timestamp: 1,
      metadata: { kind: 'result' as const, timestampSource: 'observed' as const, data: nested(1000) },
    }
    const event = log.emit<ConversationEvent>({ type: 'conversation', connectionId: 'c', message } as EventInput<ConversationEvent>)
    expect(event.seq).toBe(1)
    expect(event.message.content.length).toBeLessThan(70 * 1024)
    expect(event.message.content).toMatch(/Parallax cut/)
    expect(() => JSON.stringify(event)).not.toThrow()
    const frame = log.emit({
      type: 'frame',
      connectionId: 'c',
      direction: 'in',
      protocol: 'mcp',
      transport: 'stdio',
      kind: 'response',
      payload: { text: huge },
      bytes: huge.length,
    } as never)
    expect((frame as unknown as { payload: { text: string } }).payload.text).toBe(huge)
  })

  it('the engine refuses a command whose input is nested deeper than it accepts from agents', async () => {
    const engine = new Engine({ host: 'cli', builtIns: builtInDemos() })
    const error = await engine
      .execute('tools.call', { connectionId: 'x', tool: 't', arguments: { a: nested(5000) } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CommandError)
    expect(error).toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/nested deeper than 256 levels; Parallax refused it/),
    })
    await engine.dispose()
  })
})

describe('reading JSON-RPC lines from a stdio server', () => {
  it('joins lines across chunks (multi-byte characters split too), handles CRLF, and keeps each line as it arrived', () => {
    const reader = new JsonLineReader(1_000_000, deserializeMessage)
    const line = Buffer.from(
      '{"jsonrpc":"2.0","id":1,"result":{"text":"héllo 😀"}}\r\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    )
    for (let at = 0; at < line.length; at += 7) reader.append(line.subarray(at, at + 7))
    const first = reader.readMessage()!
    expect(first).toMatchObject({ id: 1, result: { text: 'héllo 😀' } })
    expect(wireText.get(first)).toBe('{"jsonrpc":"2.0","id":1,"result":{"text":"héllo 😀"}}')
    expect(reader.readMessage()).toMatchObject({ method: 'notifications/initialized' })
    expect(reader.readMessage()).toBeNull()
  })

  it('a line of megabytes in pipe-sized chunks, characters split across them, reads back exactly', () => {
    const reader = new JsonLineReader(64 * 1024 * 1024, deserializeMessage)
    const text = 'añ😀€'.repeat(400_000) // 4 MB of UTF-8: 2-, 3- and 4-byte characters fall across every boundary
    const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 7, result: { text } })}\n{"jsonrpc":"2.0","id":8,"result":{}}\n`)
    for (let at = 0; at < line.length; at += 65_531) reader.append(line.subarray(at, at + 65_531))
    expect((reader.readMessage() as unknown as { result: { text: string } }).result.text).toBe(text)
    expect(reader.readMessage()).toMatchObject({ id: 8 })
    expect(reader.readMessage()).toBeNull()
  })

  it('a line that is not JSON-RPC throws when read (the SDK reports it and reads on); a line past the limit throws and clears', () => {
    const reader = new JsonLineReader(64, deserializeMessage)
    reader.append(Buffer.from('not json\n{"jsonrpc":"2.0","id":2,"result":{}}\n'))
    expect(() => reader.readMessage()).toThrow()
    expect(reader.readMessage()).toMatchObject({ id: 2 })
    expect(() => reader.append(Buffer.from('x'.repeat(100)))).toThrow(/exceeded maximum size of 64 bytes/)
    reader.append(Buffer.from('{"jsonrpc":"2.0","id":3,"result":{}}\n'))
    expect(reader.readMessage()).toMatchObject({ id: 3 })
  })
})
