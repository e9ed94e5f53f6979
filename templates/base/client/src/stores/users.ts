import { defineStore } from 'pinia'
import { ref } from 'vue'
import { errorMessage } from '@/lib/http'
import { apiQuery, type ListQuery } from '@/lib/query'
import { useVisit } from '@/plugins/visit'
import type { AdminUser, Paginated } from '@/types'

export const useUsersStore = defineStore('users', () => {
  const page = ref<Paginated<AdminUser> | null>(null)
  const error = ref<string | null>(null)
  const visit = useVisit()

  /** The list for a route query; of overlapping fetches only the newest lands (useVisit's rule). */
  function fetch(query: ListQuery) {
    return visit.get<{ data: Paginated<AdminUser> }>('/api/users', {
      query: apiQuery(query),
      // The route already holds the query; the API's copy, defaults filled in, stays out of the URL.
      preserveUrl: true,
      onStart: () => (error.value = null),
      onSuccess: ({ data }) => (page.value = data.data),
      onError: (_errors, raw) => (error.value = errorMessage(raw)),
    })
  }

  /** A user the API just changed, in place: no refetch for one row. */
  function replace(user: AdminUser) {
    const rows = page.value?.data
    const at = rows?.findIndex((row) => row.id === user.id) ?? -1
    if (rows && at >= 0) rows[at] = user
  }

  return { page, loading: visit.processing, error, fetch, replace }
})
