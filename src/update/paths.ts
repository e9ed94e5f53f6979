import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, isAbsolute, join, win32 } from 'node:path'
import { Refusal } from './refusal.js'

/**
 * Every file update reads or writes is a path named by cookie-auth.json or a render, which an app's
 * history can set to anything: these keep each one inside the app, never through a link out of it.
 */

// Windows has no O_NOFOLLOW; there the walk of appLink() alone keeps links out.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0

/** Relative, `/`-separated, with no empty, `.` or `..` segment: a path that cannot leave the app. */
export function isAppPath(path: string): boolean {
  if (isAbsolute(path) || win32.isAbsolute(path) || path.includes('\0')) return false
  return path.split(/[\\/]/).every((segment) => segment !== '' && segment !== '.' && segment !== '..')
}

export const linkRefusal = (link: string) => new Refusal(`${link} is a symbolic link: update and add write only inside the app, never through a link`)

/**
 * Refuses the first of `paths` that is no app path, or that is, or lies in a folder that is, a
 * symbolic link in `dir`. Folders are looked at once, however many paths they hold.
 */
export function refuseUnsafePaths(dir: string, paths: Iterable<string>): void {
  const seen = new Map<string, 'link' | 'absent' | 'there'>()
  for (const path of [...paths].sort()) {
    if (!isAppPath(path)) throw new Refusal(`"${path}" is not a path inside the app`)
    const segments = path.split('/')
    for (let count = 1; count <= segments.length; count++) {
      const prefix = segments.slice(0, count).join('/')
      let state = seen.get(prefix)
      if (!state) {
        const stat = lstatSync(join(dir, prefix), { throwIfNoEntry: false })
        state = !stat ? 'absent' : stat.isSymbolicLink() ? 'link' : 'there'
        seen.set(prefix, state)
      }
      if (state === 'link') throw linkRefusal(prefix)
      if (state === 'absent') break
    }
  }
}

/** The app's file at `path`, never through a link; undefined when there is none. */
export function readAppFile(dir: string, path: string): Buffer | undefined {
  let fd: number
  try {
    // Non-blocking, so that a FIFO put where a file was generated cannot hold the update.
    fd = openSync(join(dir, path), constants.O_RDONLY | constants.O_NONBLOCK | NOFOLLOW)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    if (code === 'ELOOP' || code === 'EMLINK') throw linkRefusal(path)
    throw error
  }
  try {
    if (!fstatSync(fd).isFile()) throw new Refusal(`${path} is not a file: update and add read and write only files where they generated them`)
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Writes the app's file at `path`, refusing a link there rather than writing where it points. */
export function writeAppFile(dir: string, path: string, contents: Buffer): void {
  const file = join(dir, path)
  mkdirSync(dirname(file), { recursive: true })
  let fd: number
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o666)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP' || code === 'EMLINK') throw linkRefusal(path)
    throw error
  }
  try {
    writeFileSync(fd, contents)
  } finally {
    closeSync(fd)
  }
}
