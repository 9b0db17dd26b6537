import { expect, test as base } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export interface RunningWebHost {
  /** The URL printed at launch, token included. */
  url: string
  origin: string
  token: string
  /** What the host printed on stderr so far (its refusals are logged there). */
  stderr(): string
  stop(): Promise<void>
}

/** Starts `parallax web` exactly as a user would, on a free port with a private data folder. */
export async function startWebHostProcess(): Promise<RunningWebHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parallax-e2e-'))
  const child = spawn(process.execPath, [join(ROOT, 'cli', 'parallax.mjs'), 'web', '--port', '0'], {
    cwd: ROOT,
    env: { ...process.env, PARALLAX_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`web host did not start: ${stderr}`)), 20_000)
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const line = out.split('\n').find((l) => l.startsWith('http://'))
      if (line) {
        clearTimeout(timer)
        resolve(line.trim())
      }
    })
    child.once('exit', (code) => reject(new Error(`web host exited with ${code}: ${stderr}`)))
  })
  const parsed = new URL(url)
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token')!,
    stderr: () => stderr,
    stop: () => stop(child, dataDir),
  }
}

async function stop(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
    if (child.exitCode === null) child.kill('SIGKILL')
  }
  rmSync(dataDir, { recursive: true, force: true })
}

/** Playwright's test with a `host` fixture: a real `parallax web` of its own for each test, stopped after it. */
export const test = base.extend<{ host: RunningWebHost }>({
  host: async ({}, use) => {
    const host = await startWebHostProcess()
    await use(host)
    await host.stop()
  },
})
export { expect }
