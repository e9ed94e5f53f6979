import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { onPath } from './shell.js'

const AUTHOR = { name: 'create-cookie-auth-app', email: 'create-cookie-auth-app@users.noreply.local' }

/** Initialises a repository with one commit; returns a note for the user when it could not. */
export async function initGit(cwd: string): Promise<string | null> {
  if (existsSync(join(cwd, '.git'))) return 'kept the existing git repository; nothing was committed'
  const { execa } = await import('execa')
  try {
    await execa('git', ['init', '-q'], { cwd })
    await execa('git', ['add', '-A'], { cwd })
  } catch (error) {
    return `git init failed: ${(error as { shortMessage?: string }).shortMessage ?? String(error)}`
  }
  try {
    await execa('git', ['commit', '-q', '-m', 'Initial commit from create-cookie-auth-app'], { cwd })
  } catch {
    // No user.name/user.email configured: commit under the tool's name rather than leave none.
    await execa('git', ['-c', `user.name=${AUTHOR.name}`, '-c', `user.email=${AUTHOR.email}`, 'commit', '-q', '-m', 'Initial commit from create-cookie-auth-app'], { cwd }).catch(
      () => undefined,
    )
  }
  return null
}

/**
 * Whether `dir` is in a git work tree, and whether anything under it is uncommitted (untracked
 * files too: an update could write over them, and nothing would give them back).
 */
export async function workTreeState(dir: string): Promise<'none' | 'clean' | 'dirty'> {
  if (!onPath('git')) return 'none'
  const { execa } = await import('execa')
  const inside = await execa('git', ['rev-parse', '--is-inside-work-tree'], { cwd: dir, reject: false })
  if (inside.exitCode !== 0 || inside.stdout.trim() !== 'true') return 'none'
  const status = await execa('git', ['status', '--porcelain', '--', '.'], { cwd: dir })
  return status.stdout.trim() ? 'dirty' : 'clean'
}
