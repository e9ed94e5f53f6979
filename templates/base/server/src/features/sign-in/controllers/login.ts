import type { RequestHandler } from 'express'
import { z } from 'zod'
import { checkPassword, currentPasswordField, emailField, events, fieldError, findSignInUser, HttpError, loginStepAnswer, matchesPendingRegistration, recordCredentialEvent, rememberField, signIn, validate, type AppContext, type RateLimiters } from '../../../kernel/index.js'

export const loginSchema = z.object({ email: emailField, password: currentPasswordField, remember: rememberField })

const notVerified = () =>
  new HttpError(403, 'auth.unverified', {
    email: ['auth.unverifiedHint'],
  })

/**
 * An unknown e-mail and a wrong password get the same answer after the same bcrypt work. The
 * unverified-address 403 is given only to someone who knows the password.
 */
export function login(ctx: AppContext, limiters: RateLimiters): RequestHandler {
  return async (req, res) => {
    const input = validate(loginSchema, req.body)
    const user = await findSignInUser(input.email)
    // Register-then-login tells no address apart: a password of a pending registration gets the
    // unverified answer, whether the address is free, pending or has an account, unless it is
    // also the verified account's own (its owner, who chose the same password again, signs in;
    // knowing it tells a prober nothing new). The account's password is compared in every case,
    // so the answer costs the same work whatever the address holds.
    const pending = ctx.auth.requireEmailVerification && user !== undefined && (await matchesPendingRegistration(user.identity.id, input.password))
    const correct = await checkPassword(input.password, user?.passwordHash)
    if (pending && !(correct && user!.json.emailVerifiedAt)) throw notVerified()
    if (!correct || !user) {
      // On the account's activity page: a wrong password shows there, an unknown address has no page.
      if (user) await recordCredentialEvent(ctx, events.signInFailed, user.identity.id, { req, meta: { factor: 'password' } })
      throw fieldError('email', 'auth.failed')
    }
    if (ctx.auth.requireEmailVerification && !user.json.emailVerifiedAt) throw notVerified()
    await limiters.clearLoginFailures(req)
    const step = await loginStepAnswer(req, res, ctx, user, input.remember ?? false, 'password')
    if (step) return void res.json(step.body)
    const accessToken = await signIn(req, res, ctx, user.identity, input.remember ?? false)
    res.json({ user: user.json, access_token: accessToken })
  }
}
