/** What the visitor chose; `system` follows prefers-color-scheme and is stored as nothing. */
export type Theme = 'light' | 'dark' | 'system'

/**
 * The localStorage key. client/index.html's inline script reads the same key to set the theme
 * before first paint; client/tests/theme-toggle.test.ts runs that script to keep the two in step.
 */
export const THEME_KEY = 'theme'

// localStorage throws where storage is blocked (some private modes): the theme then lasts a page.
export function storedTheme(): Theme {
  try {
    const value = localStorage.getItem(THEME_KEY)
    return value === 'light' || value === 'dark' ? value : 'system'
  } catch {
    return 'system'
  }
}

/** Applies the choice to <html> (tokens.css reads data-theme) and remembers it. */
export function chooseTheme(theme: Theme): void {
  const root = document.documentElement
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
  try {
    if (theme === 'system') localStorage.removeItem(THEME_KEY)
    else localStorage.setItem(THEME_KEY, theme)
  } catch {
    // Not remembered; applied all the same.
  }
}
