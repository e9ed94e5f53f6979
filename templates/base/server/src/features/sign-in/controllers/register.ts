import type { RequestHandler } from 'express'
import { UniqueConstraintError } from 'sequelize'
import { z } from 'zod'
import { createAccount, emailField, fieldError, hashNewPassword, identityOf, mayMail, nameField, newPasswordField, requestLocale, serializeUser, signIn, translatorOf, User, validateAsync, type AppContext } from '../../../kernel/index.js'

const TAKEN = 'auth.emailTaken'
const emailTaken = () => fieldError('email', TAKEN)

/**
 * With verification off a taken address is a validation error (live validation shows it as the
 * field is left); with it on, nothing may tell a taken address from a free one.
 */
export const registerSchema = (ctx: Pick<AppContext, 'auth'>) =>
  z.object({
    name: nameField,
    email: ctx.auth.requireEmailVerification
      ? emailField
      : emailField.refine(async (email) => !(await User.findOne({ where: { email }, attributes: ['id'] })), TAKEN),
    password: newPasswordField,
  })

export const registeredMessage = 'auth.registered'

/**
 * Verification off: the account is signed in at once, so a taken address is a 422.
 * Verification on: every valid request does the same work (hash the password, queue the job)
 * and gets the same 202; nothing here reads the users table, so neither the answer, its timing
 * nor an id sequence can tell a taken address from a free one. The job decides what to mail.
 */
export function register(ctx: AppContext): RequestHandler {
  const schema = registerSchema(ctx)
  return async (req, res) => {
    const input = await validateAsync(schema, req.body)
    const passwordHash = await hashNewPassword(ctx, input.password)

    if (ctx.auth.requireEmailVerification) {
      // Past the address's cap (kernel/services/mail-quota.ts) the answer is the same and nothing is queued.
      if (await mayMail(ctx, input.email)) await ctx.queue.dispatch('user:verify-email', { email: input.email, reason: 'register', name: input.name, passwordHash, locale: requestLocale(req) })
      res.status(202).json({ message: translatorOf(req)(registeredMessage) })
      return
    }

    const user = await createAccount(ctx, { ...input, passwordHash, role: 'user', verified: false }).catch((error: unknown) => {
      throw error instanceof UniqueConstraintError ? emailTaken() : error
    })
    const json = serializeUser(user)
    const accessToken = await signIn(req, res, ctx, identityOf(json), false)
    res.status(201).json({ user: json, access_token: accessToken })
  }
}
