import { defineComponent, h } from 'vue'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { configureVisit, createHttp, forgetRemembered } from '@/plugins/visit'
import { afterAll, beforeAll, beforeEach, onTestFinished, vi } from 'vitest'
import { startServer, type TestServer } from './server'

const Page = defineComponent({ render: () => h('div', 'page') })

/** A router over memory history with a few pages, already at `start`. */
export async function makeRouter(start = '/'): Promise<Router> {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', component: Page },
      { path: '/items', component: Page },
      { path: '/other', component: Page },
      { path: '/people', component: Page },
    ],
    scrollBehavior: (_to, _from, saved) => saved ?? { top: 0 },
  })
  await router.push(start)
  return router
}

/** Points the visit helper at the test server (through happy-dom's fetch) and a fresh router. */
export async function useTestApp(server: TestServer, start = '/') {
  const router = await makeRouter(start)
  const http = createHttp({ baseURL: server.url })
  configureVisit({ http, router })
  forgetRemembered()
  return { router, http }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Until the test ends, fetch ignores abort signals: an old response arrives in full, as one
 * already on its way when the abort came would.
 */
export function ignoreAborts(): void {
  const fetch = globalThis.fetch
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => fetch(input, { ...init, signal: undefined }))
  onTestFinished(() => spy.mockRestore())
}

/**
 * The hooks of every file whose tests make real requests: one server per file, reset before each
 * test, and the visit helper pointed at it through a fresh router at `start`. `use` receives
 * both before each test.
 */
export function useLiveServer(start: string, use: (live: { server: TestServer; router: Router }) => void): void {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())
  beforeEach(async () => {
    server.reset()
    const { router } = await useTestApp(server, start)
    use({ server, router })
  })
}
