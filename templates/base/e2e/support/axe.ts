import { AxeBuilder } from '@axe-core/playwright'
import type { Page } from 'playwright-core'

/** WCAG 2.2 level A and AA: axe tags each rule with the version and level that brought it in. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const

const SCHEMES = ['light', 'dark'] as const

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
      // page, three times slower here, for iframes the app does not have.
      const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).setLegacyMode(true).analyze()
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
