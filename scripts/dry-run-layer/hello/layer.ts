// The toy hello layer's row of the options table (src/options.ts assembles it), for
// scripts/dry-run-layer.ts. Read by the generator only: never copied into an app.
import { defineOption } from '../../src/option-row.js'

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    hello: boolean
  }
}

export default defineOption({
  key: 'hello',
  flag: '--hello',
  description: 'say hello (a toy layer)',
  negated: 'no hello: the app stays silent',
  prompt: 'Say hello?',
  default: () => false,
  contractDefault: 'no',
  layer: 'hello',
  matrix: { tag: 'hello' },
  readme: 'the toy hello layer (`templates/hello/`): `GET` and `POST /api/hello`, a greeting job, a way to sign in',
})
