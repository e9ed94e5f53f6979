import { isCancel } from 'axios'
import { defineStore } from 'pinia'
import { ref } from 'vue'
import { errorMessage, http } from '@/lib/http'
import { apiQuery, type ListQuery } from '@/lib/query'
import { buildQuery } from '@/plugins/visit'
import type { Paginated, User } from '@/types'

export const useUsersStore = defineStore('users', () => {
  const page = ref<Paginated<User> | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  let newest: AbortController | null = null

  /**
   * The newest query wins: the one before is aborted, and whatever of it still arrives (an
   * answer already on its way when the abort came) is dropped by the identity check.
   */
  async function fetch(query: ListQuery) {
    newest?.abort()
    const mine = (newest = new AbortController())
    loading.value = true
    error.value = null
    try {
      const { data } = await http.get<{ data: Paginated<User> }>(`/api/users?${buildQuery(apiQuery(query))}`, {
        signal: mine.signal,
      })
      if (newest === mine) page.value = data.data
    } catch (e) {
      if (newest === mine && !isCancel(e)) error.value = errorMessage(e)
    } finally {
      if (newest === mine) {
        newest = null
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
