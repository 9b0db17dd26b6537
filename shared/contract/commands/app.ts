import { z } from 'zod'
import type { ConnectionOptions } from '../targets'

export const appInputs = {
  'app.info': z.object({}),
} as const

export interface AppInfo {
  name: 'Parallax'
  version: string
  host: 'web' | 'electron'
  defaults: ConnectionOptions
}

export interface AppOutputs {
  'app.info': AppInfo
}
