// The pure comparison lives in the contract, where the UI's side by side uses it too.
export { VOLATILE_KEYS, compareOutcomes, type Difference } from '../contract'
