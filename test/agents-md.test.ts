import { describe, expect, it } from 'vitest'
import { renderProject } from '../src/generate/index.js'
import { PACKAGE_MANAGERS } from '../src/options.js'
import { VARIANT_IDS, variantAnswers } from '../src/variants.js'
import { countingRandom } from './helpers/random.js'

// AGENTS.md tells a coding agent what to run and where to look: every command it names must be a
// script of that app, and every path it names must be there, in every variant.

const render = (id: string, pm = variantAnswers(id).pm) => renderProject({ ...variantAnswers(id), pm }, 'my-app', { random: countingRandom() })

/** The scripts AGENTS.md runs (`npm run x`, `pnpm run x`, `yarn x`, `bun run x`). */
function scriptsNamed(text: string): string[] {
  return [...text.matchAll(/`(?:npm run|pnpm run|bun run|yarn) ([\w:-]+)/g)].map((match) => match[1]!)
}

/** The app paths it names in code spans: anything under server/, client/, e2e/ or a file at the root. */
function pathsNamed(text: string): string[] {
  return [...text.matchAll(/`((?:server|client|e2e)\/[^`\s]*|README\.md|package\.json)`/g)].map((match) => match[1]!.replace(/<name>.*$/, ''))
}

describe('AGENTS.md', () => {
  for (const id of VARIANT_IDS) {
    it(`names only scripts and paths that ${id} has`, () => {
      const files = render(id)
      const text = files.get('AGENTS.md')!.toString('utf8')
      const scripts = JSON.parse(files.get('package.json')!.toString('utf8')).scripts as Record<string, string>
      const named = scriptsNamed(text)
      expect(named).toContain('test')
      expect(named.filter((script) => !(script in scripts))).toEqual([])
      const paths = pathsNamed(text)
      expect(paths).toContain('server/src/kernel/index.ts')
      // A folder is there when some file is under it; the worked example's slice is the reader's to write.
      const missing = paths.filter((path) => !path.startsWith('server/src/features/projects/') && !files.has(path) && ![...files.keys()].some((file) => file.startsWith(path.endsWith('/') ? path : `${path}/`)))
      expect(missing).toEqual([])
    })
  }

  it("speaks each package manager's commands", () => {
    for (const pm of PACKAGE_MANAGERS) {
      const text = render('sqlite', pm).get('AGENTS.md')!.toString('utf8')
      expect(text).toContain(`\`${pm} install\``)
      expect(scriptsNamed(text).length).toBeGreaterThan(5)
    }
  })

  it('lists the slices of the variant, layers included', () => {
    const text = render('sqlite-custom-verify-2fa-passkeys-oauth-teams-redis').get('AGENTS.md')!.toString('utf8')
    expect(text).toContain("guest-store, two-factor, passkeys, oauth, oauth-github, oauth-google, oauth-oidc, teams.")
  })
})
