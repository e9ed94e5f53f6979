import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { OPTIONS, VARIANTS } from '../src/options.js'

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')

it('documents every option of the table, with its prompt', () => {
  for (const option of OPTIONS) {
    expect(readme).toContain(`\`${option.flag}`)
    if (option.prompt) expect(readme).toContain(option.prompt)
  }
})

it('names every test variant', () => {
  for (const id of Object.keys(VARIANTS)) expect(readme).toContain(`\`${id}\``)
})
