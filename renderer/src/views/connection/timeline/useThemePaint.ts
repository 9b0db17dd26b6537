import { useEffect, useState } from 'react'
import { useStore } from '../../../store/store'

/**
 * The theme, for a canvas to draw again when it changes: the new theme a frame after it changed, once the
 * page's tokens are the new theme's (the page sets them after its children have drawn).
 */
export function useThemePaint(): string {
  const theme = useStore((s) => s.theme)
  const [painted, setPainted] = useState(theme)
  useEffect(() => {
    const frame = requestAnimationFrame(() => setPainted(theme))
    return () => cancelAnimationFrame(frame)
  }, [theme])
  return painted
}
