import { promises as dns } from 'node:dns'
import { describe, expect, it } from 'vitest'
import { takeRefusals } from './helpers/loopback-only.js'
import { runScript, scratchDatabase, testSecrets } from './helpers/processes.js'
import { uniqueEmail } from './helpers/test-app.js'

// 192.0.2.1 (TEST-NET-1) and example.com are refused before any packet leaves.
describe('the tests stay on loopback (setup/loopback-only.ts)', () => {
  it('refuses a connection or a name lookup elsewhere, naming the host', async () => {
    const error = await fetch('http://192.0.2.1/', { signal: AbortSignal.timeout(2000) }).then(
      () => undefined,
      (failed: Error) => failed.cause ?? failed,
    )
    expect(error).toMatchObject({ code: 'ERR_LOOPBACK_ONLY', message: expect.stringContaining('refused 192.0.2.1:80') })
    await expect(dns.lookup('example.com')).rejects.toMatchObject({ code: 'ERR_LOOPBACK_ONLY' })
    // Taken here: left for the set-up, they would fail this test.
    expect(takeRefusals()).toEqual(['192.0.2.1:80', 'example.com'])
  })

  it('fails a process a test starts that reaches out: user:create asking the real range API', async () => {
    const scratch = await scratchDatabase()
    try {
      const env = { ...testSecrets(), DATABASE_URL: scratch.url, PWNED_PASSWORDS: 'on' }
      expect((await runScript('server/src/cli/migrate.ts', [], env)).code).toBe(0)
      const created = await runScript('server/src/cli/user-create.ts', ['--name', 'Ada', '--email', uniqueEmail('loopback'), '--password', 'a fine fresh secret'], env)
      expect(created.stderr).toMatch(/^loopback only: refused api\.pwnedpasswords\.com: /m)
      expect(created.code).toBe(1)
    } finally {
      await scratch.drop()
    }
  })
})
