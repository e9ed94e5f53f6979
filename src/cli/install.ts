import type { PackageManager } from '../options.js'

/** Runs `<pm> install` with its own progress output; resolves to an error message or null. */
export async function installDependencies(pm: PackageManager, cwd: string): Promise<string | null> {
  const { execa } = await import('execa')
  console.log(`\nInstalling dependencies with ${pm}…\n`)
  try {
    await execa(pm, ['install'], { cwd, stdio: 'inherit' })
    return null
  } catch (error) {
    const failure = error as { code?: string; exitCode?: number; shortMessage?: string }
    if (failure.code === 'ENOENT') return `${pm} was not found on PATH`
    return failure.exitCode !== undefined ? `${pm} install exited with code ${failure.exitCode}` : (failure.shortMessage ?? String(error))
  }
}
