import { addMessages, currentLocale, loadOnce, type Catalogue, type Locale } from './i18n'

type Load = () => Promise<{ default: Catalogue }>

// Base's catalogues come in two parts: `locales/<locale>.json`, what the first page needs (the
// frame and the login page), and `locales/pages/<locale>.json`, the other pages' texts. These load
// with the first page that needs them, so a visitor who only signs in never downloads them. A
// layer may split its own catalogue the same way (`features/<layer>/locales/pages/<locale>.json`,
// for the texts only its lazily loaded pages show): those load beside base's.
const PAGES: Record<Locale, Load[]> = {
  en: [() => import('@/locales/pages/en.json'), ...Object.values(import.meta.glob<{ default: Catalogue }>('@/features/*/locales/pages/en.json'))],
  de: [() => import('@/locales/pages/de.json'), ...Object.values(import.meta.glob<{ default: Catalogue }>('@/features/*/locales/pages/de.json'))],
}

let needed = false

/** Whether a page has asked for the pages' texts yet: then every language switched to brings them too. */
export const pageTextsNeeded = () => needed

const load = loadOnce(async (locale) => {
  for (const catalogue of await Promise.all(PAGES[locale].map((part) => part()))) addMessages(locale, catalogue.default)
})

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
