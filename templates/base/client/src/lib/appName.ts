// index.html's <title> holds the generated app's name; read it before any route title replaces it.
export const appName = (typeof document !== 'undefined' && document.title) || 'App'
