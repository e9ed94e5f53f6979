import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { features } from '../src/features/index.js'
import { defaultLocale, locales } from '../src/kernel/i18n/locales.js'
import type { Catalogue } from '../src/kernel/i18n/catalogue.js'
import { cataloguesOf } from '../src/kernel/i18n/translate.js'

// The server's catalogues, base's and this app's layers' merged as the app merges them: every key
// in every locale, with the same placeholders, and every key used by the code, which uses no key
// the catalogues lack. A test of the app, so it covers the messages its owner adds too.

const flatten = (catalogue: Catalogue, prefix = ''): [string, string][] =>
  Object.entries(catalogue).flatMap(([key, value]) => (typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : flatten(value, `${prefix}${key}.`)))

const catalogues = cataloguesOf(features)
const flat = Object.fromEntries(locales.map((locale) => [locale, new Map(flatten(catalogues[locale]))]))
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort()
/** i18next's plural forms (`errors.summary_one`) are used as their base key. */
const baseKey = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '')

const srcDir = path.resolve(import.meta.dirname, '../src')
const isCatalogue = (file: string) => /[\\/](i18n|features[\\/][^\\/]+)[\\/]messages[\\/]/.test(file)
const sources = (fs.readdirSync(srcDir, { recursive: true }) as string[])
  .filter((file) => /\.(ts|js)$/.test(file))
  .map((file) => path.join(srcDir, file))
  .filter((file) => !isCatalogue(file))
  .map((file) => fs.readFileSync(file, 'utf8'))
  .join('\n')
/** A string literal in the code (no scan for where literals start: comments hold apostrophes). */
const quoted = (text: string) => sources.includes(`'${text}'`)
/** Every literal that looks like a key. */
const keyLike = new Set([...sources.matchAll(/'([a-z][A-Za-z]*(?:\.[A-Za-z_]+)+)'/g)].map((match) => match[1]!))

describe('server message catalogues', () => {
  it('has every key in every locale, with the same placeholders', () => {
    const english = flat[defaultLocale]!
    for (const locale of locales) {
      const own = flat[locale]!
      expect([...own.keys()].sort(), `keys of ${locale}`).toEqual([...english.keys()].sort())
      for (const [key, text] of own) {
        expect(text.trim(), `${locale} ${key}`).not.toBe('')
        // A plural form may leave out the count its sibling names.
        expect(placeholders(text), `placeholders of ${locale} ${key}`).toEqual(placeholders(english.get(key) ?? ''))
      }
    }
  })

  it('uses every key, and only keys the catalogues have', () => {
    const keys = new Set([...flat[defaultLocale]!.keys()].map(baseKey))
    // A field's name is looked up by the name a rule or an issue's path gives it.
    const unused = [...keys].filter((key) => !quoted(key.startsWith('fields.') ? key.slice('fields.'.length) : key))
    expect(unused).toEqual([])
    const namespaces = new Set([...keys].map((key) => key.split('.')[0]))
    const missing = [...keyLike].filter((literal) => namespaces.has(literal.split('.')[0]!) && !keys.has(literal))
    expect(missing).toEqual([])
  })
})
