import type { AppContext } from '../../../kernel/index.js'
import { configuredProviders } from './providers/index.js'
import type { OAuthProviderSetup } from './providers/types.js'

// Per app context, so each provider's discovery is made once and tests' apps keep their own.
const registries = new WeakMap<object, OAuthProviderSetup[]>()

export function providersOf(ctx: Pick<AppContext, 'env'>): OAuthProviderSetup[] {
  let providers = registries.get(ctx.env)
  if (!providers) registries.set(ctx.env, (providers = configuredProviders(ctx)))
  return providers
}

/** A configured provider by its id in the URL; an unknown or unconfigured one is undefined. */
export const findProvider = (ctx: Pick<AppContext, 'env'>, id: unknown) => providersOf(ctx).find((provider) => provider.id === id)

/** `{BASE_URL}/api/auth/oauth/<provider>/callback`: what to register at each provider. */
export const callbackUrl = (ctx: Pick<AppContext, 'env'>, id: string) => `${ctx.env.BASE_URL.replace(/\/+$/, '')}/api/auth/oauth/${id}/callback`
