import { jsonDiff, type JsonChange } from '../runtime/jsonDiff'

export type ArgumentChange = JsonChange

/** What a hook changed: a structural diff of the raw and hooked arguments. */
export function diffArguments(raw: object, hooked: object): ArgumentChange[] {
  return jsonDiff(raw, hooked)
}
