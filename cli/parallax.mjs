#!/usr/bin/env node
// The `parallax` command. Parallax's Node side is TypeScript run through tsx's loader.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('./main.ts')
process.exitCode = await main(process.argv.slice(2))
