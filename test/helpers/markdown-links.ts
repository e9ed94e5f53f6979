import { posix } from 'node:path'

// What GitHub does with a Markdown file's links: a relative link names a file of the same tree,
// and `#anchor` one of its headings, slugged as GitHub slugs them.

/** GitHub's anchor for a heading: its text as rendered, lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The anchors of a file's headings, a repeated one numbered as GitHub numbers it (`-1`, `-2`). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  for (const [, text] of prose(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(text!)
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    found.add(count === 0 ? base : `${base}-${count}`)
  }
  return found
}

/** The text outside fenced blocks (and outside HTML comments). */
const prose = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/<!--[\s\S]*?-->/g, '')

/** Every link target that stays in the tree: relative paths and `#anchors`, not URLs. */
export function localLinks(markdown: string): string[] {
  const text = prose(markdown).replace(/`[^`\n]*`/g, '')
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

/**
 * The links of every Markdown file of `files` (path → text) that do not resolve: a missing file,
 * or an anchor its file has no heading for. A link to a folder resolves when a file is under it.
 */
export function brokenLinks(files: Map<string, string>): string[] {
  const broken: string[] = []
  const paths = [...files.keys()]
  for (const [path, text] of files) {
    if (!path.endsWith('.md')) continue
    for (const link of localLinks(text)) {
      const [target, anchor] = link.split('#', 2) as [string, string | undefined]
      const resolved = target === '' ? path : posix.normalize(posix.join(posix.dirname(path), decodeURI(target))).replace(/\/$/, '')
      const exists = files.has(resolved) || paths.some((other) => other.startsWith(`${resolved}/`))
      if (!exists) broken.push(`${path}: ${link} (no such file)`)
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(files.get(resolved)!).has(anchor)) broken.push(`${path}: ${link} (no such heading)`)
    }
  }
  return broken
}
