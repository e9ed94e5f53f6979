import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'

// The system's Chromium (Debian: `apt-get install chromium`); nothing is downloaded.
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * A fresh profile every run: no cookies or storage left over from an earlier one. `locale` is the
 * browser's language (navigator.languages and Accept-Language), `en-US` unless given.
 */
export async function launchBrowser(options: { locale?: string } = {}) {
  if (!fs.existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: install it (apt-get install chromium) or set CHROMIUM_PATH.`)
  }
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-chromium-'))
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args,
    viewport: { width: 1280, height: 800 },
    locale: options.locale ?? 'en-US',
  })
  // Fail in seconds, not half a minute: every step here is local.
  context.setDefaultTimeout(10_000)
  const page = context.pages()[0] ?? (await context.newPage())
  return {
    context,
    page,
    async close() {
      await context.close()
      fs.rmSync(userDataDir, { recursive: true, force: true })
    },
  }
}
