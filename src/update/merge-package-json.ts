import { isDeepStrictEqual } from 'node:util'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

export interface PackageJsonMerge {
  text: string
  /** Keys both sides changed, yours kept, as dotted paths: a conflict to look at. */
  clashes: string[]
  /** Dependencies both sides changed, yours kept: a version you chose is yours to move, no conflict. */
  keptVersions: string[]
}

const DEPENDENCY_FIELDS = new Set(['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'])

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)
const isList = (value: Json | undefined): value is Json[] => Array.isArray(value)
const sorted = (keys: string[]) => keys.every((key, index) => index === 0 || keys[index - 1]! < key)

/** A list as a set: yours, without what base → theirs removed, then what theirs added. */
function mergeList(yours: Json[], base: Json[], theirs: Json[]): Json[] {
  const has = (list: Json[], item: Json) => list.some((other) => isDeepStrictEqual(other, item))
  const kept = yours.filter((item) => !(has(base, item) && !has(theirs, item)))
  return [...kept, ...theirs.filter((item) => !has(base, item) && !has(kept, item))]
}

function mergeObject(yours: JsonObject, base: JsonObject, theirs: JsonObject, at: string[], clashes: string[]): JsonObject {
  const result: JsonObject = {}
  const keys = [...Object.keys(yours), ...Object.keys(theirs).filter((key) => !Object.hasOwn(yours, key))]
  for (const key of keys) {
    const [mine, old, next] = [yours[key], base[key], theirs[key]]
    let value: Json | undefined
    if (isDeepStrictEqual(old, next) || isDeepStrictEqual(mine, next)) value = mine
    else if (isDeepStrictEqual(mine, old)) value = next
    else if (isObject(mine) && isObject(next) && (old === undefined || isObject(old))) value = mergeObject(mine, old ?? {}, next, [...at, key], clashes)
    else if (isList(mine) && isList(next) && (old === undefined || isList(old))) value = mergeList(mine, old ?? [], next)
    else {
      value = mine
      clashes.push([...at, key].join('.'))
    }
    if (value !== undefined) result[key] = value
  }
  // npm keeps dependencies in order by name; a merge that appended new ones would leave them out of it.
  if (at.length === 1 && DEPENDENCY_FIELDS.has(at[0]!) && sorted(Object.keys(yours))) {
    return Object.fromEntries(Object.entries(result).sort(([a], [b]) => (a < b ? -1 : 1)))
  }
  return result
}

/**
 * package.json merged as JSON, key by key: what base → theirs changed is applied where yours
 * left the key as base had it, so dependencies, devDependencies and scripts come and go with the
 * features while your own keys stay. Where both changed one key, yours is kept. Undefined when
 * yours is not JSON (then it is merged as text).
 */
export function mergePackageJson(yours: string, base: string, theirs: string): PackageJsonMerge | undefined {
  let mine: Json
  try {
    mine = JSON.parse(yours) as Json
  } catch {
    return undefined
  }
  if (!isObject(mine)) return undefined
  const clashes: string[] = []
  const merged = mergeObject(mine, JSON.parse(base) as JsonObject, JSON.parse(theirs) as JsonObject, [], clashes)
  const indent = /^([ \t]+)"/m.exec(yours)?.[1] ?? '  '
  return {
    text: `${JSON.stringify(merged, null, indent)}${yours.endsWith('\n') ? '\n' : ''}`,
    clashes: clashes.filter((path) => !DEPENDENCY_FIELDS.has(path.split('.')[0]!)),
    keptVersions: clashes.filter((path) => DEPENDENCY_FIELDS.has(path.split('.')[0]!)),
  }
}
