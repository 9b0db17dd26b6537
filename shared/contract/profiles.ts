import { z } from 'zod'
import { MCP_APPS_CAPABILITY, MCP_APPS_EXTENSION } from './apps'
import { ACP_HINT_FIELD } from './acp'
import { DEFAULT_PROFILE } from './clientRole'
import { MCP_2026_VERSION } from './mcpEra'
import { SKILLS_EXTENSION } from './skills'

/**
 * A client profile: what Parallax says about itself when it connects. For MCP, the capabilities it
 * offers (including `experimental` hints such as requested tool categories), its client info, and the
 * protocol version it asks for; for A2A, the extensions it activates (`A2A-Extensions`), extra headers
 * and message metadata; for ACP, `fs` and `terminal` and the requested tool categories hint (sent as the
 * proposal's field, in `_meta`, or both). Connecting one target under two profiles answers "did it honour the hint?".
 */
export const ClientProfile = z
  .object({
    name: z.string().min(1, 'a profile needs a name').max(100),
    description: z.string().max(500).optional(),
    mcp: z
      .object({
        /** None: negotiate the era; a 2026 version: that era only; a 2025 version: the 2025 handshake only (./mcpEra.ts). */
        protocolVersion: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'an MCP protocol version looks like 2025-06-18')
          .optional(),
        clientInfo: z
          .object({ name: z.string().min(1), version: z.string().min(1) })
          .strict()
          .optional(),
        capabilities: z
          .object({
            roots: z.object({ listChanged: z.boolean().optional() }).strict().optional(),
            sampling: z.record(z.string(), z.unknown()).optional(),
            elicitation: z.record(z.string(), z.unknown()).optional(),
            /**
             * MCP tasks on the client's side (2025-11-25): which of the server's requests it may send as tasks
             * (offered only with sampling or elicitation themselves, and only in the 2025 era), and tasks/list and tasks/cancel.
             */
            tasks: z
              .object({
                list: z.record(z.string(), z.unknown()).optional(),
                cancel: z.record(z.string(), z.unknown()).optional(),
                requests: z
                  .object({
                    sampling: z
                      .object({ createMessage: z.record(z.string(), z.unknown()).optional() })
                      .strict()
                      .optional(),
                    elicitation: z
                      .object({ create: z.record(z.string(), z.unknown()).optional() })
                      .strict()
                      .optional(),
                  })
                  .strict()
                  .optional(),
              })
              .strict()
              .optional(),
            experimental: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
            /** Extensions the client supports, by identifier (e.g. MCP Apps, `io.modelcontextprotocol/ui`). */
            extensions: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
          })
          .strict()
          .default({}),
      })
      .strict()
      .default({ capabilities: {} }),
    a2a: z
      .object({
        extensions: z.array(z.url({ error: 'an extension is named by its URI' })).default([]),
        headers: z.record(z.string(), z.string()).default({}),
        metadata: z.record(z.string(), z.unknown()).default({}),
      })
      .strict()
      .default({ extensions: [], headers: {}, metadata: {} }),
    acp: z
      .object({
        protocolVersion: z.number().int().min(0).max(65_535).optional(),
        clientInfo: z
          .object({ name: z.string().min(1), version: z.string().min(1) })
          .strict()
          .optional(),
        /** `fs` is offered only where the target has a workspace folder: its requests are confined to it. */
        fs: z
          .object({ readTextFile: z.boolean().default(false), writeTextFile: z.boolean().default(false) })
          .strict()
          .default({ readTextFile: false, writeTextFile: false }),
        /** Every command the agent asks to run is shown and waits for approval before it runs. */
        terminal: z.boolean().default(false),
        requestedToolCategories: z.array(z.string().min(1).max(100)).max(50).optional(),
        /** How the hint travels: the proposal's field, `_meta`, or both (an agent may read only one). */
        hintVia: z
          .array(z.enum(['field', 'meta']))
          .min(1)
          .default(['field', 'meta']),
      })
      .strict()
      .optional(),
  })
  .strict()
export type ClientProfile = z.infer<typeof ClientProfile>

/** The experimental capability through which a client asks for categories of tools. */
export const TOOL_CATEGORIES_HINT = 'io.parallax/tool-categories'

/** Sampling and elicitation as tasks too, with tasks/list and tasks/cancel (2025-11-25; the 2026 era has no client tasks). */
const CLIENT_TASKS = { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } }

export const PRESET_PROFILES: ClientProfile[] = [
  ClientProfile.parse({
    name: DEFAULT_PROFILE,
    description:
      "What a normal connection offers: sampling, elicitation (form and URL) — each also as a task (2025 era) —, roots with list_changed, MCP Apps (views the UI renders) and skills (SEP-2640) — Parallax answers all of them; to an ACP agent, reading and writing files in the target's workspace.",
    acp: { fs: { readTextFile: true, writeTextFile: true } },
    mcp: {
      capabilities: {
        roots: { listChanged: true },
        sampling: {},
        elicitation: { form: {}, url: {} },
        tasks: CLIENT_TASKS,
        extensions: { [MCP_APPS_EXTENSION]: MCP_APPS_CAPABILITY, [SKILLS_EXTENSION]: {} },
      },
    },
  }),
  ClientProfile.parse({ name: 'minimal', description: 'Offers no client capabilities.' }),
  ClientProfile.parse({
    name: 'full',
    description:
      'Offers roots, sampling, elicitation (each also as a task, 2025 era) and MCP Apps; to an ACP agent, files in the workspace and a terminal.',
    acp: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    mcp: {
      capabilities: {
        roots: { listChanged: true },
        sampling: {},
        elicitation: {},
        tasks: CLIENT_TASKS,
        extensions: { [MCP_APPS_EXTENSION]: MCP_APPS_CAPABILITY, [SKILLS_EXTENSION]: {} },
      },
    },
  }),
  ClientProfile.parse({
    name: 'hinted',
    description: `Asks for the "forecasting" and "creative" tool categories through experimental["${TOOL_CATEGORIES_HINT}"] (MCP), and through ${ACP_HINT_FIELD} and _meta (ACP).`,
    mcp: { capabilities: { experimental: { [TOOL_CATEGORIES_HINT]: { categories: ['forecasting', 'creative'] } } } },
    acp: { fs: { readTextFile: true, writeTextFile: true }, requestedToolCategories: ['forecasting', 'creative'] },
  }),
  // The MCP eras side by side (Compare): the default profile's capabilities, one era each.
  ClientProfile.parse({
    name: 'mcp-2025',
    description:
      'MCP 2025 era only: initialize asking for 2025-11-25, no server/discover first (a server that speaks only 2026-07-28 refuses it). Offers what the default profile offers.',
    mcp: { protocolVersion: '2025-11-25', capabilities: eraPresetCapabilities() },
  }),
  ClientProfile.parse({
    name: 'mcp-2026',
    description: `MCP 2026 era only: server/discover offering ${MCP_2026_VERSION}, no fallback to initialize. Offers what the default profile offers.`,
    mcp: { protocolVersion: MCP_2026_VERSION, capabilities: eraPresetCapabilities() },
  }),
]

/** The default profile's MCP capabilities (the era presets differ from it in the version alone). */
function eraPresetCapabilities() {
  return {
    roots: { listChanged: true },
    sampling: {},
    elicitation: { form: {}, url: {} },
    tasks: CLIENT_TASKS,
    extensions: { [MCP_APPS_EXTENSION]: MCP_APPS_CAPABILITY, [SKILLS_EXTENSION]: {} },
  }
}

/** Validates a profile with a message that names each problem; nothing is sent under an invalid one. */
export function parseProfile(input: unknown, source = 'profile'): ClientProfile {
  const result = ClientProfile.safeParse(input)
  if (!result.success)
    throw new Error(
      `${source} is not a valid client profile: ${result.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}`,
    )
  return result.data
}
