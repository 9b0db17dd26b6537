// The global sheet (tokens, layout, shared components) first: each view's sheet, imported by its component, comes after it.
import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { rememberView, restoreTheme } from './store/actions'

restoreTheme()
rememberView()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
