import { addMessages, currentLocale, loadOnce, type Catalogue, type Locale } from './i18n'

// Base's catalogues come in two parts: `locales/<locale>.json`, what the first page needs (the
// frame and the login page), and `locales/pages/<locale>.json`, the other pages' texts. These load
// with the first page that needs them, so a visitor who only signs in never downloads them.
const PAGES: Record<Locale, () => Promise<{ default: Catalogue }>> = {
  en: () => import('@/locales/pages/en.json'),
  de: () => import('@/locales/pages/de.json'),
}

let needed = false

/** Whether a page has asked for the pages' texts yet: then every language switched to brings them too. */
export const pageTextsNeeded = () => needed

const load = loadOnce(async (locale) => addMessages(locale, (await PAGES[locale]()).default))

/** The pages' texts of a locale. */
export function pageTexts(locale: Locale): Promise<void> {
  needed = true
  return load(locale)
}

/**
 * A page (or dialog) loaded when first opened, together with the pages' texts in the language
 * shown: `component: withPageTexts(() => import('@/pages/SomePage.vue'))`.
 */
export function withPageTexts<T>(page: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([page(), pageTexts(currentLocale())]))[0]
}
