import { Secret, TOTP } from 'otpauth'
import QRCode from 'qrcode'
import { Op } from 'sequelize'
import { project, User } from '../../../kernel/index.js'
import { twoFactor } from '../settings.js'

export const newTotpSecret = () => new Secret({ size: twoFactor.secretBytes }).base32

const totpOf = (secret: string, label = '') =>
  new TOTP({
    issuer: project.name,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: twoFactor.algorithm,
    digits: twoFactor.digits,
    period: twoFactor.periodSeconds,
  })

/** What an authenticator app scans: `otpauth://totp/<app>:<email>?secret=…&issuer=<app>…`. */
export const otpauthUrl = (secret: string, email: string) => totpOf(secret, email).toString()

export const qrCodeSvg = (url: string) => QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })

/** The 30-s step a code was made for, within one step of now either way; null for a wrong code. */
export function stepOfCode(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: twoFactor.window })
  return delta === null ? null : TOTP.counter({ period: twoFactor.periodSeconds, timestamp: now }) + delta
}

/**
 * RFC 6238 §5.2: a code is accepted once. The guard is a condition on the user's last accepted
 * step inside the UPDATE that accepts a code, in the database every instance shares: of two
 * requests with the same code (on one instance or two) exactly one wins, and a code of an
 * earlier step than the last accepted one is refused too.
 */
export const stepNotUsed = (step: number) => ({ [Op.or]: [{ twoFactorLastStep: null }, { twoFactorLastStep: { [Op.lt]: step } }] })

/** Records a code of the user's confirmed secret as used; false when it (or a later one) already was. */
export async function acceptStep(userId: number, step: number): Promise<boolean> {
  const [count] = await User.update({ twoFactorLastStep: step }, { where: { id: userId, twoFactorConfirmedAt: { [Op.ne]: null }, ...stepNotUsed(step) } })
  return count === 1
}
