import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { PARALLAX_VERSION } from '../../shared/version'

it('keeps PARALLAX_VERSION equal to package.json', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  expect(PARALLAX_VERSION).toBe(pkg.version)
})
