import type { AxiosProgressEvent } from 'axios'
import type { HttpResponse, Method } from './http'

export type { Method }

export type QueryValue = string | number | boolean | null | undefined
export type Query = Record<string, QueryValue | QueryValue[]>

export type RequestData = Record<string, unknown> | FormData

/** Field name (dotted path for nested fields) to a message or a list of messages. */
export type Errors = Record<string, string | string[]>

/** What `onBefore` and `onStart` are told about the visit about to run. */
export interface PendingVisit {
  url: string
  method: Method
  data?: RequestData
  query?: Query
}

export interface VisitOptions<T = any> {
  method?: Method
  data?: RequestData
  query?: Query
  routePath?: string
  replace?: boolean
  preserveState?: boolean
  preserveScroll?: boolean
  /**
   * As in Inertia 2: no route update, for a GET that loads data for the page it is on (remembered
   * state is kept unless preserveState is false). It still obeys "only the newest GET for a page
   * lands".
   */
  preserveUrl?: boolean
  skipFetch?: boolean
  onBefore?: (visit: PendingVisit) => boolean | void | Promise<boolean | void>
  onStart?: (visit: PendingVisit) => unknown
  /** Upload progress of a FormData body (the visit then loads axios: fetch cannot report it). */
  onProgress?: (event: AxiosProgressEvent) => void
  onSuccess?: (response: HttpResponse<T>) => unknown
  onError?: (errors: Errors, rawError: unknown) => unknown
  /**
   * A visit cancelled before its response was applied (a newer GET for the same path, the
   * component unmounted, `cancel()`) ends here instead of in onSuccess or onError.
   */
  onCancel?: () => unknown
  onFinish?: () => unknown
}

/** The method comes from the helper's name; upload progress is the form's own `progress`. */
export type FormVisitOptions<T = any> = Omit<VisitOptions<T>, 'method' | 'data' | 'onProgress'>
