import type { RequestHandler, Router } from 'express'
import { z } from 'zod'
import { envOf, fieldError, ipOf, limiterFactory, rateLimitsOf, validate, type AppContext } from '../../kernel/index.js'
import { config } from './config.js'
import type { CapServer } from './services/cap.js'

export const redeemSchema = z.object({
  token: z.string().min(1).max(100),
  solutions: z.array(z.number().int().nonnegative()).max(500),
})

/**
 * Under /api/captcha: what the widget needs to show itself, and Cap's own protocol (the widget
 * asks `challenge` by POST, a GET answers the same), each limited per IP as anyone may call them.
 */
export function captchaRoutes(router: Router, ctx: AppContext, cap: CapServer): void {
  const env = envOf(config, ctx.env)
  const perIp = limiterFactory(ctx)({ name: 'captcha-ip', limit: rateLimitsOf(config, ctx).captchaPerIp, key: ipOf })
  router.get('/captcha', (_req, res) => void res.json({ provider: env.CAPTCHA_PROVIDER, siteKey: env.CAPTCHA_SITE_KEY || null }))
  if (env.CAPTCHA_PROVIDER !== 'cap') return
  const challenge: RequestHandler = async (_req, res) => void res.json(await cap.challenge())
  router.get('/captcha/challenge', perIp, challenge)
  router.post('/captcha/challenge', perIp, challenge)
  router.post('/captcha/redeem', perIp, async (req, res) => {
    const { token, solutions } = validate(redeemSchema, req.body)
    const redeemed = await cap.redeem(token, solutions)
    if (!redeemed.success || !redeemed.token) throw fieldError('solutions', 'captcha.wrongSolution')
    res.json({ success: true, token: redeemed.token, expires: redeemed.expires })
  })
}
