import i18next, { type i18n } from 'i18next'
import { de } from './messages/de.js'
import { en } from './messages/en.js'
import type { Catalogue, FeatureMessages } from './catalogue.js'
import { defaultLocale, locales, type Locale } from './locales.js'

/** Turns a message (a key, or `msg(key, values)`) into text in one locale. */
export type Translate = (message: string, values?: Record<string, unknown>) => string

const baseMessages: FeatureMessages = { en, de }
let layers: readonly { messages?: FeatureMessages }[] = []
let instance: i18n | undefined
const translators = new Map<Locale, Translate>()

/**
 * The layers' catalogues join base's (create-context.ts and the command-line entry points call
 * this with the registry); the instance is built at the first message, so a process that never
 * renders one does not build it.
 */
export function bindMessages(features: readonly { messages?: FeatureMessages }[]): void {
  layers = features
  instance = undefined
  translators.clear()
}

/** Every locale's catalogue: base's entries with the layers' merged in, in layer order. */
export const cataloguesOf = (features: readonly { messages?: FeatureMessages }[]): Record<Locale, Catalogue> =>
  Object.fromEntries(locales.map((locale) => [locale, merge({}, baseMessages[locale], ...features.map((feature) => feature.messages?.[locale] ?? {}))])) as Record<Locale, Catalogue>

function i18nInstance(): i18n {
  if (instance) return instance
  const catalogues = cataloguesOf(layers)
  const resources = Object.fromEntries(locales.map((locale) => [locale, { translation: catalogues[locale] }]))
  instance = i18next.createInstance()
  // Synchronous: every catalogue is in memory, so no message ever waits for a load.
  void instance.init({
    resources,
    lng: defaultLocale,
    fallbackLng: defaultLocale,
    supportedLngs: [...locales],
    initAsync: false,
    // Mail HTML escapes each line itself (kernel/mail/messages.ts); JSON bodies need no escaping.
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  })
  return instance
}

function merge(target: Catalogue, ...sources: Catalogue[]): Catalogue {
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      const existing = target[key]
      target[key] = typeof value === 'string' ? value : merge(typeof existing === 'object' ? existing : {}, value)
    }
  }
  return target
}

/**
 * A message to be put into words later, in the locale of whoever reads it: an error thrown deep
 * in a service, a zod rule defined at start-up, a notice queued for a job. Encoded as a string
 * so it travels wherever the text used to (an Error's message, a zod issue, a job's payload).
 */
export const msg = (key: string, values?: Record<string, unknown>): string => (values ? `${key} ${JSON.stringify(values)}` : key)

const ENCODED = /^([\w.-]+)(?: (\{.*\}))?$/s

/** The catalogues' text for `locale`. A message that is no key (text from before catalogues) comes back as it is. */
export function translator(locale: Locale): Translate {
  let translate = translators.get(locale)
  if (translate) return translate
  const i18n = i18nInstance()
  const fixed = i18n.getFixedT(locale)
  translate = (message, extra) => {
    const match = ENCODED.exec(message)
    if (!match) return message
    const values: Record<string, unknown> = { ...(match[2] ? (JSON.parse(match[2]) as object) : {}), ...extra }
    // With the values: a plural key exists only in its forms (`_one`, `_other`), which `count` picks.
    if (!i18n.exists(match[1]!, values)) return message
    // A field is named in the reader's language where the catalogue has a name for it.
    if (typeof values.field === 'string' && i18n.exists(`fields.${values.field}`)) values.field = fixed(`fields.${values.field}`)
    return fixed(match[1]!, values)
  }
  translators.set(locale, translate)
  return translate
}
