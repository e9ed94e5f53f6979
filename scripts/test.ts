/**
 * `npm test`, the README's test command, after the build: the generator's unit tests, then the
 * generated apps' checks in order (`test:install`, `test:variants`, `test:update`: each uses what
 * the one before installed or proved). The apps' shared install (scripts/lib/shared-install.ts,
 * where sqlite3 compiles for about 90 s on one core) is made while the unit tests run: they keep
 * about one core of two busy. Stops at the first failure.
 */
import { execa } from 'execa'
import { sharedNodeModules } from './lib/shared-install.js'

const installed = sharedNodeModules().then(
  () => true,
  (error: unknown) => {
    console.error(error)
    return false
  },
)
const unit = await execa('vitest', ['run'], { preferLocal: true, stdio: 'inherit', reject: false })
if (!(await installed) || unit.exitCode !== 0) process.exit(1)
for (const script of ['test:install', 'test:variants', 'test:update']) {
  const { exitCode } = await execa('npm', ['run', script], { stdio: 'inherit', reject: false })
  if (exitCode !== 0) process.exit(1)
}
