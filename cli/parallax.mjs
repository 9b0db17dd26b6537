#!/usr/bin/env node
// The `parallax` command: the prebuilt bundle when it is up to date (it starts fastest), otherwise the
// TypeScript sources through tsx's loader.
import { pathToFileURL } from 'node:url'
import { freshBundle } from '../shared/bundles.mjs'

const bundle = freshBundle('cli/main.js', ['cli', 'shared'])
let main
if (bundle) ({ main } = await import(pathToFileURL(bundle).href))
else {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('./main.ts'))
}
process.exitCode = await main(process.argv.slice(2))
