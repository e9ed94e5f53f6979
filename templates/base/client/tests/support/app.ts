import axios, { type AxiosInstance } from 'axios'
import { defineComponent, h } from 'vue'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { configureVisit, forgetRemembered } from '@/plugins/visit'
import { afterAll, beforeAll, beforeEach } from 'vitest'
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

// Requests go through Node's HTTP client (axios' `http` adapter) to a real server. happy-dom's
// XMLHttpRequest would do too, but it never reports upload progress and sends a DELETE body
// without a Content-Length, which a real server rejects.
export function nodeHttp(baseURL: string): AxiosInstance {
  // axios recognises a FormData by its tag, which happy-dom's class lacks.
  if (Object.prototype.toString.call(new FormData()) !== '[object FormData]') {
    Object.defineProperty(FormData.prototype, Symbol.toStringTag, { value: 'FormData', configurable: true })
  }
  return axios.create({ baseURL, adapter: 'http', headers: { Accept: 'application/json' } })
}

/** Points the visit helper at the test server and a fresh router. */
export async function useTestApp(server: TestServer, start = '/') {
  const router = await makeRouter(start)
  const http = nodeHttp(server.url)
  configureVisit({ http, router })
  forgetRemembered()
  return { router, http }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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
