import { DataTypes } from 'sequelize'
import { beforeAll, describe, expect, it } from 'vitest'
import { features } from '../src/features/index.js'
import { credentialTokens } from '../src/kernel/security/credential-tokens.js'
import { useTestApps } from './helpers/test-app.js'

const t = useTestApps()

beforeAll(async () => {
  await t.build()
})

/**
 * The models that are the account's own data, holding nothing that signs in, sets a credential
 * or confirms an address by being presented. Anything else that looks like it keeps a token must
 * be registered with the security core, or the next kind (an invitation, say) would outlive the
 * events that should void it.
 */
const NOT_TOKENS = new Set([
  'User', 'Role', 'OutboxJob', 'SecurityEvent', 'WebhookDelivery',
  // Its sealed secret signs the app's outgoing messages: presented to the app, it grants nothing.
  'WebhookEndpoint',
])

/** A column named like a token, or a key that is a 64-character hash. */
function looksLikeAToken(model: { primaryKeyAttribute: string; getAttributes(): Record<string, { type: unknown }> }): boolean {
  const attributes = model.getAttributes()
  const key = attributes[model.primaryKeyAttribute]
  const hashKey = key !== undefined && key.type instanceof DataTypes.STRING && (key.type as unknown as { options: { length?: number } }).options.length === 64
  return hashKey || Object.keys(attributes).some((name) => /hash$|token|^jti$|secret/i.test(name))
}

describe('one registry of credential tokens', () => {
  it('registers every bound model that keeps a token', async () => {
    const sequelize = await t.database()
    const registered = new Set(credentialTokens(features).map((token) => token.model.name))
    const unregistered = Object.values(sequelize.models)
      .filter((model) => !NOT_TOKENS.has(model.name) && !registered.has(model.name) && looksLikeAToken(model))
      .map((model) => model.name)
    expect(unregistered, 'register these in kernel/security/credential-tokens.ts or the layer\'s credentialTokens').toEqual([])
  })

  it('registers each kind once, and only models bound to the connection', async () => {
    const sequelize = await t.database()
    const names = credentialTokens(features).map((token) => token.model.name)
    expect(new Set(names).size).toBe(names.length)
    for (const name of names) expect(sequelize.models[name], name).toBeDefined()
  })

  it('the check sees a token: an unregistered model with a tokenHash column is caught', () => {
    const fake = { primaryKeyAttribute: 'id', getAttributes: () => ({ id: { type: DataTypes.INTEGER() }, tokenHash: { type: DataTypes.STRING(64) } }) }
    expect(looksLikeAToken(fake)).toBe(true)
    const plain = { primaryKeyAttribute: 'id', getAttributes: () => ({ id: { type: DataTypes.INTEGER() }, name: { type: DataTypes.STRING(255) } }) }
    expect(looksLikeAToken(plain)).toBe(false)
  })
})
