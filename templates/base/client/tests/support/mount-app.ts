import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory } from 'vue-router'
import App from '@/App.vue'
import { http, redirectOnUnauthenticated } from '@/lib/http'
import { createVisit, forgetRemembered } from '@/plugins/visit'
import { createAppRouter } from '@/router'
import { useAuthStore } from '@/stores/auth'
import type { FeatureUserFields, User } from '@/types'
import type { TestServer } from './server'

let eject: (() => void) | undefined

/** The whole client as main.ts assembles it, over memory history, talking to the test server. */
export async function mountApp(server: TestServer, path: string) {
  http.defaults.baseURL = server.url
  const pinia = createPinia()
  setActivePinia(pinia)
  forgetRemembered()
  const router = createAppRouter(createMemoryHistory())
  eject?.()
  eject = redirectOnUnauthenticated(router, () => useAuthStore(pinia).signedOut())
  const wrapper = mount(App, {
    global: { plugins: [pinia, router, createVisit({ http, router })] },
    attachTo: document.body,
  })
  await router.push(path)
  await flushPromises()
  return { wrapper, router, pinia }
}

// What feature layers add to a user, at their defaults (tests/support/features/<layer>.ts).
const featureUserFields = Object.assign(
  {},
  ...Object.values(import.meta.glob<Partial<User>>('./features/*.ts', { eager: true, import: 'userFields' })),
) as FeatureUserFields

export function user(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    name: 'Ada Admin',
    email: 'ada@example.com',
    roleId: 1,
    role: 'admin',
    emailVerifiedAt: '2024-01-01T00:00:00.000Z',
    locale: null,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    ...featureUserFields,
    ...overrides,
  }
}

export const unauthenticated = { status: 401, body: { message: 'Unauthenticated.' } }
