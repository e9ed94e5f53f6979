import fs from 'node:fs'
import { createRequire } from 'node:module'
import { AxeBuilder } from '@axe-core/playwright'
import type { Page } from 'playwright-core'

/** WCAG 2.2 level A and AA: axe tags each rule with the version and level that brought it in. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const

const SCHEMES = ['light', 'dark'] as const

// axe-core's minified build, from beside @axe-core/playwright (its dependency, reachable from the
// app under every package manager's layout): the page parses it twice a scan, and the readable
// build it injects by default is twice the size, a third slower here.
const fromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))
const axeSource = fs.readFileSync(fromAxePlaywright.resolve('axe-core/axe.min.js'), 'utf8')

/**
 * The WCAG 2.2 A/AA violations on the page as it stands, in both themes at a desktop and a phone
 * size, one line each (rule, impact, where) so a failing test says what to fix. The theme follows
 * the emulated `prefers-color-scheme` (the visitor has chosen none), so it changes in place, like
 * the viewport: no reload, and the page keeps whatever state the test gave it (an open dialog, a
 * form's errors). Leaves the page at the desktop size in light.
 */
export async function axeViolations(page: Page, name: string): Promise<string[]> {
  const found: string[] = []
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport)
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme })
      // Legacy mode runs axe in the page itself; the default finishes every run in a new blank
      // page, twice as slow here, for iframes the app does not have.
      const { violations } = await new AxeBuilder({ page, axeSource }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
      for (const violation of violations) {
        const where = violation.nodes.map((node) => node.target.join(' ')).join(', ')
        found.push(`${name} (${colorScheme}, ${size}): ${violation.id} [${violation.impact}] ${violation.help} at ${where}`)
      }
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop)
  await page.emulateMedia({ colorScheme: 'light' })
  return found
}
