import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { applyHook } from '../../shared/hooks/hooks'
import { loadHooks } from '../../shared/hooks/loadHooks'
import { loadResponderFile } from '../../shared/hooks/responder'
import { moduleExports } from '../../shared/runtime/userModules'

// Hooks and scripted responders are modules the user writes: one loader reads both (shared/runtime/userModules.ts),
// so a module written one way loads as hooks exactly when it loads as a responder.

const dir = mkdtempSync(join(tmpdir(), 'parallax-user-modules-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const HOOK = '(_tool, args) => ({ ...args, hooked: true })'
const SAMPLING = "() => ({ role: 'assistant', content: { type: 'text', text: 'scripted' }, model: 'm', stopReason: 'endTurn' })"

/** Each way of writing a module, by file name: its text exporting `fn` as `name`. */
const FORMS: [file: string, text: (name: string, fn: string) => string][] = [
  ['named.mjs', (name, fn) => `export const ${name} = ${fn}\n`],
  ['default.mjs', (name, fn) => `export default { ${name}: ${fn} }\n`],
  ['exports.cjs', (name, fn) => `exports.${name} = ${fn}\n`],
  ['moduleExports.cjs', (name, fn) => `module.exports = { ${name}: ${fn} }\n`],
  ['moduleExports.js', (name, fn) => `module.exports = { ${name}: ${fn} }\n`],
  ['named.ts', (name, fn) => `export const ${name} = ${fn.replace('(_tool, args)', '(_tool: string, args: object)')}\n`],
  ['default.ts', (name, fn) => `export default { ${name}: ${fn.replace('(_tool, args)', '(_tool: string, args: object)')} }\n`],
  ['named.mts', (name, fn) => `export const ${name} = ${fn.replace('(_tool, args)', '(_tool: string, args: object)')}\n`],
  ['moduleExports.cts', (name, fn) => `module.exports = { ${name}: ${fn} }\n`],
]

describe('modules the user writes (hooks, scripted responders)', () => {
  it.each(FORMS)('load as hooks and as a responder alike: %s', async (file, text) => {
    const hooksFile = join(dir, `hooks-${file}`)
    const responderFile = join(dir, `responder-${file}`)
    writeFileSync(hooksFile, text('t', HOOK))
    writeFileSync(responderFile, text('sampling', SAMPLING))

    const hooks = await loadHooks(hooksFile)
    expect(Object.keys(hooks.hooks)).toEqual(['t'])
    expect((await applyHook(hooks, 't', { a: 1 })).hooked).toEqual({ a: 1, hooked: true })
    const responder = await loadResponderFile(responderFile)
    expect(await responder.answer({ method: 'sampling/createMessage', params: {} })).toMatchObject({
      result: { content: { text: 'scripted' } },
    })
  })

  it('refuse the same files, in the same words', async () => {
    const text = join(dir, 'notes.txt')
    writeFileSync(text, 'export const t = 1\n')
    await expect(loadHooks(text)).rejects.toThrow(`hooks file ${text}: expected .json, .js, .mjs, .cjs, .ts, .mts or .cts`)
    await expect(loadResponderFile(text)).rejects.toThrow(`responder file ${text}: expected .json, .js, .mjs, .cjs, .ts, .mts or .cts`)
    const broken = join(dir, 'broken.mjs')
    writeFileSync(broken, 'export const = 1\n')
    await expect(loadHooks(broken)).rejects.toThrow(`cannot load hooks module ${broken}`)
    await expect(loadResponderFile(broken)).rejects.toThrow(`cannot load responder module ${broken}`)
    const missing = join(dir, 'missing.json')
    await expect(loadHooks(missing)).rejects.toThrow(`cannot read hooks file ${missing}`)
    await expect(loadResponderFile(missing)).rejects.toThrow(`cannot read responder file ${missing}`)
  })

  it('read a CommonJS module the way each Node line gives it', () => {
    const t = () => ({})
    // Node 20: the value as `default`, and the names its source shows.
    expect(moduleExports({ default: { t } })).toEqual({ t })
    expect(moduleExports({ default: { t }, t })).toEqual({ default: { t }, t })
    // Node 23 and later give the value again as 'module.exports'; a module compiled from ESM says `__esModule`.
    expect(moduleExports({ default: { t }, 'module.exports': { t } })).toEqual({ t })
    expect(moduleExports({ default: { t }, 'module.exports': { t }, t })).toEqual({ default: { t }, t })
    expect(moduleExports({ default: { default: { t }, __esModule: true } })).toEqual({ t })
    // A default that is a function (a responder's `export default (request) => result`) stays the default.
    expect(moduleExports({ default: t, 'module.exports': t })).toEqual({ default: t })
  })
})
