/** One line for any thrown value: its message, else its name, else its text. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  return String(error)
}
