import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { http } from '@/lib/http'
import { forgetRemembered } from '@/plugins/visit'
import type { Impersonator, User } from '@/types'

export const useAuthStore = defineStore('auth', () => {
  const user = ref<User | null>(null)
  /** The admin signed in as `user` (impersonation), else null. */
  const impersonator = ref<Impersonator | null>(null)
  const checked = ref(false)
  let checking: Promise<void> | null = null

  const isAdmin = computed(() => user.value?.role === 'admin')

  /** Asks the API once who is signed in; the cookies are HttpOnly, so only the API knows. */
  function check(): Promise<void> {
    checking ??= http
      .get<{ user: User; impersonator?: Impersonator | null }>('/api/auth/me')
      .then(
        ({ data }) => {
          user.value = data.user
          impersonator.value = data.impersonator ?? null
        },
        () => void (user.value = null),
      )
      .finally(() => (checked.value = true))
    return checking
  }

  function signedIn(next: User) {
    user.value = next
    checked.value = true
  }

  function signedOut() {
    user.value = null
    impersonator.value = null
    checked.value = true
    // Remembered table selections and the like belong to the previous user.
    forgetRemembered()
  }

  async function logout(everywhere = false) {
    try {
      await http.post(everywhere ? '/api/auth/logout-all' : '/api/auth/logout')
    } finally {
      signedOut()
    }
  }

  /**
   * Ends an admin's impersonation: back in the admin's own session (null when it ended
   * meanwhile: signed out). The caller reloads the app, so nothing of the user's stays in memory.
   */
  async function stopImpersonating(): Promise<User | null> {
    try {
      const { data } = await http.request<{ user: User }>({ url: '/api/auth/impersonation', method: 'delete' })
      return data.user
    } catch {
      return null
    } finally {
      forgetRemembered()
    }
  }

  return { user, impersonator, checked, isAdmin, check, signedIn, signedOut, logout, stopImpersonating }
})
