import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { packageName } from '../generate/context.js'
import { GENERATOR } from '../generate/record.js'
import { type ProjectFiles, renderProject } from '../generate/render.js'
import { type Answers, OPTIONS, type PackageManager, type RecordedAnswers, answersToArgs } from '../options.js'
import { Refusal } from './refusal.js'

const BIN = 'bin/create-cookie-auth-app.js'

function readTree(root: string, relative = '', files: ProjectFiles = new Map()): ProjectFiles {
  for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
    const path = relative ? `${relative}/${entry.name}` : entry.name
    if (entry.isDirectory()) readTree(root, path, files)
    else files.set(path, readFileSync(join(root, path)))
  }
  return files
}

/** The release's package folder: `--from` as it is or unpacked, else fetched with `npm pack`. */
async function releasePackage(version: string, from: string | undefined, scratch: string): Promise<string> {
  const { execa } = await import('execa')
  const spec = `${GENERATOR.name}@${version}`
  let tarball = from && resolve(from)
  if (tarball && !existsSync(tarball)) throw new Refusal(`--from "${from}" is invalid: no such file or folder`)
  if (tarball && statSync(tarball).isDirectory()) return checkedPackage(tarball, version, from)
  if (!tarball) {
    const pack = await execa('npm', ['pack', spec, '--json', '--pack-destination', scratch], { reject: false })
    if (pack.exitCode !== 0) {
      const reason = /npm error (?:code )?(.+)/.exec(pack.stderr)?.[1] ?? String(pack.shortMessage)
      throw new Refusal(`cannot fetch ${spec} from the npm registry (${reason.trim()}): pass --from <tarball|directory> of that release`)
    }
    tarball = join(scratch, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename)
  }
  const unpack = await execa('tar', ['-xzf', tarball, '-C', scratch], { reject: false })
  if (unpack.exitCode !== 0) throw new Refusal(`--from "${from}" is invalid: not a package tarball (${unpack.stderr.trim().split('\n')[0]})`)
  const dir = checkedPackage(join(scratch, 'package'), version, from ?? spec)
  // npm pack checked what it fetched against the registry; a tarball given is checked here.
  if (from) await checkIntegrity(tarball, spec, from)
  return dir
}

/** The registry's integrity of `spec`'s tarball (`npm view`, so the owner's registry and proxy), or why none is known. */
async function publishedIntegrity(spec: string): Promise<{ integrity: string } | { unknown: string }> {
  const { execa } = await import('execa')
  const view = await execa('npm', ['view', spec, 'dist.integrity', '--json'], { reject: false })
  if (view.exitCode === 0) {
    const integrity: unknown = view.stdout.trim() ? JSON.parse(view.stdout) : undefined
    return typeof integrity === 'string' ? { integrity } : { unknown: 'not published' }
  }
  const code = /npm (?:error|ERR!) code (\S+)/.exec(view.stderr)?.[1] ?? String(view.shortMessage)
  return { unknown: code === 'E404' ? 'not published' : `the npm registry could not be asked: ${code}` }
}

/**
 * A tarball given with `--from` runs as the base's renderer, so when the registry publishes that
 * release it has to be that release, byte for byte; a release it does not know runs as given.
 */
async function checkIntegrity(tarball: string, spec: string, from: string): Promise<void> {
  const own = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`
  const published = await publishedIntegrity(spec)
  if ('unknown' in published) {
    console.error(`warning: --from "${from}" could not be checked against ${spec} on the npm registry (${published.unknown}): it runs as given`)
  } else if (!published.integrity.split(/\s+/).includes(own)) {
    throw new Refusal(`--from "${from}" is invalid: its integrity ${own} is not that of ${spec} on the npm registry (${published.integrity})`)
  }
}

function checkedPackage(dir: string, version: string, from: string | undefined): string {
  const manifest = join(dir, 'package.json')
  const pkg = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string }) : {}
  if (pkg.name !== GENERATOR.name || !existsSync(join(dir, BIN))) throw new Refusal(`--from "${from}" is invalid: not a built ${GENERATOR.name} package`)
  if (pkg.version !== version) throw new Refusal(`--from "${from}" is invalid: it is ${GENERATOR.name} ${pkg.version}, and ${version} made this app`)
  return dir
}

/**
 * A release's own CLI renders what it made, so its templates are read by its own code: flags
 * are stable within a major version, its internals are not.
 */
async function renderWithRelease(dir: string, answers: Partial<RecordedAnswers>, pm: PackageManager, appName: string, scratch: string): Promise<ProjectFiles> {
  const { execa } = await import('execa')
  const target = join(scratch, 'render', packageName(appName))
  const args = [join(dir, BIN), target, ...answersToArgs({ ...answers, pm }), '--no-install', '--no-git', '--yes']
  const run = await execa(process.execPath, args, { env: { ...process.env, CI: '1' }, reject: false })
  if (run.exitCode !== 0) {
    throw new Refusal(`${GENERATOR.name} ${readPackageVersion(dir)} could not render this app's base: ${run.stderr.trim().split('\n').at(-1)}`)
  }
  return readTree(target)
}

const readPackageVersion = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version

/** Every answer of this version: the recorded ones, the defaults of options added since. */
export function completeAnswers(recorded: Partial<RecordedAnswers>, pm: PackageManager): Answers {
  const defaults = Object.fromEntries(OPTIONS.map((option) => [option.key, option.default({ userAgent: undefined, gitAvailable: false })]))
  return { ...defaults, ...recorded, pm, install: false, git: false } as Answers
}

/**
 * The project `version` made for these answers, as it made it (the `.env` secrets aside): this
 * very generator in memory, or that release's package (`from`, else the npm registry).
 */
export async function renderRelease(
  version: string,
  answers: Partial<RecordedAnswers>,
  pm: PackageManager,
  appName: string,
  from: string | undefined,
): Promise<ProjectFiles> {
  if (version === GENERATOR.version && from === undefined) return renderProject(completeAnswers(answers, pm), appName, { random: randomBytes })
  const scratch = mkdtempSync(join(tmpdir(), 'cca-release-'))
  try {
    return await renderWithRelease(await releasePackage(version, from, scratch), answers, pm, appName, scratch)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
