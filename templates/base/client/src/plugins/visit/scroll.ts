import { nextTick } from 'vue'

// Inertia's convention: elements that scroll on their own are marked `scroll-region`.
const REGION = '[scroll-region]'

export interface ScrollSnapshot {
  x: number
  y: number
  regions: [number, number][]
}

export function saveScroll(): ScrollSnapshot {
  return {
    x: window.scrollX,
    y: window.scrollY,
    regions: [...document.querySelectorAll(REGION)].map((el) => [el.scrollLeft, el.scrollTop]),
  }
}

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()))

export async function restoreScroll(snapshot: ScrollSnapshot): Promise<void> {
  // vue-router applies its scrollBehavior a tick after the navigation and the page renders in
  // the same tick: restoring any earlier would be undone.
  await nextTick()
  await frame()
  await frame()
  window.scrollTo(snapshot.x, snapshot.y)
  document.querySelectorAll(REGION).forEach((el, i) => {
    const pos = snapshot.regions[i]
    if (pos) el.scrollTo(pos[0], pos[1])
  })
}
