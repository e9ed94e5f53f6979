import { enableAutoUnmount, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { fakeTeamsApi } from './support/fake-teams'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

let server: TestServer

const LINK = '/invitations/accept?token=tok-123&email=dana%40example.com'
const dana = user({ id: 1, name: 'Dana', email: 'dana@example.com', role: 'user' })
const badToken = { status: 422, body: { message: 'Invalid.', errors: { token: ['This invitation is invalid or has expired.'] } } }

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  fakeTeamsApi(server)
  server.on('POST', '/api/invitations/accept', (req) =>
    req.json?.token === 'tok-123' ? { body: { team: { id: 2, name: 'Acme', personal: false, role: 'member' } } } : badToken,
  )
})

const sent = (method: string, path: string) => server.received.filter((r) => r.method === method && r.path === path)
const link = (wrapper: VueWrapper, text: string) => wrapper.findAll('main a').find((a) => a.text() === text)!
const button = (wrapper: VueWrapper, text: string) => wrapper.findAll('main button').find((b) => b.text() === text)!

describe('accepting an invitation, signed out', () => {
  beforeEach(() => {
    server.on('GET', '/api/auth/me', unauthenticated)
  })

  it('offers to log in or register, each with the invited address and a way back to the link', async () => {
    const { wrapper } = await mountApp(server, LINK)
    expect(wrapper.find('h1').text()).toBe('Join a team')
    expect(wrapper.text()).toContain('dana@example.com')
    expect(sent('POST', '/api/invitations/accept')).toHaveLength(0)
    expect(sent('POST', '/api/invitations/show')).toHaveLength(0)
    for (const [text, path] of [['Log in to accept', '/login'], ['Create an account', '/register']] as const) {
      const url = new URL(link(wrapper, text).attributes('href')!, 'http://app')
      expect(url.pathname).toBe(path)
      expect(Object.fromEntries(url.searchParams)).toEqual({ email: 'dana@example.com', redirect: LINK })
    }
  })

  it('through the login, with the address filled in, back to the link, and in', async () => {
    server.on('POST', '/api/auth/login', { body: { user: dana, access_token: 'jwt' } })
    const { wrapper, router } = await mountApp(server, LINK)
    await link(wrapper, 'Log in to accept').trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
    expect(wrapper.find<HTMLInputElement>('input[name=email]').element.value).toBe('dana@example.com')
    await wrapper.find('input[name=password]').setValue('secret-password')
    await wrapper.find('main form').trigger('submit')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/invitations/accept'))
    expect(router.currentRoute.value.query).toEqual({ token: 'tok-123', email: 'dana@example.com' })
    await vi.waitFor(() => expect(wrapper.text()).toContain('You are signed in as dana@example.com'))
    await button(wrapper, 'Accept invitation').trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/teams/2'))
    expect(sent('POST', '/api/invitations/accept').map((r) => r.json)).toEqual([{ token: 'tok-123' }])
  })

  it('through the registration, with the address filled in, back to the link', async () => {
    server.on('POST', '/api/auth/register', { status: 201, body: { user: { ...dana, emailVerifiedAt: null }, access_token: 'jwt' } })
    const { wrapper, router } = await mountApp(server, LINK)
    await link(wrapper, 'Create an account').trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/register'))
    expect(wrapper.find<HTMLInputElement>('input[name=email]').element.value).toBe('dana@example.com')
    await wrapper.find('input[name=name]').setValue('Dana')
    await wrapper.find('input[name=password]').setValue('secret-password')
    await wrapper.find('input[name=password_confirmation]').setValue('secret-password')
    await wrapper.find('main form').trigger('submit')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/invitations/accept'))
    expect(router.currentRoute.value.query).toEqual({ token: 'tok-123', email: 'dana@example.com' })
    // Not verified yet: accepting will be refused, so the page offers the verification mail.
    await vi.waitFor(() => expect(wrapper.text()).toContain('Your address is not verified yet.'))
  })

  it('says when the link lost its token', async () => {
    const { wrapper } = await mountApp(server, '/invitations/accept')
    expect(wrapper.find('main [role=alert]').text()).toContain('This invitation link is incomplete.')
    expect(wrapper.find('main a').exists()).toBe(false)
  })
})

describe('accepting an invitation, signed in', () => {
  beforeEach(() => {
    server.on('GET', '/api/auth/me', { body: { user: dana } })
  })

  it('accepts, then opens the team, which is current now', async () => {
    const { wrapper, router } = await mountApp(server, LINK)
    expect(wrapper.text()).toContain('You are signed in as dana@example.com')
    await button(wrapper, 'Accept invitation').trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/teams/2'))
    expect(wrapper.find('.flash').text()).toContain('You joined “Acme”.')
    await vi.waitFor(() => expect(wrapper.find('h1').text()).toBe('Acme'))
  })

  it("names the team and the sender, which the mail leaves out, once the invited account is signed in", async () => {
    server.on('POST', '/api/invitations/show', (req) =>
      req.json?.token === 'tok-123' ? { body: { invitation: { team: { name: 'Acme' }, inviter: { name: 'Olga' }, role: 'admin' } } } : badToken,
    )
    const { wrapper } = await mountApp(server, LINK)
    await vi.waitFor(() => expect(wrapper.text()).toContain('Olga invited you to join Acme as an admin.'))
    expect(sent('POST', '/api/invitations/show').map((r) => r.json)).toEqual([{ token: 'tok-123' }])
  })

  it('shows a refusal plainly and stays', async () => {
    const { wrapper, router } = await mountApp(server, '/invitations/accept?token=used')
    await button(wrapper, 'Accept invitation').trigger('click')
    await vi.waitFor(() => expect(wrapper.find('main [role=alert]').text()).toBe('This invitation is invalid or has expired.'))
    expect(router.currentRoute.value.path).toBe('/invitations/accept')
  })

  it('an unverified address: sends the verification link to it', async () => {
    server.on('GET', '/api/auth/me', { body: { user: { ...dana, emailVerifiedAt: null } } })
    server.on('POST', '/api/auth/resend-verification', { body: { message: 'A new verification link is on its way.' } })
    const { wrapper } = await mountApp(server, LINK)
    await button(wrapper, 'Send me a verification link').trigger('click')
    await vi.waitFor(() => expect(wrapper.find('main [role=status]').text()).toBe('A new verification link is on its way.'))
    expect(sent('POST', '/api/auth/resend-verification').map((r) => r.json)).toEqual([{ email: 'dana@example.com' }])
  })

  it('signed in with another address than the link’s: says so before anything is sent', async () => {
    server.on('GET', '/api/auth/me', { body: { user: { ...dana, email: 'dana.other@example.com' } } })
    const { wrapper } = await mountApp(server, LINK)
    expect(wrapper.find('main .alert--info').text()).toContain('This invitation was sent to dana@example.com.')
    expect(sent('POST', '/api/invitations/accept')).toHaveLength(0)
    expect(sent('POST', '/api/invitations/show')).toHaveLength(0)
  })

  it('signed in with another account: logs out and goes to the login, keeping the way back', async () => {
    server.on('POST', '/api/auth/logout', { status: 204 })
    const { wrapper, router } = await mountApp(server, LINK)
    await wrapper.findAll('button').find((b) => b.text() === 'Log out and use another account')!.trigger('click')
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/login'))
    expect(router.currentRoute.value.query).toEqual({ email: 'dana@example.com', redirect: LINK })
    expect(sent('POST', '/api/auth/logout')).toHaveLength(1)
  })
})
