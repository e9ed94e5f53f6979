import { randomInt } from 'node:crypto'
import type { Transaction } from 'sequelize'
import { twoFactor } from '../settings.js'
import { TwoFactorRecoveryCode } from '../models/two-factor-recovery-code.js'
import { hashToken } from '../../../kernel/index.js'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** `ABCD-EFGH-IJKL-MNOP`: 16 base32 characters, 80 random bits. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: twoFactor.recoveryCodeLength }, () => ALPHABET[randomInt(ALPHABET.length)])
  return chars.join('').replace(/(.{4})(?!$)/g, '$1-')
}

/** Case, spaces and dashes do not matter when a code is typed back. */
const normalise = (code: string) => code.toUpperCase().replace(/[\s-]+/g, '')

/** A fresh set for the user; the old codes stop working. Returns the plaintext, shown once. */
export async function replaceRecoveryCodes(userId: number, transaction?: Transaction): Promise<string[]> {
  const codes = Array.from({ length: twoFactor.recoveryCodeCount }, newRecoveryCode)
  await TwoFactorRecoveryCode.destroy({ where: { userId }, transaction })
  await TwoFactorRecoveryCode.bulkCreate(
    codes.map((code) => ({ userId, codeHash: hashToken(normalise(code)) })),
    { transaction },
  )
  return codes
}

/** Uses up one code: the delete is the single statement that decides, so of two concurrent uses one wins. */
export async function useRecoveryCode(userId: number, code: string): Promise<boolean> {
  return (await TwoFactorRecoveryCode.destroy({ where: { userId, codeHash: hashToken(normalise(code)) } })) === 1
}
