import { describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { makeUser, useTestApps } from './helpers/test-app.js'

const t = useTestApps()

describe('SQLite transactions of one process', () => {
  it('take turns without tying up the thread pool: eight at once, with writes beside them, finish long before the busy timeout', async () => {
    const sequelize = await t.database()
    const user = await makeUser()
    const started = performance.now()
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        sequelize.transaction(async (transaction) => {
          await User.findByPk(user.id, { transaction })
          await new Promise((resolve) => setTimeout(resolve, 20))
          await User.update({ name: `Turn ${i}` }, { where: { id: user.id }, transaction })
        }),
      ),
      ...Array.from({ length: 4 }, () => makeUser()),
    ])
    // Waiting for the lock inside SQLite, they held every pool thread, and all stood still until
    // the 5 s busy timeout; taking turns, they need about 8 × 20 ms.
    expect(performance.now() - started).toBeLessThan(2500)
  })
})
