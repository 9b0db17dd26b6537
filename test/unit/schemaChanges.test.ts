import { describe, expect, it } from 'vitest'
import { schemaChanges } from '../../shared/compare/schemaChanges'

describe('schema changes are classified as a caller sees them', () => {
  const before = {
    type: 'object',
    properties: { sku: { type: 'string' }, mode: { enum: ['a', 'b'] }, qty: { type: ['integer', 'string'] } },
    required: ['sku'],
  }

  it('input: a new required field, a removed field, a narrowed type or enum break; a new optional field does not', () => {
    const after = {
      type: 'object',
      properties: {
        sku: { type: 'string' },
        mode: { enum: ['a'] },
        qty: { type: 'integer' },
        note: { type: 'string' },
        currency: { type: 'string' },
      },
      required: ['sku', 'currency'],
    }
    const changes = schemaChanges(before, after, 'input')
    const byPath = Object.fromEntries(changes.map((c) => [`${c.path} ${c.kind}`, c.breaking]))
    expect(byPath).toEqual({
      '/note property-added': false,
      '/currency required-added': true,
      '/mode enum-narrowed': true,
      '/qty type-narrowed': true,
    })
    expect(
      schemaChanges(before, { ...before, properties: { mode: before.properties.mode } }, 'input')
        .filter((c) => c.kind === 'property-removed')
        .map((c) => c.path),
    ).toEqual(['/sku', '/qty'])
  })

  it('input: an optional field that became required breaks; a required one that became optional does not; a wider type does not', () => {
    const after = { ...before, properties: { ...before.properties, qty: { type: ['integer', 'string', 'null'] } }, required: ['mode'] }
    const changes = schemaChanges(before, after, 'input')
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/mode', kind: 'required-added', breaking: true }),
        expect.objectContaining({ path: '/sku', kind: 'required-removed', breaking: false }),
        expect.objectContaining({ path: '/qty', kind: 'type-widened', breaking: false }),
      ]),
    )
  })

  it('output: the caller reads the result, so a removed field or a wider enum breaks and a new field does not', () => {
    const out = { type: 'object', properties: { id: { type: 'string' }, state: { enum: ['ok'] } } }
    const changes = schemaChanges(
      out,
      { type: 'object', properties: { state: { enum: ['ok', 'pending'] }, extra: { type: 'number' } } },
      'output',
    )
    expect(changes.map((c) => [c.path, c.kind, c.breaking])).toEqual(
      expect.arrayContaining([
        ['/extra', 'property-added', false],
        ['/id', 'property-removed', true],
        ['/state', 'enum-widened', true],
      ]),
    )
  })

  it('walks array items and nested objects, and an identical schema has no changes', () => {
    const nested = {
      type: 'object',
      properties: { lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } } },
    }
    expect(schemaChanges(nested, nested, 'input')).toEqual([])
    const narrowed = {
      type: 'object',
      properties: {
        lines: {
          type: 'array',
          items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } }, required: ['sku', 'qty'] },
        },
      },
    }
    expect(schemaChanges(nested, narrowed, 'input')).toEqual([
      expect.objectContaining({ path: '/lines/items/qty', kind: 'required-added', breaking: true }),
    ])
  })
})
