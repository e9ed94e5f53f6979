import { DataTypes, type CreationOptional } from 'sequelize'
import { defineFeature } from '../../kernel/index.js'
import { passkeyEvents } from './events.js'
import { config } from './config.js'
import { passkeyEndpoints } from './controllers/passkey-endpoints.js'
import * as createPasskeys from './migrations/0001-create-passkeys.js'
import { Passkey } from './models/passkey.js'
import { PasskeyChallenge } from './models/passkey-challenge.js'
import { passkeyAccountRoutes, passkeyConfirmRoutes, passkeySignInRoutes } from './routes.js'
import { de } from './messages/de.js'
import { en } from './messages/en.js'
import { after } from './order.js'

declare module '../../kernel/models/user.js' {
  interface User {
    /** How many passkeys the user has, kept with every add and removal (services/passkey-rows.ts). */
    passkeyCount: CreationOptional<number>
  }
}

/** Passkeys (WebAuthn): added behind step-up, used to sign in without a password and to confirm it is you. */
export const feature = defineFeature({
  name: 'passkeys',
  after,
  messages: { en, de },
  config,
  models: {
    models: [Passkey, PasskeyChallenge],
    userAttributes: {
      passkeyCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
  },
  // Released migrations keep their names: the database records them by name.
  migrations: [{ name: 'passkeys-0001-create-passkeys', ...createPasskeys }],
  // `passkeys`: how many passkeys the user has registered.
  userFields: {
    columns: ['u."passkeyCount"'],
    fromRow: (row) => ({ passkeys: Number(row.passkeyCount) }),
    fromModel: (user) => ({ passkeys: user.passkeyCount }),
  },
  openapi: async () => (await import('./openapi.js')).routeDocs,
  routes: {
    auth: (router, ctx) => router.use('/passkey', passkeySignInRoutes(ctx)),
    account: (router, ctx, passwordChecked) => router.use('/passkeys', passkeyAccountRoutes(ctx, passwordChecked)),
    root: (app, ctx) => app.get('/.well-known/passkey-endpoints', passkeyEndpoints(ctx)),
  },
  // A registration or sign-in ceremony under way.
  credentialTokens: [{ model: PasskeyChallenge, grants: 'sign-in', pending: true }],
  signInMethods: [{ name: 'passkey', count: (userId, transaction) => Passkey.count({ where: { userId }, transaction }) }],
  confirmMethods: [
    {
      offered: async (userId) => ((await Passkey.count({ where: { userId } })) > 0 ? ['passkey'] : []),
      routes: (router, ctx, passwordChecked) => router.use('/confirm/passkey', passkeyConfirmRoutes(ctx, passwordChecked)),
    },
  ],
  events: passkeyEvents,
})
