/**
 * README.md's parts that the options table makes, rendered from it: the options table under
 * "## Options" (each row of OPTIONS, its `readme` the "what it generates" cell, then the creating
 * command's other flags, RUN_FLAGS) and the list of the variants `npm test` runs in the Tests
 * table. Each sits between two marker comments; `npm run readme:options` rewrites what is
 * between them and test/readme.test.ts fails when README.md differs from this.
 */
import { RUN_FLAGS, statedDefault } from '../../src/cli/program.js'
import { type OptionRow, OPTIONS, isBoolean } from '../../src/options.js'
import { ALL_VARIANT_IDS, VARIANT_IDS } from '../../src/variants.js'

/** A region of README.md: its text sits between `begin` and `end`. */
export interface Region {
  name: string
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
  return `${VARIANT_IDS.map((id) => `\`${id}\``).join(', ')}; with \`--all\` the whole product (${ALL_VARIANT_IDS.length})`
}

export const REGIONS: readonly Region[] = [
  {
    name: 'the options table',
    begin: '<!-- options table: npm run readme:options writes it from the options rows -->\n\n',
    end: '\n\n<!-- end of the options table -->',
    render: optionsTable,
  },
  { name: 'the variants npm test runs', begin: '<!-- variants -->', end: '<!-- /variants -->', render: variantList },
]

/** `readme` with every region as the options table renders it; throws when a region's markers are not there once each. */
export function renderReadme(readme: string): string {
  let text = readme
  for (const region of REGIONS) {
    const start = text.indexOf(region.begin)
    const end = text.indexOf(region.end, start + region.begin.length)
    if (start === -1 || end === -1 || text.indexOf(region.begin, start + 1) !== -1) {
      throw new Error(`README.md: ${region.name} must sit once between ${JSON.stringify(region.begin)} and ${JSON.stringify(region.end)}`)
    }
    text = text.slice(0, start + region.begin.length) + region.render() + text.slice(end)
  }
  return text
}
