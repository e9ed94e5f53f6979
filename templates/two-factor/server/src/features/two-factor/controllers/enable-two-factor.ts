import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, envOf, currentPasswordField, encrypt, saveUserChanges, signedInUser, validate } from '../../../kernel/index.js'
import { config } from '../config.js'
import { newTotpSecret, otpauthUrl, qrCodeSvg } from '../services/totp.js'

export const enableTwoFactorSchema = z.object({ password: currentPasswordField.optional() })

/**
 * Step one of two: a new secret, kept pending (encrypted) until a code from it is confirmed, so
 * nothing changes at login yet. Called again, it replaces the pending secret; called while
 * two-factor authentication is on, it starts moving to a new authenticator.
 */
export function enableTwoFactor(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    validate(enableTwoFactorSchema, req.body)
    const user = await signedInUser(req)
    const secret = newTotpSecret()
    await saveUserChanges(ctx, user, { twoFactorPendingSecret: encrypt(secret, envOf(config, ctx.env).ENCRYPTION_KEY, 'two-factor-secret') })
    const url = otpauthUrl(secret, user.email)
    res.json({ secret, otpauth_url: url, qr_svg: await qrCodeSvg(url) })
  }
}
