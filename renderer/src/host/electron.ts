import type { ParallaxApi } from '../../../shared/contract'

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in the web host. */
    parallax?: ParallaxApi
  }
}

export function electronApi(): ParallaxApi | undefined {
  return window.parallax
}
