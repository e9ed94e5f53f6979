import valid from 'semver/functions/valid.js'
import { formatDuration } from '../duration.js'
import { type AppRecord, GENERATOR, RECORD_FILE } from '../generate/record.js'
import { type Answers, InvalidValue, RECORDED_OPTIONS, type RecordedAnswers, isBoolean } from '../options.js'
import { isAppPath, readAppFile } from './paths.js'
import { Refusal } from './refusal.js'

/** An app's record as read: the answers its version knew (an older one may lack later options). */
export interface ReadRecord extends Omit<AppRecord, 'answers'> {
  answers: Partial<RecordedAnswers>
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A recorded answer checked by its row's own rule, as the flag's text would be. */
function recordedAnswer(key: string, value: unknown): Answers[keyof Answers] {
  const option = RECORDED_OPTIONS.find((row) => row.key === key)
  if (!option) throw new Refusal(`${RECORD_FILE} is invalid: answers.${key} is no option of create-cookie-auth-app ${GENERATOR.version}`)
  const wrong = (allowed: string) => new Refusal(`${RECORD_FILE} is invalid: answers.${key} ${JSON.stringify(value)}: ${allowed}`)
  if (isBoolean(option)) {
    if (typeof value !== 'boolean') throw wrong('use true or false')
    return value
  }
  const fallback = option.default({ userAgent: undefined, gitAvailable: false })
  const text = Array.isArray(fallback)
    ? Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join(',') || 'none' : undefined
    : typeof value === typeof fallback ? (typeof value === 'number' ? formatDuration(value) : String(value)) : undefined
  if (text === undefined) throw wrong(`expected a ${Array.isArray(fallback) ? 'list' : typeof fallback}`)
  try {
    return option.parse!(text)
  } catch (error) {
    if (error instanceof InvalidValue) throw wrong(error.allowed)
    throw error
  }
}

/** The app's cookie-auth.json, checked; a Refusal when it is missing or not one. */
export function readRecord(dir: string): ReadRecord {
  const contents = readAppFile(dir, RECORD_FILE)
  if (!contents) {
    throw new Refusal(`no ${RECORD_FILE} in ${dir}: update and add work on an app that create-cookie-auth-app made and recorded there`)
  }
  let record: unknown
  try {
    record = JSON.parse(contents.toString('utf8'))
  } catch (error) {
    throw new Refusal(`${RECORD_FILE} is invalid: ${(error as Error).message}`)
  }
  if (!isObject(record) || !isObject(record.generator) || !isObject(record.answers) || !isObject(record.files)) {
    throw new Refusal(`${RECORD_FILE} is invalid: it needs generator, answers and files`)
  }
  const { name, version } = record.generator
  if (name !== GENERATOR.name || typeof version !== 'string' || !valid(version)) {
    throw new Refusal(`${RECORD_FILE} is invalid: generator must name ${GENERATOR.name} and its version`)
  }
  const answers = Object.fromEntries(Object.entries(record.answers).map(([key, value]) => [key, recordedAnswer(key, value)]))
  for (const [path, hash] of Object.entries(record.files)) {
    // Such a path would have update delete a file outside the app, or tell whether one exists there.
    if (!isAppPath(path)) throw new Refusal(`${RECORD_FILE} is invalid: files[${JSON.stringify(path)}] is not a path inside the app`)
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) throw new Refusal(`${RECORD_FILE} is invalid: files["${path}"] is not a SHA-256`)
  }
  return { generator: { name, version }, answers, files: record.files as Record<string, string> }
}
