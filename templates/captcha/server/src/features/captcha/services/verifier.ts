import { envOf, type AppContext } from '../../../kernel/index.js'
import { config, siteverifyUrl } from '../config.js'
import type { CapServer } from './cap.js'
import { siteverify } from './siteverify.js'

/** Whether an answer (a Cap token, a Turnstile or hCaptcha response) is good, from the given IP; each works once. */
export type Verifier = (answer: string, ip: string) => Promise<boolean>

export function verifier(ctx: Pick<AppContext, 'env'>, cap: CapServer): Verifier {
  const env = envOf(config, ctx.env)
  const provider = env.CAPTCHA_PROVIDER
  if (provider === 'turnstile' || provider === 'hcaptcha') {
    const url = siteverifyUrl(provider, env.CAPTCHA_VERIFY_URL)
    return (answer, ip) => siteverify(url, env.CAPTCHA_SECRET, answer, ip)
  }
  return (answer) => cap.validate(answer)
}
