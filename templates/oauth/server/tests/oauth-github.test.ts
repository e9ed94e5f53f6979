import supertest from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { User } from '../src/kernel/models/index.js'
import { OAuthAccount } from '../src/features/oauth/models/oauth-account.js'
import { startGitHubStandIn, type GitHubStandIn, type GitHubUser } from './helpers/github-stand-in.js'
import { CLIENT, redirectUri, signInWith, startSignIn } from './helpers/oauth.js'
import { me } from './helpers/requests.js'
import { makeUser, uniqueEmail, useTestApps, type TestApp } from './helpers/test-app.js'

// GitHub cannot run here: its OAuth endpoints and REST API are played by a local stand-in
// speaking their shapes (helpers/github-stand-in.ts), the only stand-in of these tests.
const t = useTestApps()
let github: GitHubStandIn
let app: TestApp['app']
let nextId = 1_000_000 + Math.floor(Math.random() * 1_000_000)

beforeAll(async () => {
  github = await startGitHubStandIn({ ...CLIENT, redirectUri: redirectUri('github') })
  ;({ app } = await t.build({
    env: {
      OAUTH_GITHUB_URL: github.url,
      OAUTH_GITHUB_API_URL: github.apiUrl,
      OAUTH_GITHUB_CLIENT_ID: CLIENT.clientId,
      OAUTH_GITHUB_CLIENT_SECRET: CLIENT.clientSecret,
    },
    rateLimits: { oauthStartPerIp: { limit: 10_000, windowMs: 60_000 }, oauthCallbackPerIp: { limit: 10_000, windowMs: 60_000 } },
  }))
})
afterAll(() => github?.close())

function githubUser(emails: GitHubUser['emails']): GitHubUser {
  const user = { id: nextId++, login: `octo-${nextId}`, name: null, emails }
  github.user(user)
  return user
}

describe('GitHub', () => {
  it('is offered, with PKCE and state and no nonce (OAuth 2.0, not OpenID)', async () => {
    expect((await supertest(app).get('/api/auth/oauth').expect(200)).body).toEqual({ data: [{ provider: 'github', name: 'GitHub' }] })
    const location = new URL((await startSignIn(app, 'github')).url)
    expect(location.origin + location.pathname).toBe(`${github.url}/login/oauth/authorize`)
    expect(location.searchParams.get('code_challenge_method')).toBe('S256')
    expect(location.searchParams.get('state')).toBeTruthy()
    expect(location.searchParams.get('nonce')).toBeNull()
    expect(location.searchParams.get('scope')).toBe('read:user user:email')
  })

  it('makes a user from the verified primary address, named after the login, and signs the same GitHub id in again', async () => {
    const email = uniqueEmail('octocat')
    const user = githubUser([
      { email: uniqueEmail('other'), primary: false, verified: true },
      { email, primary: true, verified: true },
    ])
    const first = await signInWith(app, 'github', 'ignored')
    expect(first.location).toBe('/dashboard')
    const made = (await User.findOne({ where: { email } }))!
    expect(made.name).toBe(user.login)
    expect(made.password).toBeNull()
    expect((await OAuthAccount.findOne({ where: { userId: made.id } }))?.subject).toBe(String(user.id))

    github.user({ ...user, emails: [{ email: uniqueEmail('moved'), primary: true, verified: true }] })
    const again = await signInWith(app, 'github', 'ignored')
    expect((await me(app, again.cookies).expect(200)).body.user.id).toBe(made.id)
  })

  it('refuses an unverified primary address, even when another address is verified', async () => {
    const email = uniqueEmail('unverified')
    githubUser([
      { email, primary: true, verified: false },
      { email: uniqueEmail('verified'), primary: false, verified: true },
    ])
    const result = await signInWith(app, 'github', 'ignored')
    expect(result.location).toBe('/login?error=email_unverified')
    expect(await User.count({ where: { email } })).toBe(0)
  })

  it('links nothing by e-mail', async () => {
    const owner = await makeUser({ verified: true })
    githubUser([{ email: owner.email, primary: true, verified: true }])
    expect((await signInWith(app, 'github', 'ignored')).location).toBe('/login?error=account_exists')
  })

  it('a replayed code is refused (GitHub answers such a token request with 200 and an error)', async () => {
    githubUser([{ email: uniqueEmail('replay'), primary: true, verified: true }])
    const first = await signInWith(app, 'github', 'ignored')
    expect(first.location).toBe('/dashboard')
    const second = await startSignIn(app, 'github')
    const replay = new URL(first.answer)
    replay.searchParams.set('state', new URL(second.url).searchParams.get('state')!)
    const res = await supertest(app).get(replay.pathname + replay.search).set('Cookie', Object.entries(second.cookies).map(([k, v]) => `${k}=${v}`).join('; '))
    expect(res.headers.location).toBe('/login?error=oauth_failed')
  })
})
