import { describe, expect, it } from 'vitest'
import { checkPassword, hashPassword } from '../src/kernel/auth/passwords.js'
import { useSpecifiedBcryptCost } from './helpers/bcrypt-cost.js'
import { useTestApps } from './helpers/test-app.js'

const t = useTestApps()
// The cost itself, and a burst of hashes that take their real time.
useSpecifiedBcryptCost()

describe('password hashing', () => {
  it('hashes with bcrypt cost 10 and checks the hash', async () => {
    const hash = await hashPassword('correct horse battery')
    expect(hash).toMatch(/^\$2[aby]\$10\$/)
    expect(await checkPassword('correct horse battery', hash)).toBe(true)
    expect(await checkPassword('wrong horse battery', hash)).toBe(false)
    expect(await checkPassword('correct horse battery', null)).toBe(false)
  })

  it('a burst of hashes never makes a database query wait', async () => {
    const sequelize = await t.database()
    await hashPassword('warm the threads up')
    // Eight hashes would hold all four of libuv's threads twice over, and sqlite3 runs its
    // queries on those threads: the query must not come after the first hash.
    const hashes = Array.from({ length: 8 }, (_, i) => hashPassword(`burst password ${i}`))
    let hashed = 0
    for (const hash of hashes) void hash.then(() => hashed++)
    await sequelize.query('SELECT 1')
    expect(hashed).toBe(0)
    await Promise.all(hashes)
    expect(hashed).toBe(8)
  })
})
