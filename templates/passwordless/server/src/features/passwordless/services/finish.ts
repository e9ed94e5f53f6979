import type { Request, Response } from 'express'
import { type AppContext, findSignInUser, loginStepAnswer, signIn, type User } from '../../../kernel/index.js'

/** What a session started by an e-mailed link or code records as its way in. */
export const EMAIL_FACTOR = 'email'

/**
 * Finishes a sign-in as a password's does (kernel/auth/sign-in.ts): the layers' login steps first,
 * so an account with a second factor is asked for it, then a session with both cookies, the
 * new-device notice and the `sign_in` event. The body a login answers with.
 */
export async function finishSignIn(req: Request, res: Response, ctx: AppContext, user: User, remember: boolean): Promise<object | null> {
  const signInUser = await findSignInUser(user.email)
  if (!signInUser) return null
  const step = await loginStepAnswer(req, res, ctx, signInUser, remember, EMAIL_FACTOR)
  if (step) return step.body
  const accessToken = await signIn(req, res, ctx, signInUser.identity, remember, EMAIL_FACTOR)
  return { user: signInUser.json, access_token: accessToken }
}
