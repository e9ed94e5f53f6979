import { CanceledError, isCancel, type AxiosResponse } from 'axios'
import { hasInjectionContext, inject, ref, type Ref } from 'vue'
import { routerKey, type Router } from 'vue-router'
import { configureVisit, getFallbackRouter, getHttp } from './config'
import { normalizeErrors } from './errors'
import { toRouteQuery, withQuery } from './query'
import { resetRemembered } from './remember'
import { restoreScroll, saveScroll } from './scroll'
import type { Method, PendingVisit, Query, RequestData, VisitOptions } from './types'

// A GET visit is a navigation and only the newest navigation may land: starting one aborts the
// one before it, wherever it was started, so a slow old response never overwrites a newer one.
let currentGet: AbortController | null = null

type DataOptions<T> = Omit<VisitOptions<T>, 'method' | 'data'>
type BodyOptions<T> = Omit<VisitOptions<T>, 'method'>

export interface Visit {
  processing: Ref<boolean>
  visit<T = any>(url: string, options?: VisitOptions<T>): Promise<AxiosResponse<T> | undefined>
  get<T = any>(url: string, options?: DataOptions<T>): Promise<AxiosResponse<T> | undefined>
  post<T = any>(url: string, data?: RequestData, options?: DataOptions<T>): Promise<AxiosResponse<T> | undefined>
  put<T = any>(url: string, data?: RequestData, options?: DataOptions<T>): Promise<AxiosResponse<T> | undefined>
  patch<T = any>(url: string, data?: RequestData, options?: DataOptions<T>): Promise<AxiosResponse<T> | undefined>
  delete<T = any>(url: string, options?: BodyOptions<T>): Promise<AxiosResponse<T> | undefined>
  reload<T = any>(options?: DataOptions<T>): Promise<AxiosResponse<T> | undefined>
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function'

export function useVisit(): Visit {
  const injected = hasInjectionContext() ? inject(routerKey, null) : null
  // The router of the latest component that asked also serves calls made outside components.
  if (injected) configureVisit({ router: injected })
  const processing = ref(false)
  let running = 0

  // Without vue-router (a component rendered on its own, a plain script) the browser history
  // stands in: the URL still becomes <routePath>?<query>.
  const getRouter = (): Router | null => injected ?? getFallbackRouter()
  const currentPath = () => getRouter()?.currentRoute.value.path ?? window.location.pathname

  async function navigate(path: string, query: Query | undefined, replace: boolean) {
    const router = getRouter()
    if (router) {
      const to = query ? { path, query: toRouteQuery(query) } : path
      await (replace ? router.replace(to) : router.push(to))
    } else {
      window.history[replace ? 'replaceState' : 'pushState'](window.history.state, '', withQuery(path, query))
    }
  }

  async function visit<T = any>(url: string, options: VisitOptions<T> = {}) {
    const method = (options.method ?? 'get').toLowerCase() as Method
    const isGet = method === 'get'
    const { query, routePath, replace = false, preserveScroll = false, skipFetch = false } = options
    const preserveState = options.preserveState ?? !isGet
    // Inertia's habit: plain data given to a GET travels in the query.
    const dataInQuery = isGet && options.data && !(options.data instanceof FormData)
    const data = isGet ? undefined : options.data
    const fullQuery: Query | undefined = dataInQuery ? { ...(options.data as Query), ...query } : query
    const pending: PendingVisit = { url, method, data, query: fullQuery }

    // Taken now: the page the visit started from, not wherever the user is when it lands. Mutations
    // stay on the page unless a routePath asks otherwise; their query was for the API only.
    const target = isGet ? (routePath ?? currentPath()) : routePath

    // Up to the request everything runs synchronously unless onBefore returns a promise, so
    // `processing` (and a form's state) is already set when visit() returns its promise.
    const before = options.onBefore?.(pending)
    if ((isThenable(before) ? await before : before) === false) return undefined

    const scroll = preserveScroll ? saveScroll() : null
    let controller: AbortController | null = null
    if (isGet) {
      currentGet?.abort()
      controller = currentGet = new AbortController()
    }
    const superseded = () => {
      if (controller?.signal.aborted) throw new CanceledError()
    }
    processing.value = ++running > 0
    try {
      await options.onStart?.(pending)
      superseded()
      let response: AxiosResponse<T> | undefined
      if (!skipFetch) {
        try {
          response = await getHttp().request<T>({
            url: withQuery(url, fullQuery),
            method,
            data,
            signal: controller?.signal,
            onUploadProgress: data instanceof FormData ? options.onProgress : undefined,
          })
        } catch (error) {
          if (isCancel(error) || !options.onError) throw error
          await options.onError(normalizeErrors(error), error)
          return undefined
        }
      }
      superseded()
      if (target !== undefined) await navigate(target, isGet ? (fullQuery ?? {}) : undefined, replace)
      if (!preserveState) resetRemembered()
      if (response) await options.onSuccess?.(response)
      if (scroll) await restoreScroll(scroll)
      return response
    } catch (error) {
      if (!isCancel(error)) throw error
      await options.onCancel?.()
      return undefined
    } finally {
      if (currentGet === controller) currentGet = null
      processing.value = --running > 0
      await options.onFinish?.()
    }
  }

  return {
    processing,
    visit,
    get: (url, options = {}) => visit(url, { ...options, method: 'get' }),
    post: (url, data, options = {}) => visit(url, { ...options, method: 'post', data }),
    put: (url, data, options = {}) => visit(url, { ...options, method: 'put', data }),
    patch: (url, data, options = {}) => visit(url, { ...options, method: 'patch', data }),
    delete: (url, options = {}) => visit(url, { ...options, method: 'delete' }),
    reload(options = {}) {
      // Like Inertia's reload: the same page again, in place, keeping scroll and state.
      const router = getRouter()
      const current: Query = router
        ? (router.currentRoute.value.query as Query)
        : Object.fromEntries(new URLSearchParams(window.location.search))
      return visit(currentPath(), {
        replace: true,
        preserveScroll: true,
        preserveState: true,
        ...options,
        method: 'get',
        query: { ...current, ...options.query },
      })
    },
  }
}
