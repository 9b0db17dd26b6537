import { describe, expect, it } from 'vitest'
import { headerValue, paramHeaderProblem, paramHeaderValues, scanParamHeaders } from '../../shared/contract'

// SEP-2243's rules beyond what the conformance suite's scenarios cover: nesting, the sentinel, safe integers.

describe('x-mcp-header declarations and Mcp-Param values', () => {
  it('a declaration at any depth of properties is mirrored from the value at that path', () => {
    const scan = scanParamHeaders({
      type: 'object',
      properties: { target: { type: 'object', properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } } },
    })
    expect(scan).toEqual({ valid: true, headers: [{ path: ['target', 'tenant'], name: 'Tenant' }] })
    if (scan.valid) expect(paramHeaderValues(scan.headers, { target: { tenant: 'acme' } })).toEqual({ 'Mcp-Param-Tenant': 'acme' })
  })

  it('a declaration under items, anyOf or $defs makes the tool invalid', () => {
    for (const schema of [
      { type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } } },
      { type: 'object', anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
      { type: 'object', $defs: { a: { type: 'string', 'x-mcp-header': 'A' } } },
    ])
      expect(paramHeaderProblem({ name: 't', inputSchema: schema })).toMatch(/allowed only on a property reached through "properties"/)
  })

  it('a plain value that looks like the Base64 sentinel is itself encoded; an unsafe integer has no header', () => {
    expect(headerValue('=?base64?literal?=')).toBe(`=?base64?${btoa('=?base64?literal?=')}?=`)
    expect(headerValue('us west 1')).toBe('us west 1')
    expect(paramHeaderValues([{ path: ['n'], name: 'N' }], { n: 2 ** 60 })).toEqual({})
    expect(paramHeaderValues([{ path: ['n'], name: 'N' }], { n: -7 })).toEqual({ 'Mcp-Param-N': '-7' })
  })
})
