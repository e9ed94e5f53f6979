import { defineFeature } from '../../kernel/index.js'
import { signInRoutes } from './routes.js'

/** Registration and sign-in with a password, renewing the session, signing out, and the password reset link. */
export const feature = defineFeature({
  name: 'sign-in',
  routes: { auth: signInRoutes },
  openapi: async (ctx) => (await import('./openapi.js')).signInRouteDocs(ctx),
})
