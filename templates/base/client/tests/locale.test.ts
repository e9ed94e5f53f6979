import { afterEach, describe, expect, it, vi } from 'vitest'
import { currentLocale, t } from '@/lib/i18n'
import { browserLocale, setLocale } from '@/lib/locale'
import { formatNumber } from '@/lib/numbers'
import { withPageTexts } from '@/lib/page-texts'
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
    expect(t('nav.settings')).toBe('Einstellungen')
    expect(formatNumber(1234567)).toBe('1.234.567')
    expect(relativeTime(new Date(Date.now() - 5 * 60_000))).toBe('vor 5 Minuten')
    expect(relativeTime(new Date())).toBe('gerade eben')
    expect(localTime('2024-03-01T12:00:00Z')).toBe(new Date('2024-03-01T12:00:00Z').toLocaleString('de'))

    await setLocale('en')
    expect(document.documentElement.lang).toBe('en')
    expect(formatNumber(1234567)).toBe('1,234,567')
    expect(relativeTime(new Date(Date.now() - 5 * 60_000))).toBe('5 minutes ago')
  })

  it('loads the pages’ texts with the first page that needs them, and with each switch after', async () => {
    // The test set-up gave English its pages' texts; German has none until a page asks.
    await setLocale('de')
    expect(t('dashboard.welcome', { name: 'Anna' })).toBe('Welcome, Anna')
    const page = { default: 'the page' }
    await expect(withPageTexts(async () => page)()).resolves.toBe(page)
    expect(t('dashboard.welcome', { name: 'Anna' })).toBe('Willkommen, Anna')
    await setLocale('en')
    expect(t('dashboard.welcome', { name: 'Anna' })).toBe('Welcome, Anna')
  })

  it('keeps the later of two quick switches', async () => {
    const german = setLocale('de')
    const english = setLocale('en')
    await Promise.all([german, english])
    expect(currentLocale()).toBe('en')
    expect(t('login.title')).toBe('Log in')
  })
})
