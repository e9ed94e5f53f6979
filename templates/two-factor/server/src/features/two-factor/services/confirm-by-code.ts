import { z } from 'zod'
import { type AppContext, type AppFeature, markWrongConfirmation, msg, User, validate } from '../../../kernel/index.js'
import { checkCode, checkRecoveryCode, countWrongSecondFactor, refuseWhileLocked } from './second-factor.js'

type ConfirmMethod = NonNullable<AppFeature['confirmMethods']>[number]

const schema = z.object({
  code: z
    .string({ error: msg('validation.string', { field: 'code' }) })
    .trim()
    .min(1, msg('validation.required', { field: 'code' }))
    .max(64, 'twoFactor.codeInvalid'),
})

/**
 * Confirming it is you (step-up) with `{code}`: six digits from the authenticator, or one recovery
 * code. A wrong one counts like a wrong password on the account routes and like a wrong code at a
 * challenge (the account-wide lockout), so step-up is no side door for guessing codes.
 */
export const confirmByCode: ConfirmMethod = {
  field: 'code',
  async offered(userId) {
    const user = await User.findByPk(userId, { attributes: ['id', 'twoFactorConfirmedAt'] })
    return user?.twoFactorConfirmedAt ? ['totp'] : []
  },
  async check(req, res, ctx: AppContext, userId, value) {
    const { code } = validate(schema, { code: value })
    await refuseWhileLocked(res, userId)
    const user = await User.findByPk(userId)
    if (!user?.twoFactorConfirmedAt) return false
    const digits = code.replace(/\s+/g, '')
    const wrong = /^\d{6}$/.test(digits) ? await checkCode(ctx, user, digits) : await checkRecoveryCode(user, code, 'code')
    if (!wrong) return true
    markWrongConfirmation(res, /^\d{6}$/.test(digits) ? 'totp' : 'recovery_code')
    await countWrongSecondFactor(ctx, req, userId)
    throw wrong
  },
}
