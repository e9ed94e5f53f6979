import type { RequestHandler } from 'express'
import { z } from 'zod'
import { clearAuthCookies, clientOf, cookieNames, findUserById, identityOf, msg, readSignedCookie, rotateRefreshToken, serializeUser, setTokenCookies, unauthenticated, validate, type AppContext } from '../../../kernel/index.js'

export const refreshTokenSchema = z.object({ refresh_token: z.string({ error: msg('validation.string', { field: 'refresh_token' }) }).max(4096, 'validation.tokenInvalid').optional() })

/** Rotation: the presented token is revoked and its successor returned (see kernel/auth/refresh-tokens.ts). */
export function refreshToken(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const { refresh_token: fromBody } = validate(refreshTokenSchema, req.body)
    const presented = fromBody ?? readSignedCookie(req, ctx, cookieNames(ctx).refresh).value
    const issued = presented ? await rotateRefreshToken(ctx, presented, clientOf(req)) : null
    const user = issued?.row.userId ? await findUserById(issued.row.userId) : null
    if (!issued || !user) {
      // A dead cookie is removed; a bad token in the body says nothing about the cookies.
      if (fromBody === undefined) clearAuthCookies(res, ctx)
      throw unauthenticated()
    }
    const json = serializeUser(user)
    const accessToken = setTokenCookies(res, ctx, identityOf(json), issued)
    res.json({
      user: json,
      access_token: accessToken,
      ...(fromBody !== undefined ? { refresh_token: issued.token } : {}),
    })
  }
}
