import { describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { countingRandom } from './helpers/random.js'

// "The contract" is this project's word for its own spec (../shared/CONTRACT.md), which an app's
// owner never sees: a generated file says what the app does, not which document asked for it.
describe('generated files', () => {
  it.each(VARIANT_IDS)('never say "contract" in %s', (id) => {
    const files = renderProject(variantAnswers(id), 'my-app', { random: countingRandom() })
    const saying = [...files].filter(([, contents]) => /contract/i.test(contents.toString('utf8'))).map(([path]) => path)
    expect(saying).toEqual([])
  })
})
