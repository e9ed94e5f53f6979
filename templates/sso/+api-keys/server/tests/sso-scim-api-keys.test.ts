import type { Express } from 'express'
import { beforeAll, describe, expect, it } from 'vitest'
import { hashPassword } from '../src/kernel/index.js'
import { User } from '../src/kernel/models/index.js'
import { meWith, withApiKey } from './helpers/api-keys.js'
import { newUser, scimTeam } from './helpers/scim.js'
import { type SsoApp, useSsoApp } from './helpers/sso.js'
import { makeUser, PASSWORD, useTestApps } from './helpers/test-app.js'

// Rendered only when both the sso and api-keys layers are on (templates/sso/+api-keys/).
const t = useTestApps()
const ssoApp = useSsoApp(t)
let app: Express
let dns: SsoApp['dns']

beforeAll(() => {
  ;({ app, dns } = ssoApp)
})

describe("SCIM's deprovisioning and API keys", () => {
  it('ends the keys of an account the team made: the next request with one is 401', async () => {
    const { scim, email } = await scimTeam(app, dns)
    const userName = email()
    const created = await scim.post('/Users', newUser(userName))
    expect(created.status).toBe(201)
    // The person sets a password (as a reset link would let them) and makes a key.
    await User.update({ password: await hashPassword(PASSWORD) }, { where: { email: userName } })
    const { key } = await withApiKey(app, userName)
    expect((await meWith(app, key)).status).toBe(200)

    expect((await scim.patchOps(`/Users/${created.body.id}`, { op: 'replace', value: { active: false } })).status).toBe(200)
    const res = await meWith(app, key)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: 'Unauthenticated.' })
  })

  it("leaves the keys of an account the person made themselves: it only loses the team", async () => {
    const { scim, domain } = await scimTeam(app, dns)
    const own = await makeUser({ email: `own-${Date.now()}@${domain}` })
    const { key } = await withApiKey(app, own.email)
    const created = await scim.post('/Users', newUser(own.email))
    expect(created.status).toBe(201)
    expect((await scim.patchOps(`/Users/${created.body.id}`, { op: 'replace', value: { active: false } })).status).toBe(200)
    expect((await meWith(app, key)).status).toBe(200)
  })
})
