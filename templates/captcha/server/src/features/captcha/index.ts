import { defineFeature, envOf, type AppContext } from '../../kernel/index.js'
import { config } from './config.js'
import { captchaGates } from './gates.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'
import * as createCaptchaEntries from './migrations/0001-create-captcha-entries.js'
import { CaptchaEntry } from './models/captcha-entry.js'
import { captchaRoutes } from './routes.js'
import { capServer, type CapServer } from './services/cap.js'
import { verifier } from './services/verifier.js'

/** One Cap server per app (a test builds several), shared by its routes and its gates. */
const servers = new WeakMap<AppContext, CapServer>()
const capOf = (ctx: AppContext) => {
  let cap = servers.get(ctx)
  if (!cap) servers.set(ctx, (cap = capServer(ctx)))
  return cap
}

/** Where each provider's widget loads from and talks to, for the pages' Content-Security-Policy. */
const SOURCES = {
  // Cap's widget solves in Web Workers made from a blob: URL, with a WebAssembly module it compiles.
  cap: { workerSrc: ["'self'", 'blob:'], scriptSrc: ["'wasm-unsafe-eval'"] },
  turnstile: { scriptSrc: ['https://challenges.cloudflare.com'], frameSrc: ['https://challenges.cloudflare.com'] },
  hcaptcha: {
    scriptSrc: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    frameSrc: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    styleSrc: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    connectSrc: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  },
  off: {},
} as const

/**
 * A CAPTCHA on registration and the password reset request, and on login after failures (gates
 * on base's actions): Cap's proof-of-work, answered by the app itself under /api/captcha, or
 * Turnstile or hCaptcha, verified at their siteverify. Without a good answer: 422 on `captcha`.
 */
export const feature = defineFeature({
  name: 'captcha',
  messages: { en, de },
  config,
  models: { models: [CaptchaEntry] },
  // Released migrations keep their names: the database records them by name.
  migrations: [{ name: 'captcha-0001-create-captcha-entries', ...createCaptchaEntries }],
  openapi: async (ctx) => (await import('./openapi.js')).routeDocs(envOf(config, ctx.env).CAPTCHA_PROVIDER),
  routes: {
    api: (router, ctx) => captchaRoutes(router, ctx, capOf(ctx)),
  },
  gates: (ctx) => captchaGates(ctx, verifier(ctx, capOf(ctx))),
  contentSources: (ctx) => SOURCES[envOf(config, ctx.env).CAPTCHA_PROVIDER],
})
