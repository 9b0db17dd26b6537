// The bench drives `parallax web` exactly as the tests do: one UI-less client of the engine socket,
// presenting the launch token the way the page does.
export { openUiClient as connectToHost, type UiClient as HostClient } from '../web/client'
