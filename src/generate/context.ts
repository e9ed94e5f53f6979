import { type Answers, type Database, type PackageManager, camelCase } from '../options.js'
import { type CiCommand, ciCommands } from './ci.js'
import { featureLayers } from './layers.js'
import type { TemplateStore } from './templates/store.js'

/** Where randomness comes from; tests inject a fixed one so output is reproducible. */
export interface GenerateDeps {
  random: (bytes: number) => Buffer
  /** Called as each phase of writing a project ends (`bench:generate` shows where the time goes). */
  mark?: (phase: 'render' | 'directories' | 'files') => void
  /** The templates folder by default; the published CLI passes its pack (templates/pack.ts). */
  templates?: TemplateStore
  /**
   * Filled, when given, with each output path's template (`.gitignore` → `base/_gitignore`,
   * `.env` → `base/_env.ejs`): the snapshot tests keep only a hash of a file copied as it is and
   * check the copy against its template once. package.json, merged from every layer, has none.
   */
  sources?: Map<string, string>
}

/** What `.ejs` templates see: the answers that shape the app, and a few derived values. */
export interface TemplateContext extends Omit<Answers, 'install' | 'git'> {
  appName: string
  run: (script: string) => string
  /** What the app's CI runs, in order: `.github/workflows/ci.yml` and the README's list of it. */
  ciCommands: CiCommand[]
  databaseUrl: string
  secrets: { jwtAccess: string; jwtRefresh: string; cookie: string; encryption: string }
  /** The feature layers on, in the options table's order (`['two-factor']`). */
  features: string[]
  /**
   * Each feature layer's `partials/<name>.ejs`, rendered with this context and joined, for the
   * base files that list what layers add (`.env`, README.md): base names the extension point,
   * never the feature.
   */
  fromLayers: (name: string) => string
  /**
   * The feature layers that ship `path`, `<layer>` standing for the layer's name
   * (`server/src/features/<layer>/models.ts`), each with a camel-case identifier: what the base
   * index of an extension point imports.
   */
  layersWith: (path: string) => { layer: string; id: string }[]
}

/** `My App!` → `my-app`: what npm accepts as a package name. */
export function packageName(directoryName: string): string {
  const name = directoryName
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '')
  return name || 'cookie-auth-app'
}

export function runScript(pm: PackageManager, script: string): string {
  return pm === 'yarn' ? `yarn ${script}` : `${pm} run ${script}`
}

/** Databases the server itself owns: an app named after one must not migrate into it. */
const SYSTEM_DATABASES: Record<Exclude<Database, 'sqlite'>, ReadonlySet<string>> = {
  mysql: new Set(['information_schema', 'mysql', 'performance_schema', 'sys']),
  postgres: new Set(['postgres', 'template0', 'template1']),
}

const SERVERS: Record<Exclude<Database, 'sqlite'>, string> = {
  mysql: 'mysql://root@127.0.0.1:3306',
  postgres: 'postgres://postgres@127.0.0.1:5432',
}

function defaultDatabaseUrl(db: Database, appName: string): string {
  if (db === 'sqlite') return 'sqlite:./data/app.sqlite'
  const name = appName.replace(/[^a-z0-9]+/g, '_')
  return `${SERVERS[db]}/${SYSTEM_DATABASES[db].has(name) ? `${name}_app` : name}`
}

export function templateContext(answers: Answers, appName: string, deps: GenerateDeps, templates: TemplateStore): TemplateContext {
  // 32 random bytes: the contract asks for at least 256 bits per secret.
  const secret = () => deps.random(32).toString('hex')
  const { install: _install, git: _git, ...shaping } = answers
  const features = featureLayers(answers)
  const run = (script: string) => runScript(answers.pm, script)
  const context: TemplateContext = {
    ...shaping,
    appName,
    run,
    ciCommands: ciCommands(answers.pm, run),
    databaseUrl: defaultDatabaseUrl(answers.db, appName),
    // Drawn for every project, used only by `--two-factor` ones: the other secrets stay the same either way.
    secrets: { jwtAccess: secret(), jwtRefresh: secret(), cookie: secret(), encryption: secret() },
    features,
    fromLayers: (name) =>
      features
        // A layer's own partial, then those of its sub-layers whose other layer is on (`api-keys/+teams/partials/`).
        .flatMap((layer) => [`${layer}/partials/${name}.ejs`, ...features.map((other) => `${layer}/+${other}/partials/${name}.ejs`)])
        .filter((path) => templates.has(path))
        .map((path) => templates.render(path, context))
        .join(''),
    layersWith: (path) =>
      features
        // A layer's file may be a template itself (`index.ts.ejs`, when a sub-layer adds to it).
        .filter((layer) => [``, `.ejs`].some((ext) => templates.has(`${layer}/${path.replace('<layer>', layer)}${ext}`)))
        .map((layer) => ({ layer, id: camelCase(layer) })),
  }
  return context
}
