import { defineFeature } from '../../kernel/index.js'
import { config } from './config.js'
import { passwordlessJobs } from './jobs.js'
import * as createEmailSignIns from './migrations/0001-create-email-sign-ins.js'
import { EmailConfirmCode } from './models/email-confirm-code.js'
import { EmailSignIn } from './models/email-sign-in.js'
import { passwordlessRoutes } from './routes.js'
import { confirmByEmail } from './services/confirm-by-email.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'

/** Sign-in by a link or a code sent by e-mail, a way in every account has, and a way to confirm it's you for those with no other. */
export const feature = defineFeature({
  name: 'passwordless',
  messages: { en, de },
  config,
  models: { models: [EmailSignIn, EmailConfirmCode] },
  // Released migrations keep their names: the database records them by name.
  migrations: [{ name: 'passwordless-0001-create-email-sign-ins', ...createEmailSignIns }],
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: { auth: passwordlessRoutes },
  jobs: passwordlessJobs,
  credentialTokens: [
    // A mailed link and code, and a link confirmed on another device that waits for the asking browser.
    { model: EmailSignIn, grants: 'sign-in', pending: true, mailedTo: 'email' },
    { model: EmailConfirmCode, grants: 'credential', pending: true },
  ],
  // Every account has its address: e-mail may be its only way in, so no other one is ever the last.
  signInMethods: [{ name: 'email', count: async () => 1 }],
  confirmMethods: [confirmByEmail],
})
