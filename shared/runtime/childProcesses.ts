import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'

/**
 * The processes Parallax starts (stdio servers, ACP agents, the commands an agent runs) end with it, however
 * it ends. On POSIX each one leads a process group of its own, so what it starts in turn (`npx` runs the
 * real server under it) ends with it; and one watchdog per Parallax process, a shell reading a pipe from it,
 * keeps the list of those groups: when the pipe closes — Parallax exited, crashed, or was killed with
 * SIGKILL, which no handler of its own can see — the watchdog sends each group still listed SIGTERM, then
 * SIGKILL a tenth of a second later. A server that ignores both its stdin closing and SIGTERM is gone too.
 * Windows has no process groups: there a child is started and stopped as Node does it.
 */
export const OWN_PROCESS_GROUPS = process.platform !== 'win32'

/** Reads `+PGID` and `-PGID` lines; at end of input, ends every group still listed (a shell's start costs a millisecond). */
const WATCHDOG = `trap '' INT HUP
groups=' '
while IFS= read -r line; do
  g=\${line#?}
  case $line in
    +*) groups="$groups$g " ;;
    -*) case $groups in *" $g "*) groups="\${groups%% $g *} \${groups#* $g }" ;; esac ;;
  esac
done
[ "$groups" = ' ' ] && exit 0
for g in $groups; do kill -TERM -$g 2>/dev/null; done
sleep 0.1
for g in $groups; do kill -KILL -$g 2>/dev/null; done`

/** The process groups started and not yet ended, and the watchdog that holds their list. */
const groups = new Set<number>()
let watchdog: ChildProcess | undefined

/** Tells the watchdog a group started (`+PGID`) or ended (`-PGID`); a group starting starts one that is not running, with every group listed. */
function tellWatchdog(line: string): void {
  if (watchdog) watchdog.stdin?.write(`${line}\n`)
  else if (line.startsWith('+')) watchdog = startWatchdog()
}

/** Starts the watchdog with the groups already running (after one that was killed). Never keeps Parallax running. */
function startWatchdog(): ChildProcess | undefined {
  let dog: ChildProcess
  try {
    // Detached: a session of its own, so a Ctrl+C meant for Parallax does not end it first.
    dog = spawn('/bin/sh', ['-c', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'], detached: true })
  } catch {
    return undefined
  }
  const gone = () => {
    if (watchdog === dog) watchdog = undefined
  }
  dog.once('error', gone)
  dog.once('exit', gone)
  dog.stdin!.on('error', () => {}) // a watchdog gone: the next child starts another
  dog.unref()
  ;(dog.stdin as unknown as { unref?: () => void }).unref?.()
  for (const group of groups) dog.stdin!.write(`+${group}\n`)
  return dog
}

/** The children `startChild` started: each leads its own process group (on POSIX). */
const owned = new WeakSet<ChildProcess>()

/**
 * Starts a child process that ends with Parallax (see above): `spawn`'s arguments, in a process group of its
 * own on POSIX, listed with the watchdog until it exits.
 */
export function startChild(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, { ...options, ...(OWN_PROCESS_GROUPS && { detached: true }) })
  const pid = child.pid
  if (OWN_PROCESS_GROUPS && pid !== undefined) {
    owned.add(child)
    groups.add(pid)
    tellWatchdog(`+${pid}`)
    child.once('exit', () => {
      groups.delete(pid)
      tellWatchdog(`-${pid}`)
    })
  }
  return child
}

/** Sends a signal to the child and to everything in its process group (when it leads one). */
export function signalChild(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    if (owned.has(child)) process.kill(-child.pid!, name)
    else child.kill(name)
  } catch {
    // already gone
  }
}

/**
 * Ends a child as the MCP spec asks of a stdio client: its stdin closed, then SIGTERM if it has not exited
 * within `graceMs`, then SIGKILL after as long again. Resolves once it has exited; what it started in its
 * process group is killed with it.
 */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  const running = child.exitCode === null && child.signalCode === null
  const exited = running ? new Promise<void>((resolve) => child.once('exit', () => resolve())) : Promise.resolve()
  try {
    child.stdin?.end()
  } catch {
    // a pipe already broken
  }
  if (!(await within(exited, graceMs))) {
    signalChild(child, 'SIGTERM')
    if (!(await within(exited, graceMs))) {
      signalChild(child, 'SIGKILL')
      await within(exited, 1_000)
    }
  }
  // The leader is gone; whatever it left running in its group goes with it.
  if (owned.has(child)) signalChild(child, 'SIGKILL')
}

/** Whether `promise` settled within `ms` (a timer that never keeps Parallax running by itself). */
function within(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    timer.unref()
    void promise.then(() => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}
