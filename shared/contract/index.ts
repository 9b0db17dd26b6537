export * from './api'
export * from './commands'
export * from './events'
export * from './targets'
