import { reactive } from 'vue'
import { getHttp } from './config'
import { clone, isEqual, jsonCopy } from './data'
import { normalizeErrors } from './errors'
import { responseOf, type HttpResponse } from './http'
import { withQuery } from './query'
import type { Errors, Method, Query } from './types'

/** Precognition's debounce: the first change is validated at once, the last one this long after. */
export const VALIDATION_TIMEOUT_MS = 1500

export interface Endpoint {
  method: Method
  url: string | (() => string)
}

interface Host {
  endpoint(): Endpoint | null
  /** The body a submission would send now. */
  payload(): object
  value(field: string): unknown
  /** What a field is compared with before its first validation: its default. */
  baseline(field: string): unknown
  errors(): Errors
  setErrors(errors: Errors): void
}

const covers = (fields: string[], key: string) => fields.some((f) => key === f || key.startsWith(`${f}.`))
const precognitive = (response: HttpResponse) => response.headers.precognition === 'true'

/**
 * Laravel Precognition's client rules, for the form helper: a field is validated by the server's
 * own rules when it is touched and its value changed since it was last validated; the request
 * names every touched field in `Precognition-Validate-Only`, and its answer replaces the errors
 * of those fields only.
 */
export function createValidator(host: Host) {
  const state = reactive({ touched: [] as string[], validated: [] as string[], validating: false })
  // Each field's value at its last validation.
  const last = new Map<string, unknown>()
  let wait = VALIDATION_TIMEOUT_MS
  let timer: ReturnType<typeof setTimeout> | undefined
  let trailing = false
  let current: AbortController | null = null

  const changed = (field: string) => !isEqual(host.value(field), last.has(field) ? last.get(field) : host.baseline(field))

  function send() {
    const endpoint = host.endpoint()!
    const only = [...state.touched]
    const values = only.map((field) => clone(host.value(field)))
    const url = typeof endpoint.url === 'function' ? endpoint.url() : endpoint.url
    // Never an upload: files stay out of the body, as in laravel-precognition.
    const body = jsonCopy(host.payload())
    const isGet = endpoint.method === 'get'
    current?.abort()
    const mine = (current = new AbortController())
    state.validating = true

    // Only the newest request may land (a sequence guard: aborting alone can come too late).
    const settle = (found: Errors) => {
      if (current !== mine) return
      only.forEach((field, i) => last.set(field, values[i]))
      state.validated = [...new Set([...state.validated, ...only])]
      const kept = Object.entries(host.errors()).filter(([key]) => !covers(only, key))
      host.setErrors(Object.fromEntries([...kept, ...Object.entries(found).filter(([key]) => covers(only, key))]))
    }
    getHttp()
      .request({
        method: endpoint.method,
        url: isGet ? withQuery(url, body as Query) : url,
        data: isGet ? undefined : body,
        headers: { Precognition: 'true', 'Precognition-Validate-Only': only.join(',') },
        signal: mine.signal,
        // Typing in a field is no reason to ask the user to confirm it's them; the submission asks.
        confirm: false,
      })
      .then(
        (response) => {
          if (response.status === 204 && response.headers['precognition-success'] === 'true') settle({})
        },
        // Anything but a precognitive 422 (offline, 5xx, 429) says nothing about the fields.
        (error) => {
          const response = responseOf(error)
          if (response?.status === 422 && precognitive(response)) settle(normalizeErrors(error))
        },
      )
      .finally(() => {
        if (current !== mine) return
        current = null
        state.validating = false
      })
  }

  // Leading and trailing, as lodash's debounce in laravel-precognition: the first call sends at
  // once, calls within `wait` of the last one collapse into one send after the quiet period.
  function schedule() {
    const idle = timer === undefined
    clearTimeout(timer)
    if (idle) send()
    else trailing = true
    timer = setTimeout(() => {
      timer = undefined
      if (trailing) {
        trailing = false
        send()
      }
    }, wait)
  }

  function touch(fields: string[]) {
    state.touched = [...new Set([...state.touched, ...fields])]
  }

  return {
    state,
    touch,
    validate(fields: string[]) {
      if (!host.endpoint()) throw new Error('validate() needs an endpoint: useVisitForm(method, url, data) or form.withPrecognition(method, url).')
      const due = (fields.length ? fields : state.touched).filter(changed)
      if (!due.length) return
      touch(due)
      schedule()
    },
    /** Reset fields start over: untouched, and compared with their defaults again. */
    forget(fields: string[]) {
      const gone = (field: string) => !fields.length || fields.includes(field)
      state.touched = state.touched.filter((f) => !gone(f))
      state.validated = state.validated.filter((f) => !gone(f))
      for (const field of [...last.keys()]) if (gone(field)) last.delete(field)
    },
    /** Drops a pending or running validation: a submission's answer is newer. */
    cancel() {
      clearTimeout(timer)
      timer = undefined
      trailing = false
      current?.abort()
      current = null
      state.validating = false
    },
    setTimeout(ms: number) {
      wait = ms
    },
  }
}

export type Validator = ReturnType<typeof createValidator>
