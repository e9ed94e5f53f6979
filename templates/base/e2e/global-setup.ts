import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { projectRoot } from './support/paths'

const sources = ['client/src', 'client/index.html', 'server/src', 'vite.config.ts', 'package.json']
const outputs = ['dist/client/index.html', 'dist/server/index.js']

function newest(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(0, ...fs.readdirSync(entry).map((name) => newest(path.join(entry, name))))
}

/** The tests run what `build` produces; build first when that is missing or older than the code. */
export default function setup(): void {
  const built = Math.min(...outputs.map((file) => newest(path.join(projectRoot, file)) || -1))
  const changed = Math.max(...sources.map((entry) => newest(path.join(projectRoot, entry))))
  if (built > 0 && built >= changed) return

  // The package manager that started the tests runs the build, like `<pm> run build` by hand.
  const execPath = process.env.npm_execpath
  const [command, args] = execPath
    ? /\.[cm]?js$/.test(execPath)
      ? [process.execPath, [execPath, 'run', 'build']]
      : [execPath, ['run', 'build']]
    : ['npm', ['run', 'build']]
  console.log('e2e: building the app first (dist is missing or out of date)…')
  const result = spawnSync(command, args, { cwd: projectRoot, stdio: 'inherit', shell: process.platform === 'win32' })
  if (result.status !== 0) throw new Error('e2e: the build failed; fix it and run the tests again.')
}
