import { afterEach, describe, expect, it, vi } from 'vitest'
import { currentLocale, t } from '@/lib/i18n'
import { browserLocale, setLocale } from '@/lib/locale'
import { formatNumber } from '@/lib/numbers'
import { localTime, relativeTime } from '@/lib/time'

const languages = (list: string[]) => vi.spyOn(navigator, 'languages', 'get').mockReturnValue(list)

afterEach(async () => {
  vi.restoreAllMocks()
  await setLocale('en')
})

describe('the language', () => {
  it('is the first of the browser’s languages the app speaks, else English', () => {
    languages(['fr-FR', 'de-AT', 'en'])
    expect(browserLocale()).toBe('de')
    languages(['en-GB', 'de'])
    expect(browserLocale()).toBe('en')
    languages(['fr', 'it'])
    expect(browserLocale()).toBe('en')
  })

  it('switches the texts, <html lang>, dates and numbers once German has loaded', async () => {
    expect(t('login.title')).toBe('Log in')
    await setLocale('de')
    expect(currentLocale()).toBe('de')
    expect(document.documentElement.lang).toBe('de')
    expect(t('login.title')).toBe('Anmelden')
    expect(t('dashboard.welcome', { name: 'Anna' })).toBe('Willkommen, Anna')
    expect(formatNumber(1234567)).toBe('1.234.567')
    expect(relativeTime(new Date(Date.now() - 5 * 60_000))).toBe('vor 5 Minuten')
    expect(relativeTime(new Date())).toBe('gerade eben')
    expect(localTime('2024-03-01T12:00:00Z')).toBe(new Date('2024-03-01T12:00:00Z').toLocaleString('de'))

    await setLocale('en')
    expect(document.documentElement.lang).toBe('en')
    expect(formatNumber(1234567)).toBe('1,234,567')
    expect(relativeTime(new Date(Date.now() - 5 * 60_000))).toBe('5 minutes ago')
  })

  it('keeps the later of two quick switches', async () => {
    const german = setLocale('de')
    const english = setLocale('en')
    await Promise.all([german, english])
    expect(currentLocale()).toBe('en')
    expect(t('login.title')).toBe('Log in')
  })
})
