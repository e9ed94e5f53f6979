import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { http } from '@/lib/http'
import { forgetRemembered } from '@/plugins/visit'
import type { User } from '@/types'

export const useAuthStore = defineStore('auth', () => {
  const user = ref<User | null>(null)
  const checked = ref(false)
  let checking: Promise<void> | null = null

  const isAdmin = computed(() => user.value?.role === 'admin')

  /** Asks the API once who is signed in; the cookies are HttpOnly, so only the API knows. */
  function check(): Promise<void> {
    checking ??= http
      .get<{ user: User }>('/api/auth/me')
      .then(
        ({ data }) => void (user.value = data.user),
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

  return { user, checked, isAdmin, check, signedIn, signedOut, logout }
})
