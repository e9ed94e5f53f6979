import { toFormData, type AxiosResponse } from 'axios'
import { computed, reactive, toRaw } from 'vue'
import { useVisit } from './useVisit'
import type { Errors, FormVisitOptions, Method, RequestData } from './types'

/** How long `recentlySuccessful` stays true: long enough to flash "Saved." */
export const RECENTLY_SUCCESSFUL_MS = 2000

type FormValues = Record<string, any>
type Result<T> = Promise<AxiosResponse<T> | undefined>
type Submit = <T = any>(url: string, data?: RequestData, options?: FormVisitOptions<T>) => Result<T>

const clone = <T>(value: T): T => structuredClone(toRaw(value))

function isEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  // Files, Blobs and other instances count as changed unless they are the very same object.
  const plain = (v: object) => Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype
  if (!plain(a) || !plain(b) || Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => isEqual((a as any)[k], (b as any)[k]))
}

function hasFiles(value: unknown): boolean {
  if (value instanceof Blob) return true
  return typeof value === 'object' && value !== null && Object.values(value).some(hasFiles)
}

/** Form state in the manner of Inertia's useForm; values live in `form.data`. */
export function useVisitForm<TData extends FormValues>(initialData: TData) {
  const { visit } = useVisit()
  // structuredClone keeps File and Blob values, which JSON would lose.
  const initial = clone(initialData)
  let flashTimer: ReturnType<typeof setTimeout> | undefined

  function submit<T = any>(verb: Method, url: string, data?: RequestData, options: FormVisitOptions<T> = {}) {
    const method = verb.toLowerCase() as Method
    // The form's own values unless the caller sends a reshaped payload; files force multipart.
    // A GET carries them in the query, where files cannot go.
    const own = toRaw(form.data) as Record<string, unknown>
    const body: RequestData =
      data ?? (method !== 'get' && hasFiles(own) ? (toFormData(own, new FormData()) as FormData) : clone(own))
    const upload = body instanceof FormData
    const settle = () => {
      form.processing = false
      form.progress = null
    }
    return visit<T>(url, {
      ...options,
      method,
      data: body,
      onStart: async (pending) => {
        clearTimeout(flashTimer)
        form.processing = true
        form.wasSuccessful = false
        form.recentlySuccessful = false
        form.progress = upload ? 0 : null
        await options.onStart?.(pending)
      },
      onProgress: upload
        ? (event) => {
            if (event.total) form.progress = Math.min(100, Math.round((event.loaded / event.total) * 100))
          }
        : undefined,
      onSuccess: async (response) => {
        settle()
        form.clearErrors()
        form.wasSuccessful = true
        form.recentlySuccessful = true
        flashTimer = setTimeout(() => (form.recentlySuccessful = false), RECENTLY_SUCCESSFUL_MS)
        await options.onSuccess?.(response)
      },
      onError: async (errors, rawError) => {
        settle()
        form.errors = errors
        // Without a handler of its own the caller gets the error, as with useVisit.
        if (!options.onError) throw rawError
        await options.onError(errors, rawError)
      },
      onCancel: async () => {
        settle()
        await options.onCancel?.()
      },
      onFinish: async () => {
        settle()
        await options.onFinish?.()
      },
    })
  }

  const form = reactive({
    data: clone(initialData),
    errors: {} as Errors,
    processing: false,
    progress: null as number | null,
    wasSuccessful: false,
    recentlySuccessful: false,
    isDirty: computed((): boolean => !isEqual(form.data, initial)),
    hasErrors: computed((): boolean => Object.keys(form.errors).length > 0),
    /** `setError('email', 'Taken.')`, or several at once: `setError({ email: 'Taken.' })`. */
    setError(field: string | Errors, message?: string | string[]) {
      if (typeof field === 'string') form.errors[field] = message ?? ''
      else Object.assign(form.errors, field)
    },
    clearErrors(...fields: string[]) {
      if (!fields.length) form.errors = {}
      else for (const field of fields) delete form.errors[field]
    },
    /** Back to the initial values, all or the named ones; errors stay until cleared. */
    reset(...fields: (keyof TData & string)[]) {
      const fresh = clone(initial)
      for (const key of fields.length ? fields : (Object.keys(fresh) as (keyof TData & string)[])) {
        ;(form.data as TData)[key] = fresh[key]
      }
    },
    /** Inertia's `submit(method, url, options)`: sends the form's own data. */
    submit: (<T = any>(method: Method, url: string, options?: FormVisitOptions<T>): Result<T> =>
      submit<T>(method, url, undefined, options)),
    /** The form's values travel in the query, as with any GET visit. */
    get: (<T = any>(url: string, options?: FormVisitOptions<T>): Result<T> => submit<T>('get', url, undefined, options)),
    post: ((url, data, options) => submit('post', url, data, options)) as Submit,
    put: ((url, data, options) => submit('put', url, data, options)) as Submit,
    patch: ((url, data, options) => submit('patch', url, data, options)) as Submit,
    delete: (<T = any>(url: string, options?: FormVisitOptions<T>): Result<T> =>
      submit<T>('delete', url, undefined, options)),
  })
  return form
}

export type VisitForm<TData extends FormValues> = ReturnType<typeof useVisitForm<TData>>
