import { contextBridge, ipcRenderer } from 'electron'
import { IpcChannels, unwrapReply, type EngineEvent, type ParallaxApi } from '../../shared/contract'

/**
 * The whole bridge: the contract's two methods and nothing else. The renderer never sees
 * `ipcRenderer`, and listeners never receive the IPC event (it carries `sender`).
 */
const api: ParallaxApi = {
  invoke: async (command, input) => unwrapReply(await ipcRenderer.invoke(IpcChannels.invoke, command, input)) as never,
  onEvents: (listener) => {
    const forward = (_event: unknown, events: EngineEvent[]) => listener(events)
    ipcRenderer.on(IpcChannels.events, forward)
    return () => ipcRenderer.removeListener(IpcChannels.events, forward)
  },
}

contextBridge.exposeInMainWorld('parallax', api)
