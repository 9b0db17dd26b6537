/** Saves text (or an image) as a file the user downloads (a recording, a report, a picture of the Timeline): the browser's download, or Electron's save. */
export function download(fileName: string, text: string | Blob, type: string): void {
  const link = document.createElement('a')
  link.href = URL.createObjectURL(new Blob([text], { type }))
  link.download = fileName
  link.click()
  // Released once the download has had time to read it (revoked at once, a browser may find it gone).
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
}

/** A name made safe as a file name: anything but letters, digits, `.`, `_` and `-` becomes `-`. */
export function fileNamePart(name: string): string {
  return name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'report'
}
