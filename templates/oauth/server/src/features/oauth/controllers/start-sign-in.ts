import type { RequestHandler } from 'express'
import { z } from 'zod'
import { type AppContext, notFound, validate } from '../../../kernel/index.js'
import { startFlow } from '../services/flows.js'
import { findProvider } from '../services/provider-registry.js'
import { redirectField } from '../services/redirects.js'
import { providerUnavailable } from './answers.js'

export const startSignInSchema = z.object({
  redirect: redirectField.optional(),
  remember: z.enum(['0', '1', 'true', 'false'], { error: 'oauth.remember' }).optional(),
})

/** `GET /api/auth/oauth/:provider`: off to the provider, a flow started. */
export function startSignIn(ctx: AppContext): RequestHandler {
  return async (req, res) => {
    const provider = findProvider(ctx, req.params.provider)
    if (!provider) throw notFound()
    const query = validate(startSignInSchema, req.query)
    const remember = query.remember === '1' || query.remember === 'true'
    const url = await startFlow(res, ctx, provider, { redirect: query.redirect ?? null, remember }).catch((error: unknown) => {
      ctx.logger.warn({ provider: provider.id, error: String(error) }, 'oauth: provider unavailable')
      return null
    })
    res.set('Cache-Control', 'no-store')
    res.redirect(302, url ? url.href : providerUnavailable('/login'))
  }
}
