import { createHmac, generateKeyPairSync, sign } from 'node:crypto'
import http from 'node:http'
import net from 'node:net'
import type { Express } from 'express'
import { Redis } from 'ioredis'
import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SamlId } from '../src/features/sso/models/saml-id.js'
import { SsoConnection } from '../src/features/sso/models/sso-connection.js'
import { pinnedFetch, publicFetch } from '../src/features/sso/services/oidc-client.js'
import type { ResolvedAddress } from '../src/kernel/index.js'
import { TeamMember } from '../src/features/teams/models/team-member.js'
import { SecurityEvent, User } from '../src/kernel/models/index.js'
import { jar, setCookies } from './helpers/cookies.js'
import { takeRefusals } from './helpers/loopback-only.js'
import { freePort } from './helpers/processes.js'
import { type SsoApp, sso, uniqueDomain, useSsoApp, verifiedDomain } from './helpers/sso.js'
import { authorizeAt, startSsoOidcIdp, type SsoOidcIdp } from './helpers/sso-oidc-idp.js'
import { newTeam, person } from './helpers/teams.js'
import { makeUser, PASSWORD, redisLabel, redisUrl, useTestApps, withCookies } from './helpers/test-app.js'

const t = useTestApps()
/** The app the steps below run against, unless a test hands them another. */
const main = useSsoApp(t)
let app: Express
const idps: SsoOidcIdp[] = []

beforeAll(() => {
  app = main.app
})
afterAll(async () => {
  await Promise.all(idps.map((idp) => idp.close()))
})

/** A team with a verified domain, and its own OpenID provider whose one client may come back only to the team's redirect URI. */
async function oidcTeam(connection: object = {}, at: SsoApp = main) {
  const { app } = at
  const owner = await person(app, 'owner')
  const teamId = await newTeam(app, owner)
  const domain = await verifiedDomain(app, at.dns, owner.cookies, teamId)
  const redirectUri = (await sso(app, owner.cookies, teamId).show()).body.sp.redirect_uri as string
  const idp = await startSsoOidcIdp(redirectUri)
  idps.push(idp)
  const res = await sso(app, owner.cookies, teamId).connect({ type: 'oidc', issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret, ...connection })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { at, owner, teamId, domain, idp, redirectUri, email: (local = Math.random().toString(36).slice(2, 10)) => `${local}@${domain}` }
}
type Team = Awaited<ReturnType<typeof oidcTeam>>

/** "Continue with SSO": the IdP's URL, and the browser's cookies that must come back with its answer. */
async function startSso(email: string, { app }: SsoApp = main) {
  const res = await supertest(app).post('/api/auth/sso').send({ email })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return { redirect: new URL(res.body.redirect as string), cookies: jar(res), res }
}

/** The browser bringing the IdP's answer (`back`, the URL the IdP sent it to) to the app. */
const callback = (back: URL, cookies: Record<string, string>, { app }: SsoApp = main) => supertest(app).get(`${back.pathname}${back.search}`).set(withCookies(cookies))

/** The whole round trip: the IdP signs `login` in with `claims`; `bend` changes the authorization URL on its way to the IdP. */
async function roundTrip(team: Team, email: string, claims: object = {}, bend: (url: URL) => void = () => {}) {
  const login = `user-${Math.random().toString(36).slice(2, 10)}`
  team.idp.account(login, { email, email_verified: true, name: 'Olli OpenID', ...claims })
  const { redirect, cookies } = await startSso(email, team.at)
  bend(redirect)
  const back = await authorizeAt(redirect.href, login)
  return { back, cookies, res: await callback(back, cookies, team.at) }
}

/** Sent back to the login page, signed out, for `reason` (the log's: the browser is told only that it failed). */
async function expectRefused(res: supertest.Response, reason: RegExp, { app, logger }: SsoApp = main) {
  expect(res.status).toBe(303)
  expect(res.headers.location).toBe('/login?sso=failed')
  expect((await supertest(app).get('/api/auth/me').set(withCookies(jar(res)))).status).toBe(401)
  const refusals = logger.records().filter((record) => record.msg === 'sso: OpenID answer refused')
  expect(String(refusals.at(-1)?.reason)).toMatch(reason)
}

describe('an OpenID connection', () => {
  it('is found by discovery when saved, its secret sealed and never shown, and recorded', async () => {
    const team = await oidcTeam({ default_role: 'admin', require_sso: false })
    const expected = { type: 'oidc', issuer: team.idp.issuer, client_id: team.idp.clientId, default_role: 'admin', require_sso: false }
    const shown = await sso(app, team.owner.cookies, team.teamId).show()
    expect(shown.body.connection).toEqual(expected)
    expect(JSON.stringify(shown.body)).not.toContain(team.idp.clientSecret)
    const row = (await SsoConnection.findOne({ where: { teamId: team.teamId } }))!
    expect(row.type).toBe('oidc')
    expect(row.settings).not.toContain(team.idp.clientSecret)
    expect(JSON.parse(row.settings).sealedSecret).toMatch(/^v1\./)
    const event = await SecurityEvent.findOne({ where: { userId: team.owner.id, type: 'sso_connection_saved' } })
    expect(JSON.parse(event!.meta!)).toEqual({ teamId: team.teamId, type: 'oidc', issuer: team.idp.issuer, requireSso: false })
  })

  it('answers 422 errors.issuer for an issuer where no provider answers, one over plain http elsewhere than the loopback, or no URL', async () => {
    const team = await oidcTeam()
    const nobody = `http://127.0.0.1:${await freePort()}`
    for (const issuer of [nobody, 'http://idp.example.test', 'not a url', `${team.idp.issuer}/elsewhere`]) {
      const res = await sso(app, team.owner.cookies, team.teamId).connect({ type: 'oidc', issuer, client_id: team.idp.clientId, client_secret: team.idp.clientSecret })
      expect(res.status, issuer).toBe(422)
      expect(res.body.errors, issuer).toEqual({ issuer: [expect.any(String)] })
    }
    // Never this host, a private network or a cloud's metadata service (SSRF): refused before any request.
    for (const issuer of ['https://10.0.0.1', 'https://169.254.169.254', 'https://[fd00::1]']) {
      const res = await sso(app, team.owner.cookies, team.teamId).connect({ type: 'oidc', issuer, client_id: team.idp.clientId, client_secret: team.idp.clientSecret })
      expect(res.status, issuer).toBe(422)
      const failure = main.logger.records().filter((record) => record.msg === 'sso: OpenID discovery failed').at(-1)
      expect(String(failure?.error), issuer).toContain('is not a public address')
    }
    const missing = await sso(app, team.owner.cookies, team.teamId).connect({ type: 'oidc', issuer: team.idp.issuer })
    expect(Object.keys(missing.body.errors).sort()).toEqual(['client_id', 'client_secret'])
    expect((await sso(app, team.owner.cookies, team.teamId).show()).body.connection.issuer).toBe(team.idp.issuer)
  })
})

describe('Continue with SSO through an OpenID provider', () => {
  it('sends the browser to the authorization endpoint: code with PKCE S256, state, nonce, the exact redirect URI', async () => {
    const team = await oidcTeam()
    const { redirect, res } = await startSso(team.email())
    expect(redirect.origin).toBe(team.idp.issuer)
    const params = Object.fromEntries(redirect.searchParams)
    expect(params).toMatchObject({ response_type: 'code', client_id: team.idp.clientId, redirect_uri: team.redirectUri, scope: 'openid email profile', code_challenge_method: 'S256' })
    expect(team.redirectUri).toBe(`http://localhost:3000/api/auth/sso/oidc/${team.teamId}/callback`)
    for (const name of ['state', 'nonce', 'code_challenge']) expect(params[name], name).toMatch(/^[A-Za-z0-9_-]{32,}$/)
    const flow = [...setCookies(res).values()].find((cookie) => cookie.name.endsWith('sso_oidc'))
    expect(flow?.attributes).toMatchObject({ httponly: true, samesite: 'Lax' })
    expect(decodeURIComponent(flow!.raw)).not.toContain(params.code_challenge)
  })

  it('signs a new person in just in time, a member of the team with the default role, and /api/auth/me answers', async () => {
    const team = await oidcTeam({ default_role: 'admin' })
    const email = team.email()
    const { res } = await roundTrip(team, email)
    expect(res.status).toBe(303)
    expect(res.headers.location).toBe('/')
    const me = await supertest(app).get('/api/auth/me').set(withCookies(jar(res)))
    expect(me.status).toBe(200)
    expect(me.body.user).toMatchObject({ email, name: 'Olli OpenID', emailVerifiedAt: expect.any(String) })
    const user = (await User.findOne({ where: { email } }))!
    expect((await TeamMember.findOne({ where: { teamId: team.teamId, userId: user.id } }))?.role).toBe('admin')
    const event = await SecurityEvent.findOne({ where: { userId: user.id, type: 'sso_sign_in' } })
    expect(JSON.parse(event!.meta!)).toEqual({ teamId: team.teamId, created: true })
  })

  it('signs an existing account of the domain in, as that account', async () => {
    const team = await oidcTeam()
    const existing = await makeUser({ email: team.email('existing') })
    const { res } = await roundTrip(team, existing.email)
    expect((await supertest(app).get('/api/auth/me').set(withCookies(jar(res)))).body.user.id).toBe(existing.id)
    expect(await User.count({ where: { email: existing.email } })).toBe(1)
  })
})

describe("refusing the OpenID provider's answer", () => {
  it('a state other than the one this browser was given', async () => {
    const team = await oidcTeam()
    const login = 'state-bender'
    const email = team.email()
    team.idp.account(login, { email, email_verified: true })
    const { redirect, cookies } = await startSso(email)
    const back = await authorizeAt(redirect.href, login)
    back.searchParams.set('state', 'a'.repeat(43))
    await expectRefused(await callback(back, cookies), /state/)
    expect(await User.count({ where: { email } })).toBe(0)
  })

  it('the same callback twice, a second answer to the same flow, and a callback in another browser', async () => {
    const team = await oidcTeam()
    const login = 'twice'
    team.idp.account(login, { email: team.email(), email_verified: true })
    const { redirect, cookies } = await startSso(team.email())
    const back = await authorizeAt(redirect.href, login)
    expect((await callback(back, cookies)).headers.location).toBe('/')
    await expectRefused(await callback(back, cookies), /used or expired state/)
    // The same authorization URL again: a fresh code for the same state, verifier and nonce, with the flow's cookie kept.
    await expectRefused(await callback(await authorizeAt(redirect.href, login), cookies), /used or expired state/)

    const started = await startSso(team.email())
    await expectRefused(await callback(await authorizeAt(started.redirect.href, 'someone'), {}), /no flow cookie/)
  })

  it("an ID token signed by a key not in the IdP's published keys, with alg none, or with the client secret (HS256)", async () => {
    const team = await oidcTeam()
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    /** The IdP's own ID token (its claims, nonce and all, left as they are) under `header`, signed by `signature`. */
    const resign = (header: object, signature: (input: string) => string) => (idToken: string) => {
      const [head = '', payload = ''] = idToken.split('.')
      const input = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(head, 'base64url').toString()), ...header })).toString('base64url')}.${payload}`
      return `${input}.${signature(input)}`
    }
    const forgeries = {
      // Claiming the IdP's own key (its `kid` kept): only the signature tells it apart.
      'a key not in the JWKS': [resign({}, (input) => sign('sha256', Buffer.from(input), stranger).toString('base64url')), /JWT signature verification failed/],
      // Algorithms the IdP's metadata does not list (id_token_signing_alg_values_supported) are refused before any key is looked at.
      'alg none': [resign({ alg: 'none', kid: undefined }, () => ''), /unexpected JWT "alg"/],
      'HS256 with the client secret': [resign({ alg: 'HS256', kid: undefined }, (input) => createHmac('sha256', team.idp.clientSecret).update(input).digest('base64url')), /unexpected JWT "alg"/],
    } as const
    for (const [name, [forge, reason]] of Object.entries(forgeries)) {
      team.idp.forgeIdTokens(forge)
      const email = team.email()
      const { res } = await roundTrip(team, email)
      await expectRefused(res, reason)
      expect(await User.count({ where: { email } }), name).toBe(0)
    }
    // The same round trip with the IdP's own signature goes through: the forgeries alone were refused.
    team.idp.forgeIdTokens(null)
    expect((await roundTrip(team, team.email())).res.headers.location).toBe('/')
  })

  it('an ID token whose nonce is not the one this sign-in sent', async () => {
    const team = await oidcTeam()
    const email = team.email()
    const { res } = await roundTrip(team, email, {}, (url) => url.searchParams.set('nonce', 'n'.repeat(43)))
    await expectRefused(res, /nonce/)
    expect(await User.count({ where: { email } })).toBe(0)
  })

  it('an address the IdP has not verified', async () => {
    const team = await oidcTeam()
    const email = team.email()
    await expectRefused((await roundTrip(team, email, { email_verified: false })).res, /IdP has not verified/)
    expect(await User.count({ where: { email } })).toBe(0)
  })

  it("an address of a domain this team has not verified, even one that exists, and another team's", async () => {
    const team = await oidcTeam()
    const other = await oidcTeam()
    const stranger = await makeUser({ email: `victim@${uniqueDomain('elsewhere')}` })
    for (const email of [stranger.email, other.email('colleague')]) {
      const { res } = await roundTrip(team, team.email(), { email })
      await expectRefused(res, /domain the team has not verified/)
    }
    expect(await TeamMember.count({ where: { teamId: team.teamId, userId: stranger.id } })).toBe(0)
    expect(await User.count({ where: { email: other.email('colleague') } })).toBe(0)
  })
})

describe('a team that requires SSO, through OpenID', () => {
  it('refuses the password of its domain and takes the OpenID sign-in', async () => {
    const team = await oidcTeam({ require_sso: true })
    const user = await makeUser({ email: team.email('worker') })
    const password = await supertest(app).post('/api/auth/login').send({ email: user.email, password: PASSWORD })
    expect(password.status).toBe(422)
    const { res } = await roundTrip(team, user.email)
    expect(res.headers.location).toBe('/')
    expect((await supertest(app).get('/api/auth/me').set(withCookies(jar(res)))).body.user.id).toBe(user.id)
  })
})

describe.skipIf(!redisUrl)(`an OpenID sign-in's state on Redis${redisLabel}`, () => {
  let onRedis: SsoApp
  let redis: Redis
  beforeAll(async () => {
    onRedis = await main.build({ redis: true })
    redis = new Redis(redisUrl!)
  })
  afterAll(() => redis.disconnect())

  it('is remembered there, not in the database, for the sign-in\'s life, and its callback takes it: once', async () => {
    const team = await oidcTeam({}, onRedis)
    const login = 'on-redis'
    team.idp.account(login, { email: team.email(), email_verified: true })
    const stateKeys = () => redis.keys(`${onRedis.ctx.keyPrefix}sso:oidc-state:${team.teamId}:*`)
    const rows = await SamlId.count()
    const { redirect, cookies } = await startSso(team.email(), onRedis)
    const [key, ...others] = await stateKeys()
    expect(others).toEqual([])
    expect(await redis.pttl(key!)).toBeGreaterThan(9 * 60_000)
    expect(await redis.pttl(key!)).toBeLessThanOrEqual(10 * 60_000)
    expect(await SamlId.count()).toBe(rows)

    const back = await authorizeAt(redirect.href, login)
    expect((await callback(back, cookies, onRedis)).headers.location).toBe('/')
    expect(await stateKeys()).toEqual([])
    // Replayed, and a fresh code for the same state (the flow's cookie kept): the state is gone.
    await expectRefused(await callback(back, cookies, onRedis), /used or expired state/, onRedis)
    await expectRefused(await callback(await authorizeAt(redirect.href, login), cookies, onRedis), /used or expired state/, onRedis)
  })
})

/** A listener on the loopback: `reached` counts the connections it took, `first` the first bytes of each. */
async function loopbackListener(answer: (socket: net.Socket) => void = (socket) => socket.destroy()) {
  const first: string[] = []
  const server = net.createServer((socket) => socket.once('data', (data) => void first.push(data.toString('latin1'))).once('data', () => answer(socket)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { port: (server.address() as net.AddressInfo).port, first, reached: () => first.length, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe("the IdP's fetch, against DNS rebinding", () => {
  it('connects to the address it checked, never to the loopback the name answers a moment later', async () => {
    const listener = await loopbackListener()
    // A public address to the check, the loopback after: an attacker's DNS with a short TTL.
    const PUBLIC = '93.184.215.14'
    const answers: ResolvedAddress[][] = [[{ address: PUBLIC, family: 4 }]]
    let asked = 0
    const resolve = async () => answers[asked++] ?? [{ address: '127.0.0.1', family: 4 as const }]
    try {
      // In production `localhost` is no local IdP: its address is checked (and the system's lookup would answer the loopback).
      const deps = { env: { ...main.ctx.env, NODE_ENV: 'production' as const }, resolve }
      await expect(publicFetch(deps)(`http://localhost:${listener.port}/.well-known/openid-configuration`)).rejects.toThrow()
    } finally {
      await listener.close()
    }
    expect(asked).toBe(1)
    // The connection went for the checked address, and was stopped there by the tests' loopback-only guard (no test reaches the internet).
    expect(takeRefusals()).toEqual([`localhost (${PUBLIC}):${listener.port}`])
    expect(listener.reached()).toBe(0)
  })

  it('sends the request as asked to the pinned address, the host name kept for Host and for TLS (SNI)', async () => {
    const seen: { host?: string; method?: string; type?: string; body?: string } = {}
    const server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (chunk: Buffer) => (body += chunk.toString()))
      req.on('end', () => {
        Object.assign(seen, { host: req.headers.host, method: req.method, type: req.headers['content-type'], body })
        res.writeHead(201, { 'content-type': 'application/json', 'x-idp': 'answered' }).end('{"ok":true}')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as net.AddressInfo
    const loopback = { address: '127.0.0.1', family: 4 } as const
    try {
      // A name no DNS knows: only the pin takes the request anywhere.
      const res = await pinnedFetch(loopback, new Request(`http://idp.invalid:${port}/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code' }) }))
      expect(res.status).toBe(201)
      expect(res.headers.get('x-idp')).toBe('answered')
      expect(await res.json()).toEqual({ ok: true })
      expect(seen).toEqual({ host: `idp.invalid:${port}`, method: 'POST', type: expect.stringMatching(/^application\/x-www-form-urlencoded/), body: 'grant_type=authorization_code' })
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
    // A status no Response takes is a failed request, not an exception thrown in the app.
    const odd = await loopbackListener((socket) => socket.end('HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n'))
    try {
      await expect(pinnedFetch(loopback, new Request(`http://idp.invalid:${odd.port}/jwks`))).rejects.toThrow(RangeError)
    } finally {
      await odd.close()
    }
    // Over TLS the ClientHello names the host, not the address: its certificate is checked against the name.
    const tls = await loopbackListener()
    try {
      await expect(pinnedFetch(loopback, new Request(`https://idp.invalid:${tls.port}/.well-known/openid-configuration`))).rejects.toThrow()
    } finally {
      await tls.close()
    }
    expect(tls.reached()).toBe(1)
    expect(tls.first[0]).toContain('idp.invalid')
  })
})
