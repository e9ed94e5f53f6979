// The type of an extension point (features/types/<point>.ts, filled by features/<layer>/<point>.ts).
import type { Request, Response } from 'express'
import type { AppContext } from '../../context.js'
import type { SignInUser } from '../../services/users.js'

/**
 * A login step that takes over (a second factor asks for a code instead of signing in): it has
 * set what it needs (its cookie); `body` answers a JSON login, `page` is where a sign-in that
 * came by browser redirects (one through a provider) sends the browser next.
 */
export interface LoginStepAnswer {
  body: object
  page: string
}

/** `login-step.ts`: runs between a right password (or another first factor) and a session, in layer order. */
export type LoginStep = (req: Request, res: Response, ctx: AppContext, user: SignInUser, remember: boolean) => Promise<LoginStepAnswer | undefined>
