import { existsSync } from 'node:fs'
import { join } from 'node:path'

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
