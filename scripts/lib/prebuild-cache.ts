/**
 * sqlite3 installs through prebuild-install, which looks for its binary in npm's cache
 * (`~/.npm/_prebuilds`) before downloading it from GitHub, and compiles it (about 45 s here) only
 * when both fail. This machine reaches no GitHub, so every install would compile. The shared
 * install compiled it once; putting that binary where prebuild-install looks lets every other
 * install unpack it, as a user's machine unpacks the downloaded one. The install script still has
 * to run for the binary to land: a manager that skips build scripts still leaves sqlite3 unbuilt.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { execa } from 'execa'

export async function seedPrebuildCache(modules: string): Promise<void> {
  const sqlite3 = join(modules, 'sqlite3')
  const binary = join('build', 'Release', 'node_sqlite3.node')
  if (!existsSync(join(sqlite3, binary))) throw new Error(`${join(sqlite3, binary)} is missing: the shared install did not build sqlite3`)
  // prebuild-install names the cached file after its download URL; ask it rather than rebuild the name.
  const { all } = await execa(join(modules, '.bin', 'prebuild-install'), ['-r', 'napi', '--verbose'], {
    cwd: sqlite3,
    all: true,
    reject: false,
    env: { npm_config_cache: process.env.npm_config_cache },
  })
  const cached = /looking for cached prebuild @ (\S+)/.exec(all)?.[1]
  if (!cached) throw new Error(`prebuild-install did not say where it looks for sqlite3's binary:\n${all}`)
  if (existsSync(cached)) return
  mkdirSync(dirname(cached), { recursive: true })
  await execa('tar', ['-czf', cached, '-C', sqlite3, binary])
  console.log(`prebuild cache: sqlite3's binary from the shared install at ${cached}`)
}
