/** The languages the app speaks; the first is the one everything falls back to. */
export const locales = ['en', 'de'] as const

export type Locale = (typeof locales)[number]

export const defaultLocale: Locale = 'en'

export const isLocale = (value: unknown): value is Locale => (locales as readonly unknown[]).includes(value)

/**
 * The best supported language of an `Accept-Language` header (RFC 9110 §12.5.4): ranges by
 * q-value, highest first (ties keep their order), each matched as RFC 4647 lookup does (`de-AT`
 * falls back to `de`); `*` takes the default; q=0 refuses a language, even under `*`.
 */
export function negotiateLocale(header: string | undefined): Locale {
  if (!header) return defaultLocale
  const ranges: { tag: string; q: number; order: number }[] = []
  const refused = new Set<string>()
  const parts = header.split(',')
  // A header of thousands of ranges is not a browser's; only the first few count.
  for (let order = 0; order < parts.length && order < 32; order++) {
    const [rawTag = '', ...params] = parts[order]!.split(';')
    const tag = rawTag.trim().toLowerCase()
    if (!/^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/.test(tag)) continue
    const qParam = params.map((param) => param.trim().toLowerCase()).find((param) => param.startsWith('q='))
    const q = qParam === undefined ? 1 : Number(qParam.slice(2))
    if (!Number.isFinite(q) || q < 0 || q > 1) continue
    if (q === 0) refused.add(tag)
    else ranges.push({ tag, q, order })
  }
  ranges.sort((a, b) => b.q - a.q || a.order - b.order)
  for (const { tag } of ranges) {
    if (tag === '*') return locales.find((locale) => !refused.has(locale)) ?? defaultLocale
    for (let prefix = tag; prefix; prefix = prefix.slice(0, Math.max(0, prefix.lastIndexOf('-')))) {
      if (isLocale(prefix) && !refused.has(prefix)) return prefix
    }
  }
  return defaultLocale
}

/**
 * The language of a mail: the recipient's own, else the one of the request that caused it (a
 * job carries it), else the default. A stored locale the app no longer ships counts as none.
 */
export const mailLocale = (recipient: string | null | undefined, requested: string | null | undefined): Locale =>
  isLocale(recipient) ? recipient : isLocale(requested) ? requested : defaultLocale
