import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMailer } from '../src/kernel/mail/mailer.js'
import { memoryLogger, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

describe('mail folder (no SMTP_URL)', () => {
  it('a reader polling the folder never sees a partial message', async () => {
    const mailDir = t.tempDir('app-mail-')
    const mailer = createMailer({ smtpUrl: undefined, from: 'app@example.test', mailDir, logger: memoryLogger() })
    // Bodies of a few MB are written in several chunks, each an await: a file written in place
    // would be seen empty or cut between them.
    const body = 'x'.repeat(3 * 1024 * 1024)
    const seen = new Map<string, number>()
    const partial: string[] = []
    let sending = true
    const poller = (async () => {
      while (sending) {
        for (const name of fs.readdirSync(mailDir).filter((entry) => entry.endsWith('.eml'))) {
          let source: string
          try {
            source = fs.readFileSync(path.join(mailDir, name), 'utf8')
          } catch {
            continue
          }
          seen.set(name, (seen.get(name) ?? 0) + 1)
          if (!/--\n$/.test(source) || !source.includes(body)) partial.push(`${name}: ${source.length} characters`)
        }
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    for (let i = 0; i < 8; i++) await mailer.send({ to: `reader-${i}@example.test`, subject: `Message ${i}`, text: body, html: `<p>${i}</p>` })
    sending = false
    await poller
    expect(partial).toEqual([])
    // The poller did look while messages were being written, and every message arrived whole.
    expect(seen.size).toBeGreaterThan(0)
    const files = fs.readdirSync(mailDir)
    expect(files.filter((name) => name.endsWith('.eml'))).toHaveLength(8)
    expect(files.filter((name) => !name.endsWith('.eml'))).toEqual([])
  })
})
