import Cap from '@cap.js/server'
import { envOf, type AppContext } from '../../../kernel/index.js'
import { config } from '../config.js'
import { captchaEntries } from './entries.js'

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGQUIT']

/**
 * Cap's server (`@cap.js/server`): it makes challenges and checks their solutions and tokens; the
 * app keeps them (services/entries.ts), so it writes no file and forgets nothing on restart.
 */
export interface CapServer {
  challenge(): Promise<{ challenge: { c: number; s: number; d: number }; token?: string; expires: number }>
  redeem(token: string, solutions: number[]): Promise<{ success: boolean; token?: string; expires?: number }>
  /** Whether a token is one a solution earned and nobody has used: using it ends it. */
  validate(token: string): Promise<boolean>
}

export function capServer(ctx: Pick<AppContext, 'redis' | 'keyPrefix' | 'env'>): CapServer {
  const env = envOf(config, ctx.env)
  const entries = captchaEntries(ctx)
  const beforeExit = process.listeners('beforeExit')
  const onSignals = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]))
  const cap = new Cap({
    noFSState: true,
    storage: {
      challenges: {
        store: (token, data) => entries.put('challenge', token, JSON.stringify(data.challenge), data.expires),
        read: async (token) => {
          const data = await entries.take('challenge', token)
          // A challenge taken here has expired for Cap's own check too, which refuses a null.
          return data === null ? null : { challenge: JSON.parse(data) as { c: number; s: number; d: number }, expires: Number.MAX_SAFE_INTEGER }
        },
        delete: async () => undefined,
        deleteExpired: () => entries.dropExpired(),
      },
      tokens: {
        store: (key, expires) => entries.put('token', key, '', expires),
        get: async (key) => ((await entries.take('token', key)) === null ? null : Number.MAX_SAFE_INTEGER),
        delete: async () => undefined,
        deleteExpired: () => entries.dropExpired(),
      },
    },
  })
  // Cap listens for the process's exit signals to save its state and then exits the process, which
  // would cut the app's own graceful shutdown short; the app keeps that state itself.
  for (const listener of process.listeners('beforeExit')) if (!beforeExit.includes(listener)) process.removeListener('beforeExit', listener)
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) if (!onSignals.get(signal)!.includes(listener)) process.removeListener(signal, listener)
  }
  return {
    challenge: () => cap.createChallenge({ challengeCount: env.CAPTCHA_CHALLENGE_COUNT, challengeDifficulty: env.CAPTCHA_DIFFICULTY }),
    redeem: (token, solutions) => cap.redeemChallenge({ token, solutions }),
    validate: async (token) => (await cap.validateToken(token)).success,
  }
}
