/**
 * The documentation's parts that the options table makes, rendered from it: README.md's options
 * table under "## Options" (each row of OPTIONS, its `readme` the "what it generates" cell, then
 * the creating command's other flags, RUN_FLAGS) and docs/tests.md's list of the variants
 * `npm test` runs, under test:variants. Each sits between two marker comments; `npm run
 * readme:options` rewrites what is between them and test/readme.test.ts fails when a file
 * differs from this.
 */
import { RUN_FLAGS, statedDefault } from '../../src/cli/program.js'
import { type OptionRow, OPTIONS, isBoolean } from '../../src/options.js'
import { ALL_VARIANT_IDS, CI_VARIANT_IDS, VARIANT_IDS } from '../../src/variants.js'

/** A region of a Markdown file of the generator: its text sits between `begin` and `end`. */
export interface Region {
  name: string
  /** The file it sits in, from the repository's root. */
  file: string
  begin: string
  end: string
  render: () => string
}

/** A table cell: a bar inside it is a literal bar. */
const cell = (text: string) => text.replace(/\|/g, '\\|')

function flagCell(option: OptionRow): string {
  return isBoolean(option) ? `\`${option.flag}\` / \`--no-${option.flag.slice(2)}\`` : `\`${option.flag} ${option.valueName}\``
}

/** The default as `--help` states it; a value one would type in backticks (`sqlite`, `15m`), a yes, no or none not. */
function defaultCell(option: OptionRow): string {
  const stated = statedDefault(option)
  if (option.defaultHelp !== undefined) return stated
  const value = option.default({ userAgent: undefined, gitAvailable: true })
  return typeof value === 'boolean' || (Array.isArray(value) && value.length === 0) ? stated : `\`${stated}\``
}

export function optionsTable(): string {
  const rows = [
    '| flag | asked as | what it generates | default |',
    '|---|---|---|---|',
    ...OPTIONS.map((option) => `| ${[flagCell(option), option.prompt ?? '—', option.readme, defaultCell(option)].map(cell).join(' | ')} |`),
    ...RUN_FLAGS.map((flag) => `| ${[`\`${flag.flags}\``, flag.asked, flag.readme, flag.default].map(cell).join(' | ')} |`),
  ]
  return rows.join('\n')
}

export function variantList(): string {
  const list = (ids: readonly string[]) => ids.map((id) => `\`${id}\``).join(', ')
  return `CI's ${list(CI_VARIANT_IDS)}; with \`--pairwise\` ${list(VARIANT_IDS)}; with \`--all\` the whole product (${ALL_VARIANT_IDS.length})`
}

export const REGIONS: readonly Region[] = [
  {
    name: 'the options table',
    file: 'README.md',
    begin: '<!-- options table: npm run readme:options writes it from the options rows -->\n\n',
    end: '\n\n<!-- end of the options table -->',
    render: optionsTable,
  },
  { name: 'the variants test:variants runs', file: 'docs/tests.md', begin: '<!-- variants -->', end: '<!-- /variants -->', render: variantList },
]

/** The files that hold a region, each once. */
export const REGION_FILES: readonly string[] = [...new Set(REGIONS.map((region) => region.file))]

/**
 * `contents`, the text of `file`, with every region of that file as the options table renders it;
 * throws when a region's markers are not there once each.
 */
export function renderRegions(file: string, contents: string): string {
  let text = contents
  for (const region of REGIONS.filter((candidate) => candidate.file === file)) {
    const start = text.indexOf(region.begin)
    const end = text.indexOf(region.end, start + region.begin.length)
    if (start === -1 || end === -1 || text.indexOf(region.begin, start + 1) !== -1) {
      throw new Error(`${file}: ${region.name} must sit once between ${JSON.stringify(region.begin)} and ${JSON.stringify(region.end)}`)
    }
    text = text.slice(0, start + region.begin.length) + region.render() + text.slice(end)
  }
  return text
}
