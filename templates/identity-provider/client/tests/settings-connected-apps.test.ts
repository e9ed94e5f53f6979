import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { startServer, type TestServer } from './support/server'
import { mountApp, user } from './support/mount-app'

let server: TestServer
let apps: { client_id: string; name: string; scopes: string[]; createdAt: string; lastUsedAt: string | null }[]

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  apps = [
    { client_id: 'cli', name: 'Example CLI', scopes: ['openid', 'read', 'write'], createdAt: '2026-01-02T10:00:00.000Z', lastUsedAt: new Date(Date.now() - 5 * 60_000).toISOString() },
    { client_id: 'partner', name: 'Partner app', scopes: ['openid', 'email'], createdAt: '2026-02-03T10:00:00.000Z', lastUsedAt: null },
  ]
  server.on('GET', '/api/auth/me', { body: { user: user({ name: 'Ann', role: 'user' }) } })
  server.on('GET', '/api/account/connected-apps', () => ({ body: { data: apps } }))
})

const items = (wrapper: any) => wrapper.findAll('.session-list > li')

/** The page, once its list (of `count` apps) is shown. */
async function mountPage(count = apps.length) {
  const app = await mountApp(server, '/settings/connected-apps')
  await vi.waitFor(() => expect(count ? items(app.wrapper).length : Number(app.wrapper.text().includes('You have not allowed any app yet.'))).toBe(count || 1))
  return app
}

describe('settings: connected apps', () => {
  it('lists each app with what it may do and its last use, in the settings nav', async () => {
    const { wrapper } = await mountPage()
    expect(document.title.startsWith('Connected apps')).toBe(true)
    expect(wrapper.find('.settings__nav [aria-current="page"]').text()).toBe('Connected apps')
    const [cli, partner] = items(wrapper)
    expect(cli.text()).toContain('Example CLI')
    expect(cli.text()).toContain('Know who you are · Read your data through the API · Change your data through the API')
    expect(cli.find('time').attributes('datetime')).toBe(apps[0]!.lastUsedAt)
    expect(partner.text()).toContain('Not used yet')
    expect(partner.find('button').attributes('aria-label')).toBe('Remove Partner app')
  })

  it('removes one, says so, and shows what is left', async () => {
    server.on('DELETE', '/api/account/connected-apps/cli', () => {
      apps = apps.filter((app) => app.client_id !== 'cli')
      return { status: 204 }
    })
    const { wrapper } = await mountPage()
    await items(wrapper)[0].find('button').trigger('click')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(1))
    expect(wrapper.find('[role=status]').text()).toBe('Example CLI can no longer use your account.')
  })

  it('an app removed meanwhile (404): the message, and the list again', async () => {
    server.on('DELETE', '/api/account/connected-apps/cli', () => {
      apps = apps.filter((app) => app.client_id !== 'cli')
      return { status: 404, body: { message: 'Not found.' } }
    })
    const { wrapper } = await mountPage()
    await items(wrapper)[0].find('button').trigger('click')
    await vi.waitFor(() => expect(items(wrapper)).toHaveLength(1))
    expect(wrapper.find('[role=alert]').text()).toBe('Not found.')
  })

  it('says when there is none', async () => {
    apps = []
    const { wrapper } = await mountPage()
    expect(wrapper.text()).toContain('You have not allowed any app yet.')
  })
})
