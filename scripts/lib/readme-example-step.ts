import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import { appEnv } from './app-env.js'
import { applyExample, exampleSteps } from './readme-example.js'
import { renderLinkedVariant } from './shared-install.js'

/**
 * Besides the example's own tests: the files that read the migration list and the bound models,
 * the account deletion that the example's foreign key joins, and the API document that must
 * describe the example's routes. The whole server suite would add about two minutes to the run
 * for nothing more that the example touches.
 */
const SANITY = ['server/tests/migrations.test.ts', 'server/tests/credential-tokens.test.ts', 'server/tests/delete-account.test.ts', 'server/tests/openapi.test.ts']

/**
 * The variant run's `readme-example` step: renders variant `id` afresh beside `dir` (linked to
 * the install `dir` uses), follows its README's worked example as a newcomer would (every new
 * file written, every edit made), then type-checks the server and the tests and runs the
 * example's tests with SANITY.
 */
export async function runReadmeExample(id: string, dir: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const app = `${dir}-readme-example`
  renderLinkedVariant(id, app, realpathSync(join(dir, 'node_modules')))
  let written: Map<string, string>
  try {
    const steps = exampleSteps(readFileSync(join(app, 'docs/extending.md'), 'utf8'))
    written = applyExample(steps, (path) => (existsSync(join(app, path)) ? readFileSync(join(app, path), 'utf8') : undefined))
  } catch (error) {
    console.error(`README example: ${(error as Error).message}`)
    return false
  }
  for (const [path, text] of written) {
    mkdirSync(dirname(join(app, path)), { recursive: true })
    writeFileSync(join(app, path), text)
  }
  console.log(`README example in ${app}: ${[...written.keys()].join(', ')}`)
  const run = async (command: string, args: string[]) => (await execa(command, args, { cwd: app, env: appEnv(env), stdio: 'inherit', reject: false })).exitCode === 0
  const tsc = join(app, 'node_modules', '.bin', 'tsc')
  const tests = [...written.keys()].filter((path) => path.endsWith('.test.ts'))
  if (tests.length === 0) {
    console.error('README example: it adds no test file, so nothing would run it')
    return false
  }
  return (
    (await run(tsc, ['--noEmit', '-p', 'tsconfig.server.json'])) &&
    (await run(tsc, ['--noEmit', '-p', 'tsconfig.test.json'])) &&
    (await run(join(app, 'node_modules', '.bin', 'vitest'), ['run', '--project', 'server', ...tests, ...SANITY]))
  )
}
