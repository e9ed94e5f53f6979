import type { RequestHandler } from 'express'
import type { AppContext } from '../../../kernel/index.js'
import { providersOf } from '../services/provider-registry.js'

/** The providers the environment configures, for the login and register pages' buttons. */
export function listProviders(ctx: AppContext): RequestHandler {
  return (_req, res) => {
    res.json({ data: providersOf(ctx).map((provider) => ({ provider: provider.id, name: provider.name })) })
  }
}
