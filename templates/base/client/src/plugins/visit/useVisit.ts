import { getCurrentScope, hasInjectionContext, inject, onScopeDispose, ref, type Ref } from 'vue'
import { routerKey, type Router } from 'vue-router'
import { configureVisit, getFallbackRouter, getHttp } from './config'
import { normalizeErrors } from './errors'
import { CanceledError, isCancel, type HttpResponse } from './http'
import { toRouteQuery, withQuery } from './query'
import { resetRemembered } from './remember'
import { restoreScroll, saveScroll } from './scroll'
import type { Method, PendingVisit, Query, RequestData, VisitOptions } from './types'

// The one cancellation rule: a visit ends by aborting its controller, and an aborted visit applies
// nothing more. Aborts come from a newer GET for the same page (only the newest may land there),
// from cancel() and from its component's unmount. Aborting alone can come too late (a response
// already on its way), so each step that would apply something checks first.
const newestGet = new Map<string, AbortController>()

type DataOptions<T> = Omit<VisitOptions<T>, 'method' | 'data'>
type BodyOptions<T> = Omit<VisitOptions<T>, 'method'>
type Result<T> = Promise<HttpResponse<T> | undefined>

export interface Visit {
  processing: Ref<boolean>
  visit<T = any>(url: string, options?: VisitOptions<T>): Result<T>
  get<T = any>(url: string, options?: DataOptions<T>): Result<T>
  post<T = any>(url: string, data?: RequestData, options?: DataOptions<T>): Result<T>
  put<T = any>(url: string, data?: RequestData, options?: DataOptions<T>): Result<T>
  patch<T = any>(url: string, data?: RequestData, options?: DataOptions<T>): Result<T>
  delete<T = any>(url: string, options?: BodyOptions<T>): Result<T>
  reload<T = any>(options?: DataOptions<T>): Result<T>
  /** Cancels every visit started here whose response is not in yet; each ends in onCancel and onFinish. */
  cancel(): void
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function'

export function useVisit(): Visit {
  const injected = hasInjectionContext() ? inject(routerKey, null) : null
  // The router of the latest component that asked also serves calls made outside components.
  if (injected) configureVisit({ router: injected })
  const processing = ref(false)
  let running = 0
  const mine = new Set<AbortController>()
  const cancel = () => mine.forEach((controller) => controller.abort())
  // Inside a component (or any effect scope) the visits end with it: nothing lands on a page
  // that is gone, and nothing reports an error there.
  if (getCurrentScope()) onScopeDispose(cancel)

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
    const { query, routePath, replace = false, preserveScroll = false, preserveUrl = false, skipFetch = false } = options
    // Remembered state starts over when a GET moves to another URL, not when it loads in place.
    const preserveState = options.preserveState ?? (!isGet || preserveUrl)
    // Inertia's habit: plain data given to a GET travels in the query.
    const dataInQuery = isGet && options.data && !(options.data instanceof FormData)
    const data = isGet ? undefined : options.data
    const fullQuery: Query | undefined = dataInQuery ? { ...(options.data as Query), ...query } : query
    const pending: PendingVisit = { url, method, data, query: fullQuery }

    // Taken now: the page the visit started from, not wherever the user is when it lands. Mutations
    // stay on the page unless a routePath asks otherwise; their query was for the API only.
    const page = routePath ?? currentPath()
    const target = preserveUrl ? undefined : isGet ? page : routePath

    // Up to the request everything runs synchronously unless onBefore returns a promise, so
    // `processing` (and a form's state) is already set when visit() returns its promise.
    const before = options.onBefore?.(pending)
    if ((isThenable(before) ? await before : before) === false) return undefined

    const scroll = preserveScroll ? saveScroll() : null
    const controller = new AbortController()
    mine.add(controller)
    if (isGet) {
      // Only a GET for the same page: a mutation, or a list elsewhere, runs on.
      newestGet.get(page)?.abort()
      newestGet.set(page, controller)
    }
    const landable = () => {
      if (controller.signal.aborted) throw new CanceledError()
    }
    processing.value = ++running > 0
    try {
      await options.onStart?.(pending)
      landable()
      let response: HttpResponse<T> | undefined
      if (!skipFetch) {
        try {
          response = await getHttp().request<T>({
            url: withQuery(url, fullQuery),
            method,
            data,
            signal: controller.signal,
            onUploadProgress: data instanceof FormData ? options.onProgress : undefined,
          })
        } catch (error) {
          if (isCancel(error)) throw error
          // A failure of a visit that was superseded meanwhile is as stale as its success.
          landable()
          if (!options.onError) throw error
          await options.onError(normalizeErrors(error), error)
          return undefined
        }
      }
      landable()
      // From here on the response is applied: leaving the page (by this navigation, or in onSuccess)
      // cancels nothing. Only a newer GET still can.
      mine.delete(controller)
      if (target !== undefined) await navigate(target, isGet ? (fullQuery ?? {}) : undefined, replace)
      // The navigation may have waited on a slow guard while a newer GET came and landed. Without a
      // response there is nothing stale to drop: the GET that supersedes a bare navigation is
      // usually the page's own fetch for it, and the scroll is still this visit's to restore.
      if (response) landable()
      if (!preserveState) resetRemembered()
      if (response) await options.onSuccess?.(response)
      if (scroll) await restoreScroll(scroll)
      return response
    } catch (error) {
      if (!isCancel(error)) throw error
      await options.onCancel?.()
      return undefined
    } finally {
      mine.delete(controller)
      if (newestGet.get(page) === controller) newestGet.delete(page)
      try {
        await options.onFinish?.()
      } finally {
        // Busy until onFinish is done, so an async callback never runs under an idle button.
        processing.value = --running > 0
      }
    }
  }

  return {
    processing,
    visit,
    cancel,
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
