import type { ParallaxApi } from '../../../shared/contract'
import { electronApi } from './electron'
import type { LinkState } from '../store/store'
import { webApi } from './web'

/** The one client the UI uses: Electron's preload bridge when present, else the web host's socket. */
export function createApi(onLinkState: (state: LinkState) => void): ParallaxApi {
  const electron = electronApi()
  if (electron) {
    queueMicrotask(() => onLinkState('open')) // after the caller has stored the api
    return electron
  }
  return webApi(onLinkState)
}
