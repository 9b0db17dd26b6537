import { contextBridge, ipcRenderer } from 'electron'
import { IpcChannels, type EngineEvent, type ParallaxApi } from '../../shared/contract'

/**
 * The whole bridge: the contract's two methods and nothing else. The renderer never sees
 * `ipcRenderer`, and listeners never receive the IPC event (it carries `sender`).
 */
const api: ParallaxApi = {
  invoke: (command, input) => ipcRenderer.invoke(IpcChannels.invoke, command, input),
  onEvents: (listener) => {
    const forward = (_event: unknown, events: EngineEvent[]) => listener(events)
    ipcRenderer.on(IpcChannels.events, forward)
    return () => ipcRenderer.removeListener(IpcChannels.events, forward)
  },
}

contextBridge.exposeInMainWorld('parallax', api)
