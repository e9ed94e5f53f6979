import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/** Whether a command is on PATH, without spawning it (start-up time matters here). */
export function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

/** Quotes a path for a POSIX shell only when it needs quoting. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}
