import type { Page } from 'playwright-core'

export interface Focused {
  /** Its accessible name, roughly: aria-label, aria-labelledby, its label, else its text. */
  name: string
  /** How it shows focus (its outline or box-shadow), or null when it shows none. */
  ring: string | null
  /** Inside an open <dialog>. */
  inDialog: boolean
}

/** The element that has focus, as a keyboard user meets it. */
export function focused(page: Page): Promise<Focused | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return null
    // What is read out: the text without the parts hidden from assistive technology (a sort arrow).
    const text = (node: Element | null | undefined) => {
      if (!node) return ''
      const copy = node.cloneNode(true) as Element
      for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove()
      return copy.textContent?.replace(/\s+/g, ' ').trim() ?? ''
    }
    const labelledBy = el.getAttribute('aria-labelledby')
    const name =
      el.getAttribute('aria-label') ??
      (labelledBy ? labelledBy.split(' ').map((id) => text(document.getElementById(id))).join(' ') : null) ??
      ((el as HTMLInputElement).labels?.[0] ? text((el as HTMLInputElement).labels![0]) : null) ??
      text(el)
    const style = getComputedStyle(el)
    const transparent = (colour: string) => colour === 'transparent' || /^rgba\(.*,\s*0\)$/.test(colour)
    const ring =
      style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1 && !transparent(style.outlineColor)
        ? `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`
        : style.boxShadow !== 'none'
          ? `box-shadow ${style.boxShadow}`
          : null
    return { name, ring, inDialog: !!el.closest('dialog[open]') }
  })
}

/**
 * Presses `key` (Tab, Shift+Tab) until the element named `name` has focus, and returns every
 * element passed on the way that showed no focus ring (a keyboard user would be lost there).
 */
export async function tabTo(page: Page, name: string | RegExp, key = 'Tab', max = 30): Promise<string[]> {
  const unseen: string[] = []
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key)
    const now = await focused(page)
    if (now && !now.ring) unseen.push(now.name)
    if (now && (typeof name === 'string' ? now.name === name : name.test(now.name))) return unseen
  }
  throw new Error(`${key} did not reach "${name}" in ${max} presses.`)
}

/**
 * Tabs from the top of the page to its end (where focus leaves the page or comes round again):
 * how many stops there were, and those that showed no focus ring.
 */
export async function tabThrough(page: Page, max = 100): Promise<{ stops: number; unseen: string[] }> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  const unseen: string[] = []
  try {
    for (let stops = 0; stops < max; stops++) {
      await page.keyboard.press('Tab')
      const again = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        if (!el || el === document.body || el.dataset.tabbed) return true
        el.dataset.tabbed = ''
        return false
      })
      if (again) return { stops, unseen }
      const now = await focused(page)
      if (now && !now.ring) unseen.push(now.name)
    }
    throw new Error(`Tab went on past ${max} stops.`)
  } finally {
    await page.evaluate(() => document.querySelectorAll<HTMLElement>('[data-tabbed]').forEach((el) => delete el.dataset.tabbed))
  }
}
