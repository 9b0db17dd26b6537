import type { DomainHandlers } from './handler'

export const appCommands: DomainHandlers<'app'> = {
  'app.info': (_, engine) => engine.info(),
}
