import { getCurrentScope, onScopeDispose, ref, shallowRef, type Ref } from 'vue'
import { errorMessage, http } from '@/lib/http'
import { isCancel, isHttpError, type Query } from '@/plugins/visit'

/**
 * Something a page shows and loads again after a change (a team, its invitations, its activity):
 * only the newest answer lands. Not a GET visit: a page's GET visits replace each other (only
 * the newest lands on a page), and these load side by side with the members table's.
 */
export function useResource<T>() {
  const data = shallowRef<T | null>(null) as Ref<T | null>
  const error = ref<string | null>(null)
  const status = ref<number | null>(null)
  const loading = ref(false)
  let current: AbortController | undefined

  async function load(url: string, query: Query = {}): Promise<T | null> {
    current?.abort()
    const controller = (current = new AbortController())
    const params = new URLSearchParams()
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(key, String(value))
    const search = params.toString()
    loading.value = true
    try {
      const response = await http.request<T>({ url: search ? `${url}?${search}` : url, signal: controller.signal })
      if (controller !== current) return null
      data.value = response.data
      error.value = null
      status.value = response.status
      return response.data
    } catch (failure) {
      if (isCancel(failure) || controller !== current) return null
      error.value = errorMessage(failure)
      status.value = isHttpError(failure) ? (failure.response?.status ?? null) : null
      return null
    } finally {
      if (controller === current) loading.value = false
    }
  }

  const cancel = () => current?.abort()
  // Nothing lands on a page that is gone.
  if (getCurrentScope()) onScopeDispose(cancel)

  return { data, error, status, loading, load, cancel }
}
