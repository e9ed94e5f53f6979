import { currentLocale } from './i18n'

/** A count as the reader's language writes it (1,234 / 1.234). */
export const formatNumber = (value: number) => new Intl.NumberFormat(currentLocale()).format(value)
