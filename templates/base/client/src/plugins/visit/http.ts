import type { AxiosHeaders, AxiosProgressEvent } from 'axios'

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete'

export interface HttpResponse<T = any> {
  data: T
  status: number
  /** Lower-case names. */
  headers: Record<string, string>
}

export interface HttpRequest {
  url: string
  method?: Method
  /** FormData travels as it is (multipart); anything else as JSON. */
  data?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
  /** Only for a FormData body: then the request goes through axios, whose XHR reports upload progress (fetch cannot). */
  onUploadProgress?: (event: AxiosProgressEvent) => void
  /**
   * False: a refusal that asks the user to confirm it's them fails at once, without asking (a
   * request made in the background, which the user did not start and would not expect a dialog from).
   */
  confirm?: false
}

export interface HttpDefaults {
  /** Put before URLs that have no origin of their own. */
  baseURL?: string
  /** Milliseconds a request may take, its body included; 0 or unset: no limit. */
  timeout?: number
  /**
   * Asked when the server wants the user to confirm it's them before it goes on (a 403 with
   * `errors.confirm`), as Inertia asks on a 409: true once confirmed, and the request is sent
   * again, once; false, and it fails with that answer. Requests refused meanwhile wait for the
   * same answer. `withdrawn` aborts when every request waiting for it was cancelled.
   */
  confirm?: (refusal: HttpError, withdrawn: AbortSignal) => Promise<boolean>
}

/** A request that failed: with the server's `response` (a status outside 2xx), or without one (offline, timed out). */
export class HttpError<T = any> extends Error {
  constructor(
    message: string,
    readonly request: HttpRequest,
    readonly response?: HttpResponse<T>,
    readonly timedOut = false,
  ) {
    super(message)
  }
}

/** A request ended by its caller's signal: not a failure, nothing to report. */
export class CanceledError extends Error {}

export const isHttpError = (error: unknown): error is HttpError => error instanceof HttpError
export const isCancel = (error: unknown): error is CanceledError => error instanceof CanceledError

/**
 * The answer a failed request carried, if any: an HttpError's, or that of another client's error
 * shaped alike (axios', say, where `configureVisit({ http })` was given one).
 */
export const responseOf = (error: unknown): HttpResponse | undefined => (error instanceof Error ? (error as Partial<HttpError>).response : undefined)

/** The server's step-up refusal: 403 with `errors.confirm`, "confirm it's you, then try again". */
function needsConfirmation(error: unknown): boolean {
  const response = responseOf(error)
  return response?.status === 403 && (response.data as { errors?: { confirm?: unknown } } | undefined)?.errors?.confirm !== undefined
}

// What axios does with a body it was not told the type of: JSON when it parses, else the text.
function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

type Transport = (url: string, init: RequestInit, request: HttpRequest) => Promise<HttpResponse<string>>

const viaFetch: Transport = async (url, init) => {
  const response = await fetch(url, init)
  // Browsers give the names in lower case already; not every fetch does (happy-dom's).
  const headers = Object.fromEntries([...response.headers].map(([name, value]) => [name.toLowerCase(), value]))
  return { status: response.status, headers, data: await response.text() }
}

// Loaded by the first upload with progress only: the first page load carries none of axios.
const viaAxios: Transport = async (url, init, { onUploadProgress }) => {
  const { default: axios } = await import('axios')
  const response = await axios.request<string>({
    url,
    method: init.method,
    data: init.body,
    headers: init.headers as Record<string, string>,
    signal: init.signal!,
    withCredentials: true,
    // The API checks Origin, not a token cookie: both ways send the same headers.
    withXSRFToken: false,
    onUploadProgress,
    // Status, parsing and errors are decided below, alike for both ways.
    responseType: 'text',
    validateStatus: null,
  })
  return { status: response.status, headers: (response.headers as AxiosHeaders).toJSON(true) as Record<string, string>, data: response.data }
}

/**
 * The app's HTTP client: fetch, cookies included (the API is same-origin, or a CORS_ORIGINS origin
 * allowed credentials), JSON both ways; statuses outside 2xx reject with an HttpError.
 */
export function createHttp(defaults: HttpDefaults = {}) {
  const listeners = new Set<(error: HttpError) => void>()
  // The confirmation being asked for, shared by every request refused while it is open.
  let asking: { answer: Promise<boolean>; waiting: number; withdraw: AbortController } | null = null

  async function send<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const { method = 'get', data, signal } = req
    const upload = data instanceof FormData
    const json = data !== undefined && !upload
    const body = json ? JSON.stringify(data) : (data as FormData | undefined)
    // One controller for the caller's signal and the timeout, whichever way the request goes.
    const controller = new AbortController()
    const abort = () => controller.abort()
    let timedOut = false
    const timer = defaults.timeout ? setTimeout(() => ((timedOut = true), abort()), defaults.timeout) : undefined
    if (signal?.aborted) abort()
    signal?.addEventListener('abort', abort)
    try {
      const response = await (upload && req.onUploadProgress ? viaAxios : viaFetch)(
        /^[a-z][a-z\d+.-]*:/i.test(req.url) ? req.url : (defaults.baseURL ?? '') + req.url,
        {
          // fetch upper-cases only some methods itself; PATCH it would send as written.
          method: method.toUpperCase(),
          // A FormData body gets its multipart Content-Type, boundary included, from the browser.
          headers: { Accept: 'application/json', ...(json && { 'Content-Type': 'application/json' }), ...req.headers },
          body,
          credentials: 'include',
          signal: controller.signal,
        },
        req,
      )
      const answer = { ...response, data: parse(response.data) as T }
      if (answer.status >= 200 && answer.status < 300) return answer
      throw new HttpError(`Request failed with status code ${answer.status}`, req, answer)
    } catch (error) {
      if (isHttpError(error)) throw error
      if (signal?.aborted && !timedOut) throw new CanceledError('canceled')
      throw timedOut ? new HttpError(`Timeout of ${defaults.timeout} ms exceeded`, req, undefined, true) : new HttpError('Network Error', req)
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', abort)
    }
  }

  /** Whether the user confirmed; a request cancelled while it waits ends as cancelled. */
  async function confirmed(refusal: HttpError, ask: NonNullable<HttpDefaults['confirm']>, signal?: AbortSignal): Promise<boolean> {
    if (!asking) {
      const withdraw = new AbortController()
      // A handler that fails has not confirmed anything: the refusal stands.
      asking = { answer: ask(refusal, withdraw.signal).catch(() => false), waiting: 0, withdraw }
    }
    const current = asking
    current.waiting++
    try {
      return await new Promise<boolean>((resolve, reject) => {
        const abort = () => reject(new CanceledError('canceled'))
        if (signal?.aborted) return abort()
        signal?.addEventListener('abort', abort, { once: true })
        void current.answer.then(resolve).finally(() => signal?.removeEventListener('abort', abort))
      })
    } finally {
      // The last one waiting is done: the next refusal asks anew, and an unanswered question is withdrawn.
      if (--current.waiting === 0) {
        if (asking === current) asking = null
        current.withdraw.abort()
      }
    }
  }

  async function request<T = any>(req: HttpRequest): Promise<HttpResponse<T>> {
    try {
      try {
        return await send<T>(req)
      } catch (error) {
        const ask = defaults.confirm
        if (!(ask && req.confirm !== false && needsConfirmation(error) && (await confirmed(error as HttpError, ask, req.signal)))) throw error
      }
      // Once only: refused again, the request fails with that answer.
      return await send<T>(req)
    } catch (error) {
      if (isHttpError(error)) listeners.forEach((listener) => listener(error))
      throw error
    }
  }

  return {
    defaults,
    request,
    get: <T = any>(url: string) => request<T>({ url }),
    post: <T = any>(url: string, data?: unknown) => request<T>({ url, method: 'post', data }),
    /** Runs on every failed request (not on a cancelled one) before its caller hears of it; returns its removal. */
    onError(listener: (error: HttpError) => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export type Http = ReturnType<typeof createHttp>
