import { randomBytes } from 'node:crypto'
import bcrypt from 'bcrypt'
import { security } from '../config/security.js'

export const hashPassword = (password: string) => bcrypt.hash(password, security.bcryptCost)

let dummyHash: Promise<string> | undefined

/**
 * Compares against the stored hash, or against a throw-away hash of the same cost when there is
 * no user: an unknown e-mail then takes as long as a wrong password.
 */
export async function checkPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
  const matches = await bcrypt.compare(password, hash ?? (await dummyHash))
  return matches && hash != null
}

/** Pays for the dummy hash at start-up instead of during the first login. */
export async function warmUpPasswords(): Promise<void> {
  await checkPassword('warm-up', null)
}
