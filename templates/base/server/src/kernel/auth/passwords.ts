import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { Piscina } from 'piscina'
import { security } from '../config/security.js'

let pool: Piscina | undefined

/**
 * bcrypt runs on worker threads of its own, one per core, at the lowest CPU priority (nice 19):
 * a burst of logins uses every idle cycle, so logins keep bcrypt's full rate, but it never waits
 * in front of the event loop or of a database query. On libuv's pool (bcrypt's async API) four
 * hashes at a time would hold every thread that sqlite3 runs its queries on.
 */
function passwordWorkers(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./password-worker.js', import.meta.url).href,
    maxThreads: availableParallelism(),
    // No thread (8-13 MB each) is kept while no one logs in: they end after 10 s without a login,
    // and the next login waits for one to start (60-110 ms measured, on top of bcrypt's 80).
    minThreads: 0,
    idleTimeout: 10_000,
    niceIncrement: 19,
  })
  return pool
}

export const hashPassword = (password: string): Promise<string> =>
  passwordWorkers().run({ password, cost: security.bcryptCost }, { name: 'hash' })

const compare = (password: string, digest: string): Promise<boolean> => passwordWorkers().run({ password, digest }, { name: 'compare' })

let dummy: { cost: number; hash: Promise<string> } | undefined

/**
 * Compares against the stored hash, or against a throw-away hash of the same cost when there is
 * no user: an unknown e-mail then takes as long as a wrong password. The throw-away hash follows
 * the cost, which the tests lower and raise again.
 */
export async function checkPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (dummy?.cost !== security.bcryptCost) dummy = { cost: security.bcryptCost, hash: hashPassword(randomBytes(16).toString('hex')) }
  const matches = await compare(password, hash ?? (await dummy.hash))
  return matches && hash != null
}

/** Pays for the dummy hash at start-up instead of during the first login. */
export async function warmUpPasswords(): Promise<void> {
  await checkPassword('warm-up', null)
}
