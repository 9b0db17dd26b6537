import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { callFindings, inspectCall } from '../../shared/hooks/callInspector'
import { parseDeclarativeHooks } from '../../shared/hooks/declarative'
import { applyHook, type HookSet } from '../../shared/hooks/hooks'
import { lintProtocolFields } from '../../shared/hooks/lint'
import { loadHooks } from '../../shared/hooks/loadHooks'
import { SchemaValidator } from '../../shared/hooks/validator'

const moduleHooks = (hooks: HookSet['hooks']): HookSet => ({ source: 'test', kind: 'module', hooks })
const dir = mkdtempSync(join(tmpdir(), 'parallax-hooks-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('hooks', () => {
  it('snapshot the raw arguments: a hook that mutates in place cannot change them', async () => {
    const args = { context: { buyer: 'acme' }, budget: 1 }
    const mutating = moduleHooks({
      t: (_tool, a) => {
        ;(a.context as Record<string, unknown>).buyer = 'changed'
        a.budget = 2
      },
    })
    const outcome = await applyHook(mutating, 't', args)
    expect(outcome.raw).toEqual({ context: { buyer: 'acme' }, budget: 1 })
    expect(outcome.hooked).toEqual({ context: { buyer: 'changed' }, budget: 2 })
    expect(args).toEqual({ context: { buyer: 'acme' }, budget: 1 }) // the caller's object too
  })

  it('treat returning a new object like mutating in place, and detach what the hook returned', async () => {
    const shared = { list: [1] }
    const returning = moduleHooks({ t: (_tool, a) => ({ ...a, shared }) })
    const outcome = await applyHook(returning, 't', { x: 1 })
    shared.list.push(2)
    expect(outcome.hooked).toEqual({ x: 1, shared: { list: [1] } })
  })

  it('a hook that throws produces an INVALID_REQUEST-class error and nothing is sent', async () => {
    let sent = false
    const report = await inspectCall(
      { protocol: 'mcp', tool: 't', send: async () => ((sent = true), { response: {}, data: {} }) },
      { a: 1 },
      moduleHooks({
        t: () => {
          throw new Error('budget must be positive')
        },
      }),
      new SchemaValidator(),
    )
    expect(sent).toBe(false)
    expect(report).toMatchObject({ sent: false, hookError: { code: -32600, message: 'hook "t" threw: budget must be positive' } })
    expect(callFindings(report)).toContain('hook "t" threw: budget must be positive')
  })

  it('rejects a hook that returns something that is not an arguments object', async () => {
    const outcome = await applyHook(moduleHooks({ t: () => [1, 2] as never }), 't', {})
    expect(outcome.error).toMatch(/returned an array/)
  })

  it('uses the * hook for tools without their own', async () => {
    const set = moduleHooks({ '*': (_t, a) => ({ ...a, all: true }), own: (_t, a) => ({ ...a, own: true }) })
    expect((await applyHook(set, 'other', {})).hooked).toEqual({ all: true })
    expect((await applyHook(set, 'own', {})).hooked).toEqual({ own: true })
    expect((await applyHook(undefined, 'own', { a: 1 })).hooked).toEqual({ a: 1 })
  })
})

describe('declarative hooks', () => {
  it('rename, remove, fill defaults where absent, and set, with dotted paths', async () => {
    const set = parseDeclarativeHooks(
      {
        buy: {
          rename: { mode: 'buying_mode' },
          remove: ['debug'],
          defaults: { buying_mode: 'auction', 'context.source': 'parallax' },
          set: { 'flight.start': '2026-12-01' },
        },
      },
      'rules.json',
    )
    expect((await applyHook(set, 'buy', { mode: 'guaranteed', debug: true, context: { buyer: 'a' } })).hooked).toEqual({
      buying_mode: 'guaranteed',
      context: { buyer: 'a', source: 'parallax' },
      flight: { start: '2026-12-01' },
    })
    expect((await applyHook(set, 'buy', {})).hooked).toEqual({
      buying_mode: 'auction',
      context: { source: 'parallax' },
      flight: { start: '2026-12-01' },
    })
  })

  it('refuse unknown rule kinds with the path of the mistake', () => {
    expect(() => parseDeclarativeHooks({ buy: { defaults: {}, upsert: {} } }, 'rules.json')).toThrow(/rules.json: buy: Unrecognized key/)
    expect(() => parseDeclarativeHooks({ buy: { remove: 'x' } }, 'rules.json')).toThrow(/buy\.remove/)
  })

  it('load from files: JSON rules, and modules that are reloaded fresh', async () => {
    const json = join(dir, 'rules.json')
    writeFileSync(json, JSON.stringify({ t: { set: { v: 1 } } }))
    expect((await applyHook(await loadHooks(json), 't', {})).hooked).toEqual({ v: 1 })
    const mod = join(dir, 'hooks.mjs')
    writeFileSync(mod, 'export const t = (_n, a) => ({ ...a, v: 1 })\n')
    expect((await applyHook(await loadHooks(mod), 't', {})).hooked).toEqual({ v: 1 })
    writeFileSync(mod, 'export const t = (_n, a) => ({ ...a, v: 2 })\n')
    expect((await applyHook(await loadHooks(mod), 't', {})).hooked).toEqual({ v: 2 })
    const ts = join(dir, 'hooks.ts')
    writeFileSync(ts, 'export default { t: (_n: string, a: Record<string, unknown>) => ({ ...a, typed: true as const }) }\n')
    expect((await applyHook(await loadHooks(ts), 't', {})).hooked).toEqual({ typed: true })
    writeFileSync(json, '{ nope')
    await expect(loadHooks(json)).rejects.toThrow(/is not valid JSON/)
    writeFileSync(mod, 'export const t = 42\n')
    await expect(loadHooks(mod)).rejects.toThrow(/export "t" is a number, not a function/)
    await expect(loadHooks(join(dir, 'missing.json'))).rejects.toThrow(/cannot read hooks file/)
  })
})

describe('schema validation', () => {
  it('compiles each schema once and reuses it', () => {
    const validator = new SchemaValidator()
    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }
    expect(validator.validate(schema, { n: 1 })).toEqual({ valid: true, errors: [] })
    expect(validator.validate({ ...schema }, {})).toEqual({
      valid: false,
      errors: [{ path: '/', message: 'missing required property "n"' }],
    })
    expect(validator.validate(schema, { n: 'x' }).errors[0]).toEqual({ path: '/n', message: 'must be number' })
    expect(validator.compiled).toBe(1)
  })

  it('speaks draft-07 and 2020-12, and reports a broken schema instead of throwing', () => {
    const validator = new SchemaValidator()
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'array',
      items: [{ type: 'string' }],
      additionalItems: false,
    }
    expect(validator.validate(draft07, ['a']).valid).toBe(true)
    expect(validator.validate(draft07, ['a', 'b']).valid).toBe(false)
    const modern = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: false,
    }
    expect(validator.validate(modern, ['a', 'b']).valid).toBe(false)
    expect(validator.validate({ type: 'no-such-type' }, {}).errors[0].message).toMatch(/the schema itself is invalid/)
    expect(validator.validate(undefined, {})).toEqual({ valid: null, errors: [] })
  })
})

describe('protocol-field lint', () => {
  it('finds envelope fields in arguments and in input schemas, nested too', () => {
    const findings = lintProtocolFields(
      { brief: 'x', adcp_version: '2', context: { jsonrpc: '2.0' } },
      {
        type: 'object',
        properties: { protocol_version: { type: 'string' }, nested: { type: 'object', properties: { adcp_version: {} } } },
      },
    )
    expect(findings.map((f) => [f.where, f.path])).toEqual([
      ['arguments', '/adcp_version'],
      ['arguments', '/context/jsonrpc'],
      ['inputSchema', '/properties/protocol_version'],
      ['inputSchema', '/properties/nested/properties/adcp_version'],
    ])
    expect(lintProtocolFields({ a: 1 }, {}, ['a'])).toHaveLength(1)
  })
})
