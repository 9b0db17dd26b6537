// The line readers serve every stdio protocol (MCP servers, ACP agents): they live in the runtime.
export { JsonLineReader, pipeLines, wireText } from '../runtime/lines'
