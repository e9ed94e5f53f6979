import type { RequestHandler } from 'express'
import { z } from 'zod'
import { invalidToken, tokenField, translatorOf, validate } from '../../../kernel/index.js'
import { approveSignIn, openLink } from '../services/sign-ins.js'
import { markWrong } from './fields.js'

export const approveSignInSchema = z.object({ token: tokenField })

/**
 * `POST /api/auth/email-sign-in/approve`: the link, opened on another device, was confirmed there
 * ("Sign in on the device that asked?"): the link is used up, and the browser that asked signs
 * in on its next poll (controllers/sign-in-status.ts). This device gets no session.
 */
export function approveSignInRequest(): RequestHandler {
  return async (req, res) => {
    const { token } = validate(approveSignInSchema, req.body)
    const row = await openLink(token)
    if (!row || !(await approveSignIn(row))) {
      markWrong(res.locals, false)
      throw invalidToken()
    }
    res.json({ message: translatorOf(req)('passwordless.approved') })
  }
}
