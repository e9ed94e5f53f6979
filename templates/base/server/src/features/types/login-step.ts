// The type of an extension point (features/types/<point>.ts, filled by features/<layer>/<point>.ts).
import type { Request, Response } from 'express'
import type { AppContext } from '../../context.js'
import type { SignInUser } from '../../services/users.js'

/**
 * `login-step.ts`: runs between a right password and a session, in layer order. Returning true
 * means it answered the request itself (a second factor asks for a code instead of signing in).
 */
export type LoginStep = (req: Request, res: Response, ctx: AppContext, user: SignInUser, remember: boolean) => Promise<boolean>
