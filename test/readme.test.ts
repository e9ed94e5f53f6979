import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../src/cli/program.js'
import { formatDuration } from '../src/duration.js'
import { OPTIONS, type OptionRow } from '../src/options.js'
import { VARIANT_IDS } from '../src/variants.js'
import { REGIONS, renderRegions } from '../scripts/lib/readme-options.js'
import { CI_ROWS, rowName } from '../scripts/lib/toolchains.js'

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')
const readme = read('README.md')
/** The page of the generator's tests: a section per command, the variant list under test:variants. */
const tests = read('docs/tests.md')

/** A page's section under the heading that names `command` in backticks, up to the next heading of any level. */
function sectionOf(page: string, command: string): string | undefined {
  return page.split(/^#+ /m).find((part) => part.startsWith(`\`${command}`))
}

/** The environment `--help` states its defaults for. */
const HELP_ENV = { userAgent: undefined, gitAvailable: true }

/** A row's default as the CLI states it: `defaultHelp`, else durations as `15m`, booleans as yes/no, lists comma-separated or none. */
function statedDefault(option: OptionRow): string {
  if (option.defaultHelp !== undefined) return option.defaultHelp
  const value = option.default(HELP_ENV)
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value)) return value.length ? value.join(',') : 'none'
  return typeof value === 'number' ? formatDuration(value) : value
}

/** The cells of a Markdown table row; `\|` inside a cell is a literal bar. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'))
}

/** README.md's options table: every row under `## Options`, as its cells. */
function optionsTable(): { header: string[]; rows: string[][] } {
  const section = readme.split(/^## /m).find((part) => part.startsWith('Options\n'))
  if (!section) throw new Error('README.md has no "## Options" section')
  const lines = section.split('\n').filter((line) => line.startsWith('|'))
  const [header, separator, ...rows] = lines
  if (!header || !separator || !/^\|[-|\s:]+\|$/.test(separator)) throw new Error('no table in "## Options"')
  return { header: cells(header), rows: rows.map(cells) }
}

/** The table row of a flag: its first cell names it in backticks (`--db <…>`, `--git` / `--no-git`). */
function rowOf(flag: string, rows: string[][]): string[] | undefined {
  const names = new RegExp(`\`${flag}[\` ]`)
  return rows.find((row) => names.test(row[0] ?? ''))
}

it('documents every option of the table, with its prompt', () => {
  for (const option of OPTIONS) {
    expect(readme).toContain(`\`${option.flag}`)
    if (option.prompt) expect(readme).toContain(option.prompt)
  }
})

it.each(REGIONS.map((region) => [region.name, region] as const))('holds %s as npm run readme:options renders it from the options rows', (_, region) => {
  const text = read(region.file)
  const between = (contents: string) => contents.slice(contents.indexOf(region.begin) + region.begin.length, contents.indexOf(region.end, contents.indexOf(region.begin)))
  expect(between(text), `${region.file} is not what the options rows render: run npm run readme:options`).toBe(between(renderRegions(region.file, text)))
})

it('names every test variant under test:variants', () => {
  const section = sectionOf(tests, 'npm run test:variants')
  expect(section, 'no section for test:variants in docs/tests.md').toBeDefined()
  for (const id of VARIANT_IDS) expect(section).toContain(`\`${id}\``)
})

it('names the install rows every CI run covers, and the release run with the whole matrix', () => {
  const install = sectionOf(tests, 'npm run test:install')
  expect(install, 'no section for test:install in docs/tests.md').toBeDefined()
  for (const row of CI_ROWS) expect(install).toContain(rowName(row))
  expect(install).toContain('--all')
  expect(sectionOf(tests, 'npm run test:release'), 'no section for test:release in docs/tests.md').toBeDefined()
})

describe('the options table', () => {
  const { header, rows } = optionsTable()
  const defaultColumn = header.indexOf('default')

  it('has a default column', () => {
    expect(defaultColumn).toBeGreaterThan(0)
  })

  it.each(OPTIONS.map((option) => [option.flag, option] as const))('states the default of %s as src/options.ts gives it', (flag, option) => {
    const row = rowOf(flag, rows)
    expect(row, `no row for ${flag} in README.md's options table`).toBeDefined()
    const stated = row![defaultColumn]!.replace(/`/g, '')
    expect(stated, `default of ${flag} in README.md`).toBe(statedDefault(option))
  })

  it('states the defaults exactly as --help does', () => {
    const help = new Map(buildProgram().options.map((option) => [option.long, option.description]))
    for (const option of OPTIONS) expect(help.get(option.flag)).toContain(`(default: ${statedDefault(option)})`)
  })

  it('says what --two-factor generates', () => {
    const cellsOfRow = rowOf('--two-factor', rows)!.join(' ')
    for (const part of ['TOTP', 'enable', 'confirm', 'disable', 'recovery codes', 'challenge at login']) expect(cellsOfRow).toContain(part)
  })
})
