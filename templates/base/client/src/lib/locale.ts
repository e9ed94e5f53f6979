import { features } from '@/features'
import { addMessages, isLocale, loadOnce, LOCALES, useMessages, type Catalogue, type LazyLocale, type Locale } from './i18n'
import { pageTexts, pageTextsNeeded } from './page-texts'

type Load = () => Promise<{ default: Catalogue }>

// Base's first-page texts of the languages that load when chosen (`en` is in the first load; the
// other pages' texts are `page-texts.ts`'s).
const BASE: Record<LazyLocale, Load> = { de: () => import('@/locales/de.json') }

// Each layer brings its own entries (`ClientFeature.messages`); English joins at once.
for (const feature of features) if (feature.messages) addMessages('en', feature.messages.en)

const load = loadOnce(async (locale) => {
  const lazy = locale as LazyLocale
  const parts = [BASE[lazy], ...features.flatMap((feature) => (feature.messages ? [feature.messages[lazy]] : []))]
  for (const catalogue of await Promise.all(parts.map((part) => part()))) addMessages(locale, catalogue.default)
}, ['en'])

/** The first of the browser's languages the app speaks, else English. */
export function browserLocale(): Locale {
  const tags = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language]
  for (const tag of tags) {
    const language = tag?.toLowerCase().split('-')[0]
    if (isLocale(language)) return language
  }
  return LOCALES[0]
}

let wanted: Locale = 'en'

/**
 * Switches the pages (and `<html lang>`) to a locale once its catalogues are there. A catalogue
 * that cannot be had (offline) leaves the pages as they are.
 */
export async function setLocale(locale: Locale): Promise<void> {
  wanted = locale
  try {
    await load(locale)
    // Checked right before the switch, with no wait in between: a page opened meanwhile is covered.
    if (pageTextsNeeded()) await pageTexts(locale)
  } catch {
    return
  }
  // A later switch that finished first wins.
  if (wanted !== locale) return
  useMessages(locale)
  document.documentElement.lang = locale
}
