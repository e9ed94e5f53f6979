import { currentLocale, t } from './i18n'

// Largest first: the first unit that fits names the distance.
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 24 * 60 * 60],
  ['hour', 60 * 60],
  ['minute', 60],
]
const WEEK = 7 * 24 * 60 * 60

/**
 * "just now", "5 minutes ago", "3 days ago" within the last week; the date after that, when a
 * relative phrase stops being easier to read than the date itself. In the reader's language.
 */
export function relativeTime(value: string | Date, now = Date.now()): string {
  const then = new Date(value).getTime()
  if (Number.isNaN(then)) return '—'
  // A server clock a little ahead of this one reads as "just now", not "in 3 seconds".
  const seconds = Math.round((now - then) / 1000)
  if (seconds < 60) return t('time.justNow')
  if (seconds >= WEEK) return new Date(then).toLocaleDateString(currentLocale())
  const [unit, size] = UNITS.find(([, size]) => seconds >= size)!
  return new Intl.RelativeTimeFormat(currentLocale(), { numeric: 'auto' }).format(-Math.floor(seconds / size), unit)
}

export const localTime = (value: string | Date) => new Date(value).toLocaleString(currentLocale())
