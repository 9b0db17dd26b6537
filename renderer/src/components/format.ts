/** Small formatting helpers shared by the panels. */

export function clock(ts: number): string {
  const d = new Date(ts)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

export function ms(value: number | undefined): string {
  if (value === undefined) return ''
  if (value < 1) return `${value.toFixed(2)} ms`
  if (value < 100) return `${value.toFixed(1)} ms`
  if (value < 10_000) return `${Math.round(value)} ms`
  return `${(value / 1000).toFixed(1)} s`
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

/**
 * A setting's duration as a person writes it (an interval, a timeout): "300 ms", "2 s", "1.5 s",
 * "1 min 30 s", never "2000 ms" for what the user set as 2 seconds.
 */
export function duration(value: number): string {
  if (value < 1000) return `${Math.round(value)} ms`
  const seconds = Math.round(value) / 1000
  if (seconds < 60) return `${Number(seconds.toFixed(3))} s`
  const minutes = Math.floor(seconds / 60)
  const rest = Number((seconds - minutes * 60).toFixed(3))
  return rest ? `${minutes} min ${rest} s` : `${minutes} min`
}

/** A time of day to the second: when a connection opened, when a server restarted. */
export function timeOfDay(ts: number): string {
  return clock(ts).slice(0, 8)
}

/** A duration as m:ss (h:mm:ss past an hour): how long a recording has run. */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const pad = (n: number) => String(n).padStart(2, '0')
  return s >= 3600 ? `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`
}
