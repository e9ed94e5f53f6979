import supertest from 'supertest'
import { describe, expect, it } from 'vitest'
import { features } from '../src/features/index.js'
import type { UserRow } from '../src/kernel/services/users.js'
import { uniqueEmail, useTestApps } from './helpers/test-app.js'

// Its own file because it reads the layer registry, which makes a variant run repeat it in every
// variant: register.test.ts, which does not, runs once per database.
const t = useTestApps()
// Base's fields and those the feature layers declare (features/<layer>/user-fields.ts): never the password hash.
const featureKeys = features.flatMap((feature) => Object.keys(feature.userFields?.fromRow({} as UserRow) ?? {}))
const userKeys = ['createdAt', 'email', 'emailVerifiedAt', 'id', 'locale', 'name', 'role', 'roleId', 'updatedAt', ...featureKeys].sort()

describe('the user JSON', () => {
  it("carries base's fields and those the layers declare, never the password hash", async () => {
    const { app } = await t.build({ auth: { requireEmailVerification: false } })
    const res = await supertest(app).post('/api/auth/register').send({ name: 'Ada', email: uniqueEmail('json'), password: 'password1' })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body.user).sort()).toEqual(userKeys)
  })
})
