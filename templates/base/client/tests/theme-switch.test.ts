import { enableAutoUnmount } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { THEME_KEY } from '@/lib/theme'
import indexHtml from '../index.html?raw'
import { startServer, type TestServer } from './support/server'
import { mountApp, unauthenticated, user } from './support/mount-app'

let server: TestServer

/** What a reload runs before the app: index.html's inline script, on a fresh <html>. */
function reloadPage(): void {
  delete document.documentElement.dataset.theme
  const script = /<script>([\s\S]*?)<\/script>/.exec(indexHtml)![1]!
  new Function(script)()
}

async function themeSelect(path = '/login') {
  const { wrapper } = await mountApp(server, path)
  return wrapper.get<HTMLSelectElement>('header select[aria-label=Theme]')
}

enableAutoUnmount(afterEach)
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.reset()
  server.on('GET', '/api/auth/me', unauthenticated)
})
afterEach(() => {
  localStorage.clear()
  delete document.documentElement.dataset.theme
})

describe('the header’s theme switch', () => {
  it('is there for a visitor and for a signed-in user, at the system’s theme at first', async () => {
    const select = await themeSelect()
    expect(select.findAll('option').map((o) => o.element.value)).toEqual(['system', 'light', 'dark'])
    expect(select.element.value).toBe('system')

    server.on('GET', '/api/auth/me', { body: { user: user() } })
    const { wrapper } = await mountApp(server, '/dashboard')
    expect(wrapper.find('header select[aria-label=Theme]').exists()).toBe(true)
  })

  it('applies dark to <html> and remembers it, and a reload keeps it', async () => {
    await (await themeSelect()).setValue('dark')
    expect(document.documentElement.dataset.theme).toBe('dark')
    expect(localStorage.getItem(THEME_KEY)).toBe('dark')

    reloadPage()
    expect(document.documentElement.dataset.theme).toBe('dark')
    expect((await themeSelect()).element.value).toBe('dark')
  })

  it('remembers light as well, which index.html reads back', async () => {
    await (await themeSelect()).setValue('light')
    reloadPage()
    expect(document.documentElement.dataset.theme).toBe('light')
  })

  it('hands the choice back to the system: no data-theme, nothing stored, after a reload too', async () => {
    const select = await themeSelect()
    await select.setValue('dark')
    await select.setValue('system')
    expect(document.documentElement.dataset.theme).toBeUndefined()
    expect(localStorage.getItem(THEME_KEY)).toBeNull()

    reloadPage()
    expect(document.documentElement.dataset.theme).toBeUndefined()
    expect((await themeSelect()).element.value).toBe('system')
  })
})
