#!/usr/bin/env node
// The `parallax` command: the prebuilt bundle when it is up to date (it starts fastest), otherwise the
// TypeScript sources through tsx's loader.
import { pathToFileURL } from 'node:url'
import { freshBundle } from '../shared/bundles.mjs'

async function fromSources() {
  const { register } = await import('tsx/esm/api')
  register()
  return import('./main.ts')
}

const bundle = freshBundle('cli/main.js', ['cli', 'web', 'shared'])
const { main } = bundle
  ? await import(pathToFileURL(bundle).href).catch((error) => {
      process.stderr.write(`parallax: the built CLI would not load (${error.message}); running from source\n`)
      return fromSources()
    })
  : await fromSources()
process.exitCode = await main(process.argv.slice(2))
