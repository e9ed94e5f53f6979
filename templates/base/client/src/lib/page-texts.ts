import { addMessages, currentLocale, type Catalogue, type Locale } from './i18n'

// Base's catalogues come in two parts: `locales/<locale>.json`, what the first page needs (the
// frame and the login page), and `locales/pages/<locale>.json`, the other pages' texts. These load
// with the first page that needs them, so a visitor who only signs in never downloads them.
const PAGES: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  en: () => import('@/locales/pages/en.json'),
  de: () => import('@/locales/pages/de.json'),
}

const loading = new Map<Locale, Promise<void>>()

/** Whether a page has needed the pages' texts yet: then every language switched to brings them too. */
export const pageTextsNeeded = () => loading.size > 0

/** The pages' texts of a locale. */
export function pageTexts(locale: Locale): Promise<void> {
  let pending = loading.get(locale)
  if (!pending) {
    pending = PAGES[locale]().then((catalogue) => addMessages(locale, catalogue.default))
    // A failed download (offline) may be tried again by the next page.
    pending.catch(() => loading.delete(locale))
    loading.set(locale, pending)
  }
  return pending
}

/**
 * A page (or dialog) loaded when first opened, together with the pages' texts in the language
 * shown: `component: withPageTexts(() => import('@/pages/SomePage.vue'))`.
 */
export function withPageTexts<T>(page: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([page(), pageTexts(currentLocale())]))[0]
}
