// How a feature slice reads its own settings out of what the kernel holds for every layer:
// `ctx.env`, `ctx.rateLimits` and the cookie names carry base's names typed and the layers' as
// they came (the kernel knows no layer), so a slice asks for its own through its own `config`.
// The names are checked when asked for: a slice reads none that its object does not give, and
// none that the running app lacks (a layer missing from the registry it was started with).
import type { Transaction } from 'sequelize'
import { cookieNames, type CookieNames, type CookieNameSettings } from './auth/cookies.js'
import type { Env } from './config/env.js'
import type { RateLimitSettings } from './config/rate-limits.js'
import type { FeatureConfig, FeatureJobs, OwnCookies, OwnEnv, OwnJobPayloads, OwnRateLimits } from './feature.js'
import type { JobDeps, JobQueue } from './jobs/types.js'

const holdsAll = (record: object, names: readonly string[]) => names.every((name) => name in record)

function missing(what: string, record: object, names: readonly string[]): Error {
  const absent = names.filter((name) => !(name in record))
  return new Error(`The app's ${what} lack ${absent.join(', ')}: is the layer that names them in the registry the app was started with?`)
}

const hasEnv = <C extends FeatureConfig>(env: Env, config: C): env is Env & OwnEnv<C> => holdsAll(env, envNames(config))
const envNames = (config: FeatureConfig) => [...Object.keys(config.env ?? {}), ...(config.secrets ?? [])]

/** `ctx.env` with the layer's own variables and secrets typed, as its `config` reads them. */
export function envOf<C extends FeatureConfig>(config: C, env: Env): Env & OwnEnv<C> {
  if (!hasEnv(env, config)) throw missing('variables', env, envNames(config))
  return env
}

const hasLimits = <C extends FeatureConfig>(limits: RateLimitSettings, config: C): limits is RateLimitSettings & OwnRateLimits<C> =>
  holdsAll(limits, Object.keys(config.rateLimits ?? {}))

/** `ctx.rateLimits` with the layer's own limits typed, by the names its `config` gives them. */
export function rateLimitsOf<C extends FeatureConfig>(config: C, settings: { rateLimits: RateLimitSettings }): RateLimitSettings & OwnRateLimits<C> {
  const limits = settings.rateLimits
  if (!hasLimits(limits, config)) throw missing('rate limits', limits, Object.keys(config.rateLimits ?? {}))
  return limits
}

type AllCookieNames = ReturnType<typeof cookieNames>
const hasCookies = <C extends FeatureConfig>(names: AllCookieNames, config: C): names is AllCookieNames & CookieNames & OwnCookies<C> =>
  holdsAll(names, Object.keys(config.cookies ?? {}))

/** The app's cookie names with the layer's own typed, by the names its `config` gives them. */
export function cookieNamesOf<C extends FeatureConfig>(config: C, settings: CookieNameSettings): CookieNames & OwnCookies<C> {
  const names = cookieNames(settings)
  if (!hasCookies(names, config)) throw missing('cookies', names, Object.keys(config.cookies ?? {}))
  return names
}

/**
 * Queues the layer's own jobs, each checked against the payload its handler (in `jobs`, the
 * layer's manifest field) takes: the one way a slice dispatches, so the queue hands each handler
 * what it was typed for.
 */
export function jobDispatcher<H extends FeatureJobs>(_jobs: (deps: JobDeps) => H) {
  return <K extends keyof OwnJobPayloads<{ jobs: typeof _jobs }> & `${string}:${string}`>(
    queue: Pick<JobQueue, 'dispatch'>,
    name: K,
    data: OwnJobPayloads<{ jobs: typeof _jobs }>[K],
    transaction?: Transaction,
  ): Promise<void> => queue.dispatch<`${string}:${string}`>(name, data, transaction)
}
