import type { Request, Response } from 'express'
import { type AppContext, clearCookie, cookieNamesOf, hashToken, newOneTimeToken, readSignedCookie, setCookie } from '../../../kernel/index.js'
import { config } from '../config.js'
import { emailSignIn } from '../settings.js'

// The browser that asks for a sign-in mail gets a random token in a signed, httpOnly cookie; the
// mail's row keeps its hash. The link then signs in that browser alone: opened anywhere else, it
// only lets that browser in, once confirmed there (controllers/approve-sign-in.ts).

const nameOf = (ctx: AppContext) => cookieNamesOf(config, ctx).emailSignIn

/** Sets a fresh binding on every request, whatever the address: its hash goes to the mail job. */
export function bindBrowser(res: Response, ctx: AppContext): string {
  const token = newOneTimeToken()
  setCookie(res, ctx, nameOf(ctx), token, emailSignIn.lifeSeconds)
  return hashToken(token)
}

/** The hash of this browser's binding, or null without one. */
export function bindingOf(req: Request, ctx: AppContext): string | null {
  const token = readSignedCookie(req, ctx, nameOf(ctx)).value
  return token ? hashToken(token) : null
}

export const unbindBrowser = (res: Response, ctx: AppContext) => clearCookie(res, ctx, nameOf(ctx))
