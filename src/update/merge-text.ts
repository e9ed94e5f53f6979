import { diff3Merge } from 'node-diff3'

export interface TextMerge {
  text: string
  conflict: boolean
}

/** Lines with their end of line, so that a merge gives back the bytes it was given. */
const lines = (text: string): string[] => (text === '' ? [] : text.split(/(?<=\n)/))

/** A side of a conflict ends on a line of its own, else the marker after it would join its last line. */
const closed = (side: string[]): string[] => (side.length && !side.at(-1)!.endsWith('\n') ? [...side.slice(0, -1), `${side.at(-1)}\n`] : side)

/**
 * `base` → `theirs` merged into `yours` line by line, as `git merge-file` does: what only one side
 * changed is taken, a clash keeps both between git's markers (yours first).
 */
export function mergeText(yours: string, base: string, theirs: string, theirLabel: string): TextMerge {
  const out: string[] = []
  let conflict = false
  for (const region of diff3Merge(lines(yours), lines(base), lines(theirs), { excludeFalseConflicts: true })) {
    if (region.ok) {
      out.push(...region.ok)
    } else if (region.conflict) {
      conflict = true
      out.push('<<<<<<< yours\n', ...closed(region.conflict.a), '=======\n', ...closed(region.conflict.b), `>>>>>>> ${theirLabel}\n`)
    }
  }
  return { text: out.join(''), conflict }
}
