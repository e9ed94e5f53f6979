import { GENERATOR } from '../generate/record.js'
import type { Answers } from '../options.js'
import { envVariables } from '../update/env.js'

/**
 * The one JSON document `--json` prints (create, `update`, `add`), as `schema/result.schema.json`
 * describes it. Filled in as the command goes; printed once, also on a refusal.
 */
export interface Report {
  ok: boolean
  command: 'create' | 'update' | 'add'
  version: string
  /** The app's folder, absolute; null when the command stopped before knowing it. */
  directory: string | null
  /** Every answer, as cookie-auth.json records them (plus pm, install and git for create); null before they are known. */
  answers: Partial<Answers> | null
  files: { path: string; action: 'created' | 'updated' | 'merged' | 'deleted' | 'conflict'; note?: string }[]
  env: EnvEntry[]
  next: string[]
  conflicts: { path: string; happened: string; todo: string }[]
  warnings: string[]
  error: { message: string; flag?: string } | null
}

/**
 * A `.env` variable the app needs. `value` is null for a secret: a JSON document ends up in logs
 * and agents' transcripts, so no secret is ever put in one; the secret is in `.env` (create), or
 * is for the owner to draw (update, add).
 */
export interface EnvEntry {
  name: string
  value: string | null
  why: string
}

export function newReport(command: Report['command']): Report {
  return { ok: false, command, version: GENERATOR.version, directory: null, answers: null, files: [], env: [], next: [], conflicts: [], warnings: [], error: null }
}

export function printReport(report: Report): void {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
}

/** The comment lines right above each variable of a `.env` file: what it is for. */
function comments(contents: string): Map<string, string> {
  const found = new Map<string, string>()
  let block: string[] = []
  // The file's own heading speaks of the file, not of its first variable.
  let heading = true
  for (const raw of contents.split('\n')) {
    const line = raw.trim()
    const variable = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(line)?.[1]
    if (variable) {
      if (block.length && !heading) found.set(variable, block.join(' '))
      block = []
      heading = false
    } else if (line.startsWith('#') && !/^#\s*[A-Z_][A-Z0-9_]*=/.test(line)) {
      block.push(line.replace(/^#\s*/, ''))
    } else {
      block = []
      heading = false
    }
  }
  return found
}

/** Base's variables, which its `.env` states without a comment. */
const BASE_VARIABLES: Record<string, string> = {
  PORT: 'the port the API listens on',
  BASE_URL: "the app's public URL (links in mails, OAuth callbacks)",
  DATABASE_URL: 'the database the app connects to',
  MAIL_FROM: "the sender of the app's mails",
  JWT_ACCESS_SECRET: 'signs the access tokens',
  JWT_REFRESH_SECRET: 'signs the refresh tokens',
  COOKIE_SECRET: 'signs the cookies',
  COOKIE_SAMESITE: "the auth cookies' SameSite attribute",
}

const GENERATE_SECRET = `node -e "console.log(require('crypto').randomBytes(32).toString('hex'))"`

/**
 * The entries of `names` as the generated `.env` and `.env.example` tell them. A secret is a value
 * that the example file does not share (it holds `change-me` where `.env` holds a fresh draw).
 * `written`: the values are in the app's `.env` already (create), else the owner adds them.
 */
export function envEntries(names: readonly string[], env: Buffer | undefined, example: Buffer | undefined, written: boolean): EnvEntry[] {
  const values = envVariables(env)
  const placeholders = envVariables(example)
  const about = comments(example?.toString('utf8') ?? '')
  return names.map((name) => {
    const value = values.get(name) ?? null
    const secret = value !== null && placeholders.get(name) !== value
    const what = (about.get(name) ?? BASE_VARIABLES[name])?.replace(/\.$/, '')
    const how = secret ? (written ? 'a secret, freshly drawn into .env (never printed)' : `a secret: draw one, e.g. ${GENERATE_SECRET}`) : undefined
    return { name, value: secret ? null : value, why: [what, how].filter(Boolean).join('; ') || `read by the app's server/src/kernel/config/env.ts` }
  })
}
