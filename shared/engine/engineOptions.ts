import type { AppInfo, ConnectionOptions } from '../contract'
import type { SecretStore } from '../auth/secretStore'
import type { BuiltIns } from '../runtime/builtIns'
import type { Approver } from './approvals'
import type { ChooseFile } from './hooksFiles'

/** How a host makes its engine: where its data lives, what the host can do for it (ask, open, choose), its defaults. */
export interface EngineOptions {
  host: AppInfo['host'] | 'cli'
  /** Where saved targets persist; omit for an in-memory engine. */
  dataDir?: string
  /** The demos and examples that ship with Parallax, provided by the host (shared/demo's `builtInDemos`). */
  builtIns?: BuiltIns
  /** Connection defaults for every target (a target's own options override them). */
  defaults?: Partial<ConnectionOptions>
  /** Envelope fields flagged when found in domain arguments or input schemas. */
  protocolFields?: string[]
  /**
   * Where every connection's session is kept (runtime/store); defaults to `<dataDir>/sessions`, else a
   * temporary folder removed with the engine.
   */
  sessionsDir?: string
  /**
   * Whether sessions `parallax tap` writes into the sessions folder show live as observed connections: by
   * default, a UI host's engine with a data folder (never the CLI's).
   */
  followTaps?: boolean
  /** Where recordings live; defaults to `<dataDir>/recordings`. */
  recordingsDir?: string
  /** Extra key names redacted from recordings, besides authorization, cookies, tokens and keys. */
  secretKeys?: string[]
  /** Where approvals persist; defaults to `<dataDir>/approvals.json` (in memory without either). */
  approvalsFile?: string
  /** Answers approval requests on the spot (the CLI asks on its terminal); without it they are refused for the host to confirm. */
  approver?: Approver
  /** Lets `recordings.start` record into a file the caller names: for hosts whose user names it (the CLI's --out), never a UI. */
  recordToFiles?: boolean
  /**
   * Whether a person can answer what a server asks (sampling, elicitation): UI hosts, by default. Without
   * one (the CLI), what the target's scripted responder does not answer is answered by Parallax.
   */
  askUser?: boolean
  /**
   * Where tokens and client secrets live: the desktop app's keychain-encrypted store; by default a 0600
   * file in the data folder (`secrets.json`), or memory without one.
   */
  secrets?: SecretStore
  /** Opens a URL in the system browser, for `auth.signIn` (the desktop app's shell, the CLI's opener); UI hosts may open it themselves. */
  openBrowser?: (url: string) => Promise<void>
  /**
   * Whether a person can sign in again when a server asks for more scopes mid-session (a 403
   * insufficient_scope): UI hosts, by default, whose UI prompts; a CLI where a browser can open. The
   * request waits for them and goes again once they have; without one it fails saying what was asked for.
   */
  stepUpByPerson?: boolean
  /**
   * Where the host serves an MCP App view's document (`apps.document`), on an origin that is not the UI's:
   * the web host's second port, the desktop app's own scheme. Hosts that render no views leave it out.
   */
  appViewUrl?: (viewId: string) => string | undefined
  /** The host's own file dialog, for `hooks.browse` (the desktop app's); hosts without one leave it out. */
  chooseFile?: ChooseFile
}
