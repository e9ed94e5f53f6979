import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { type Answers, RECORDED_OPTIONS, type RecordedAnswers } from '../options.js'

/**
 * The package this code ships in, two folders up from here and from every module of the bundle
 * (dist/cli/, scripts/build.ts): read at run time, so a package is the version its package.json says.
 */
const generatorPackage = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string }
export const GENERATOR = { name: generatorPackage.name, version: generatorPackage.version }

/** How an app was made, at its root: what `update` and `add` start from. */
export const RECORD_FILE = 'cookie-auth.json'

/** Never listed nor touched by `update`: its secrets are the app's own, not the generator's. */
export const UNRECORDED = new Set(['.env'])

export interface AppRecord {
  generator: { name: string; version: string }
  answers: RecordedAnswers
  /** Every file as generated (the record and `.env` aside): path → SHA-256 in hex. */
  files: Record<string, string>
}

export const sha256 = (contents: Buffer): string => createHash('sha256').update(contents).digest('hex')

export function recordedAnswers(answers: Answers): RecordedAnswers {
  return Object.fromEntries(RECORDED_OPTIONS.map((option) => [option.key, answers[option.key]])) as RecordedAnswers
}

/** The contents of cookie-auth.json for a project of `answers` whose other files are `files`. */
export function renderRecord(answers: Answers, files: ReadonlyMap<string, Buffer>): Buffer {
  const record: AppRecord = {
    generator: GENERATOR,
    answers: recordedAnswers(answers),
    files: Object.fromEntries(
      [...files.keys()]
        .filter((path) => !UNRECORDED.has(path))
        .sort()
        .map((path) => [path, sha256(files.get(path)!)]),
    ),
  }
  return Buffer.from(`${JSON.stringify(record, null, 2)}\n`)
}
