/**
 * The generated app's worked example (docs/extending.md, "Extending the app"), read as a script would follow it.
 * Each step is a fenced block right after a marker invisible in rendered Markdown:
 *
 *   <!-- example: server/src/models/project.ts -->     then a fence: a new file, whole
 *   <!-- example: server/src/routes/api.ts -->         then a ```diff fence: an edit
 *
 * An edit's lines are ` context` and `+added` (an empty line is empty context); a line starting
 * with `@@` begins another hunk. Each hunk's context lines must appear once in the file, one after
 * the other, as a reader looking for them would find them; the added lines go where they sit.
 */

export interface ExampleStep {
  path: string
  /** `file`: the block is a new file; `edit`: it is a diff of an existing one. */
  kind: 'file' | 'edit'
  body: string
}

const STEP = /^<!-- example: (\S+) -->\n```(\w*)\n([\s\S]*?)^```$/gm

export function exampleSteps(readme: string): ExampleStep[] {
  const steps = [...readme.matchAll(STEP)].map(([, path, language, body]) => ({ path: path!, kind: language === 'diff' ? ('edit' as const) : ('file' as const), body: body! }))
  const markers = readme.match(/<!-- example:/g)?.length ?? 0
  if (markers !== steps.length) throw new Error(`${markers} example markers, but only ${steps.length} of them are followed by a fenced block`)
  return steps
}

interface Hunk {
  /** The context lines, as they stand in the file. */
  before: string[]
  /** The same with the added lines in place. */
  after: string[]
}

function hunks(diff: string, path: string): Hunk[] {
  const result: Hunk[] = [{ before: [], after: [] }]
  for (const line of diff.replace(/\n$/, '').split('\n')) {
    const hunk = result.at(-1)!
    if (line.startsWith('@@')) result.push({ before: [], after: [] })
    else if (line.startsWith('+')) hunk.after.push(line.slice(1))
    else if (line === '' || line.startsWith(' ')) {
      hunk.before.push(line.slice(1))
      hunk.after.push(line.slice(1))
    } else throw new Error(`${path}: "${line}" is neither context (" ") nor an added line ("+")`)
  }
  for (const hunk of result) if (hunk.before.length === 0) throw new Error(`${path}: a hunk without context lines says nowhere where its lines go`)
  return result
}

/** Where `block` stands in `lines`, one line after the other: every index it starts at. */
function positions(lines: string[], block: string[]): number[] {
  const found: number[] = []
  for (let start = 0; start + block.length <= lines.length; start++) {
    if (block.every((line, offset) => lines[start + offset] === line)) found.push(start)
  }
  return found
}

/** `source` with the edit applied; throws when a hunk's context is missing, repeated, or out of order. */
export function applyEdit(source: string, diff: string, path: string): string {
  let lines = source.split('\n')
  let from = 0
  for (const hunk of hunks(diff, path)) {
    const found = positions(lines, hunk.before)
    const context = hunk.before.map((line) => `  ${line}`).join('\n')
    if (found.length === 0) throw new Error(`${path}: these lines are not in the file:\n${context}`)
    if (found.length > 1) throw new Error(`${path}: these lines are in the file ${found.length} times, so where the edit goes is unclear:\n${context}`)
    if (found[0]! < from) throw new Error(`${path}: these lines come before the previous hunk's:\n${context}`)
    lines = [...lines.slice(0, found[0]), ...hunk.after, ...lines.slice(found[0]! + hunk.before.length)]
    from = found[0]! + hunk.after.length
  }
  return lines.join('\n')
}

/** The files as the example leaves them: `read` gives a file of the app, undefined when it does not exist. */
export function applyExample(steps: ExampleStep[], read: (path: string) => string | undefined): Map<string, string> {
  const written = new Map<string, string>()
  for (const step of steps) {
    const current = written.get(step.path) ?? read(step.path)
    if (step.kind === 'file') {
      if (current !== undefined) throw new Error(`${step.path}: the example adds it, but it exists already`)
      written.set(step.path, step.body)
    } else {
      if (current === undefined) throw new Error(`${step.path}: the example edits it, but the app has no such file`)
      written.set(step.path, applyEdit(current, step.body, step.path))
    }
  }
  return written
}
