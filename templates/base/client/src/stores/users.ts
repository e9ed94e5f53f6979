import { isCancel } from 'axios'
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { errorMessage, http } from '@/lib/http'
import type { ListQuery } from '@/lib/query'
import { buildQuery, type Query } from '@/plugins/visit'
import type { Paginated, User } from '@/types'

export const useUsersStore = defineStore('users', () => {
  const page = ref<Paginated<User> | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  let inFlight: AbortController | null = null

  /** The newest query wins: an older response still on its way is dropped. */
  async function fetch(query: ListQuery) {
    inFlight?.abort()
    const mine = (inFlight = new AbortController())
    loading.value = true
    error.value = null
    try {
      const { data } = await http.get<{ data: Paginated<User> }>(`/api/users?${buildQuery(query as unknown as Query)}`, {
        signal: mine.signal,
      })
      page.value = data.data
    } catch (e) {
      if (!isCancel(e)) error.value = errorMessage(e)
    } finally {
      if (inFlight === mine) {
        inFlight = null
        loading.value = false
      }
    }
  }

  /** A user the API just changed, in place: no refetch for one row. */
  function replace(user: User) {
    const rows = page.value?.data
    const at = rows?.findIndex((row) => row.id === user.id) ?? -1
    if (rows && at >= 0) rows[at] = user
  }

  return { page, loading, error, fetch, replace }
})
