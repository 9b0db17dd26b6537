import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron'
import { CommandError, forUi, IpcChannels, openableUrl, type CommandReply } from '../../shared/contract'
import { EventBatcher } from '../../shared/runtime/batcher'
import { builtInDemos } from '../../shared/demo/builtIns'
import { Engine } from '../../shared/engine/engine'
import { KeychainSecretStore } from './secretStore'
import { boundForUi, MAX_DEPTH, safeStringify } from '../../shared/runtime/safeJson'
import { ensurePrivateDir } from '../../shared/runtime/privateFiles'
import { guardProcess } from '../../shared/runtime/faultScope'
import { guardSender, isAppUrl } from './ipcGuard'
import { registerViewScheme, serveViews, viewUrl } from './appViews'

const rendererUrl =
  process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(fileURLToPath(new URL('../../renderer/index.html', import.meta.url))).href

// One data folder however Parallax was installed (a checkout, npm, an installer whose app is named
// "Parallax"), so an upgrade or a second install keeps targets, profiles and recordings.
app.setPath('userData', join(app.getPath('appData'), 'parallax'))
// An installer's app lives in an archive; the demo servers it spawns and the hooks a user picks need
// plain files, which the packaging keeps beside it (asarUnpack).
const appRoot = app.isPackaged ? app.getAppPath().replace(/\.asar$/, '.asar.unpacked') : app.getAppPath()

const engine = new Engine({
  host: 'electron',
  dataDir: app.getPath('userData'),
  builtIns: builtInDemos(appRoot),
  // Sign-ins: secrets encrypted with the OS keychain; the authorization page in the system browser.
  secrets: new KeychainSecretStore(app.getPath('userData')),
  openBrowser: openOutside,
  // MCP App views: each on its own origin of the parallax-view scheme, never the UI's file:// page.
  appViewUrl: viewUrl,
  // Hooks files: the system's file dialog, over the app's window.
  chooseFile: async ({ title, extensions }) => {
    const options = { title, properties: ['openFile' as const], filters: [{ name: 'Hooks files', extensions }] }
    const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0]
    const { canceled, filePaths } = await (window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options))
    return canceled ? undefined : filePaths[0]
  },
})
registerViewScheme()
// A fault no code handled fails the connection it came from, never the app (shared/runtime/faultScope.ts).
guardProcess((fault) => console.error(`[parallax] ${engine.reportFault(fault).line}`))

/** The system browser, for a URL the one rule allows (https, or http to this machine), and nothing else. */
function openOutside(url: string): Promise<void> {
  const checked = openableUrl(url)
  if ('refused' in checked) return Promise.reject(new Error(`not opened: ${checked.refused}`))
  return shell.openExternal(checked.href)
}
// The data folder (targets, profiles, recordings, and Chromium's own storage) is the user's alone.
void ensurePrivateDir(app.getPath('userData')).catch(() => {})

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 860,
    minWidth: 900,
    minHeight: 560,
    show: false,
    title: 'Parallax',
    backgroundColor: '#0f1115',
    webPreferences: {
      preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
      spellcheck: false,
    },
  })
  win.once('ready-to-show', () => win.show())
  // The window never navigates away from the UI and never opens another; links open in the browser.
  win.webContents.setWindowOpenHandler(({ url }) => {
    void openOutside(url).catch((error: Error) => console.error(`[parallax] ${error.message}`))
    return { action: 'deny' }
  })
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, rendererUrl)) event.preventDefault()
  })
  win.webContents.on('will-attach-webview', (event) => event.preventDefault())

  const batcher = new EventBatcher(
    (events) => {
      if (win.isDestroyed()) return
      try {
        win.webContents.send(IpcChannels.events, events)
      } catch {
        // Something Electron's serialiser cannot carry (nested past its stack): send each event as a
        // bounded copy instead, so no agent data can take the main process down.
        win.webContents.send(IpcChannels.events, events.map(ipcSafe))
      }
    },
    undefined,
    undefined,
    (error) => console.error(`[parallax] could not deliver events: ${(error as Error)?.message ?? String(error)}`),
  )
  const unsubscribe = engine.events.subscribe((event) => batcher.push(forUi(event)))
  win.on('closed', () => {
    unsubscribe()
    batcher.dispose()
  })
  void win.loadURL(rendererUrl)
  return win
}

ipcMain.handle(IpcChannels.invoke, async (event, command: unknown, input: unknown) => {
  const frame = event.senderFrame
  // Answers are bounded by the engine already; a text export is whole by design. Errors travel as a reply,
  // so their code and details (an approval to ask for) reach the renderer; a thrown error would lose them.
  try {
    guardSender({ url: frame?.url ?? '', isMainFrame: frame?.parent === null }, rendererUrl)
    return { ok: true, result: await engine.execute(command, input) } satisfies CommandReply
  } catch (error) {
    const code = error instanceof CommandError ? error.code : 'failed'
    return {
      ok: false,
      error: { message: (error as Error).message, code, details: error instanceof CommandError ? ipcSafe(error.details) : undefined },
    } satisfies CommandReply
  }
})

/** A value Electron's serialiser can always carry: cut at a sane depth, plain JSON only. */
function ipcSafe<T>(value: T): T {
  return JSON.parse(safeStringify(boundForUi(value), MAX_DEPTH + 16)) as T
}

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, rendererUrl)) event.preventDefault()
  })
})

void app.whenReady().then(() => {
  // Deny every permission request (camera, notifications, …): the UI needs none.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  serveViews(engine, rendererUrl)
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
})

app.on('window-all-closed', () => {
  void engine.dispose().finally(() => app.quit())
})
