import { z } from 'zod'
import type { RouteDoc } from '../../kernel/index.js'
import { PROVIDERS } from './config.js'
import { redeemSchema } from './routes.js'

const tag = 'CAPTCHA'
const challenge = z.object({
  challenge: z.object({ c: z.number().int(), s: z.number().int(), d: z.number().int() }),
  token: z.string(),
  expires: z.number().int(),
})
const challengeAnswer = { 200: { description: "A Cap challenge: `c` puzzles of a salt of `s` hex digits and a target of `d`, each to be found by SHA-256; valid until `expires` (epoch ms)", body: challenge } }

/** The CAPTCHA layer's routes (Cap's only where Cap is the provider). */
export const routeDocs = (provider: string): RouteDoc[] => [
  {
    method: 'get', path: '/api/captcha', tag, summary: 'Which CAPTCHA the app asks for, and the widget\'s site key (Turnstile, hCaptcha)',
    responses: { 200: { description: 'The provider; `siteKey` null for Cap', body: z.object({ provider: z.enum(PROVIDERS), siteKey: z.string().nullable() }) } },
  },
  ...(provider === 'cap'
    ? [
        { method: 'get', path: '/api/captcha/challenge', tag, summary: 'A Cap challenge', responses: challengeAnswer, errors: [429] },
        { method: 'post', path: '/api/captcha/challenge', tag, summary: 'A Cap challenge (as the widget asks for it)', responses: challengeAnswer, errors: [429] },
        {
          method: 'post', path: '/api/captcha/redeem', tag, summary: 'Trade a solved Cap challenge for a token, sent as `captcha` where one is asked; each works once', body: redeemSchema, precognitive: false,
          responses: { 200: { description: 'The token, valid until `expires` (epoch ms)', body: z.object({ success: z.literal(true), token: z.string(), expires: z.number().int() }) } },
          errors: [429],
        },
      ] satisfies RouteDoc[]
    : []),
]
