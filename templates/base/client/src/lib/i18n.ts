import { createI18n, type Composer } from 'petite-vue-i18n'
import en from '@/locales/en.json'

/** The languages the app speaks. The first one's catalogue ships with the app; the others load when chosen. */
export const LOCALES = ['en', 'de'] as const
export type Locale = (typeof LOCALES)[number]
export type LazyLocale = Exclude<Locale, 'en'>

/** A catalogue as a layer ships it (`locales/<locale>.json`), compiled at build time by the Vite plugin. */
export type Catalogue = Record<string, unknown>

export const i18n = createI18n({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  // A key missing in one language shows the English text rather than the key.
  missingWarn: false,
  fallbackWarn: false,
})

// Typed loosely: the catalogues differ with the features an app has, so keys are plain strings.
const global = i18n.global as unknown as Composer

/** Text for code outside components (stores, guards, helpers); components use `$t`. */
export const t = global.t

/**
 * Whether a key has a text (in the current locale or English): kinds of event a newer server adds,
 * say. The catalogues' keys are flat (`vite.config.ts` flattens them), so a lookup is enough.
 */
export const te = (key: string) => key in global.getLocaleMessage(currentLocale()) || key in global.getLocaleMessage('en')

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale)

/** The current locale, for `Intl` formatters. */
export const currentLocale = (): Locale => global.locale.value as Locale

/**
 * A catalogue download that runs once per locale, for every caller that waits on it. A failed one
 * (offline) is forgotten, so the next call tries again.
 */
export function loadOnce(load: (locale: Locale) => Promise<void>, loaded: Locale[] = []): (locale: Locale) => Promise<void> {
  const loading = new Map<Locale, Promise<void>>(loaded.map((locale) => [locale, Promise.resolve()]))
  return (locale) => {
    let pending = loading.get(locale)
    if (!pending) {
      pending = load(locale)
      pending.catch(() => loading.delete(locale))
      loading.set(locale, pending)
    }
    return pending
  }
}

/** Adds a layer's or a lazily loaded catalogue to a locale. */
export const addMessages = (locale: Locale, catalogue: Catalogue) => global.mergeLocaleMessage(locale, catalogue)

addMessages('en', en)

/** Switches the pages to a locale whose catalogues are there. */
export const useMessages = (locale: Locale) => void (global.locale.value = locale)
