import { download } from '../../../components/download'
import { showToast } from '../../../store/store'

/**
 * The Timeline's range shown as a PNG, lane labels and all (every session on a shared axis, one under the
 * other): to the clipboard, or downloaded where the clipboard takes no images.
 */
export async function copyAxisImage(name: string): Promise<void> {
  const axes = [...document.querySelectorAll<HTMLElement>('[data-testid="time-axis"]')]
  if (axes.length === 0) return
  const dpr = globalThis.devicePixelRatio || 1
  const parts = axes.map((axis) => ({
    labels: [...axis.querySelectorAll<HTMLElement>('.axis-title, .lane-label')],
    canvas: axis.querySelector('canvas')!,
    labelWidth: axis.querySelector<HTMLElement>('.lane-labels')!.offsetWidth,
  }))
  const labelWidth = Math.max(...parts.map((p) => p.labelWidth))
  const width = labelWidth + Math.max(...parts.map((p) => p.canvas.clientWidth))
  const height = parts.reduce((sum, p) => sum + p.canvas.clientHeight, 0)
  const out = document.createElement('canvas')
  out.width = width * dpr
  out.height = height * dpr
  const ctx = out.getContext('2d')!
  ctx.scale(dpr, dpr)
  const css = getComputedStyle(axes[0])
  ctx.fillStyle = css.getPropertyValue('--panel').trim() || '#fff'
  ctx.fillRect(0, 0, width, height)
  ctx.font = '12px system-ui, sans-serif'
  ctx.textBaseline = 'middle'
  let top = 0
  for (const part of parts) {
    for (const label of part.labels) {
      ctx.fillStyle = css.getPropertyValue(label.classList.contains('axis-title') ? '--text' : '--muted').trim()
      const y = top + label.offsetTop + label.offsetHeight / 2
      ctx.fillText(label.textContent?.replace(/^[▸▾]/, '').trim() ?? '', 8, y)
    }
    ctx.drawImage(part.canvas, labelWidth, top, part.canvas.clientWidth, part.canvas.clientHeight)
    top += part.canvas.clientHeight
  }
  const blob = await new Promise<Blob | null>((resolve) => out.toBlob(resolve, 'image/png'))
  if (!blob) return showToast('The timeline could not be drawn as an image.', 'error')
  try {
    await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })])
    showToast('Copied the timeline as an image.')
  } catch {
    download(`parallax-timeline-${name.replace(/[^\w.-]+/g, '-')}.png`, blob, 'image/png')
    showToast('The clipboard takes no images here: the timeline was saved as a PNG instead.')
  }
}
