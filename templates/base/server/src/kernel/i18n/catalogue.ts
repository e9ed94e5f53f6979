// The shapes of the message catalogues, apart from translate.ts so a catalogue can name them
// without importing the module that imports it.
import type { Locale } from './locales.js'

/** A locale's messages: nested keys (`errors.unauthenticated`), i18next's `{{placeholders}}` and `_one`/`_other` plurals. */
export interface Catalogue {
  [key: string]: string | Catalogue
}

/** The same keys as `T`, each with its own text: a locale's catalogue has every key of the English one. */
export type Translation<T> = { [K in keyof T]: T[K] extends string ? string : Translation<T[K]> }

/** What a layer brings: its entries for every locale, under a namespace of its own. */
export type FeatureMessages = Record<Locale, Catalogue>
