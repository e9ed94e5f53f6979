import { computed, getCurrentScope, onScopeDispose, reactive, shallowRef, toRaw } from 'vue'
import { clone, getPath, hasFiles, isEqual, jsonCopy, setPath, toFormData } from './data'
import type { HttpResponse } from './http'
import { useVisit } from './useVisit'
import { createValidator, type Endpoint } from './validation'
import type { Errors, FormVisitOptions, Method, RequestData } from './types'

/** How long `recentlySuccessful` stays true: long enough to flash "Saved." */
export const RECENTLY_SUCCESSFUL_MS = 2000

type FormValues = Record<string, any>
type Result<T> = Promise<HttpResponse<T> | undefined>
/** A key of the data, or a dotted path into it (`user.email`, `items.0.name`). */
export type FormField<TData> = (keyof TData & string) | `${keyof TData & string}.${string}`

export interface VisitForm<TData extends FormValues> {
  data: TData
  errors: Errors
  readonly hasErrors: boolean
  processing: boolean
  progress: number | null
  wasSuccessful: boolean
  recentlySuccessful: boolean
  readonly isDirty: boolean
  readonly validating: boolean
  setError(field: FormField<TData> | Errors, message?: string | string[]): this
  clearErrors(...fields: FormField<TData>[]): this
  reset(...fields: FormField<TData>[]): this
  resetAndClearErrors(...fields: FormField<TData>[]): this
  defaults(): this
  defaults(field: FormField<TData>, value: unknown): this
  defaults(values: Partial<TData>): this
  transform(fn: (data: TData) => object): this
  cancel(): void
  submit<T = any>(method: Method, url: string, options?: FormVisitOptions<T>): Result<T>
  /** To the form's precognition endpoint. */
  submit<T = any>(options?: FormVisitOptions<T>): Result<T>
  get<T = any>(url: string, options?: FormVisitOptions<T>): Result<T>
  post<T = any>(url: string, data?: RequestData, options?: FormVisitOptions<T>): Result<T>
  put<T = any>(url: string, data?: RequestData, options?: FormVisitOptions<T>): Result<T>
  patch<T = any>(url: string, data?: RequestData, options?: FormVisitOptions<T>): Result<T>
  delete<T = any>(url: string, options?: FormVisitOptions<T>): Result<T>
  withPrecognition(method: Method, url: Endpoint['url']): this
  validate(...fields: FormField<TData>[]): this
  touch(...fields: FormField<TData>[]): this
  touched(field?: FormField<TData>): boolean
  valid(field: FormField<TData>): boolean
  invalid(field: FormField<TData>): boolean
  setValidationTimeout(ms: number): this
}

type Source<TData> = TData | (() => TData)

/**
 * Form state in the manner of Inertia's useForm; values live in `form.data`. Given a method and
 * a URL (or later `withPrecognition`), it also validates live against that route.
 */
export function useVisitForm<TData extends FormValues>(data: Source<TData>): VisitForm<TData>
export function useVisitForm<TData extends FormValues>(method: Method, url: Endpoint['url'], data: Source<TData>): VisitForm<TData>
export function useVisitForm<TData extends FormValues>(...args: unknown[]): VisitForm<TData> {
  const source = args.at(-1) as Source<TData>
  let endpoint: Endpoint | null = null
  // A factory is called again by reset(), so the form can start over from fresh values.
  const fresh = (): TData => clone(typeof source === 'function' ? (source as () => TData)() : source)
  const start = fresh()
  const defaults = shallowRef(start)
  let transformer = (data: TData): object => data
  let flashTimer: ReturnType<typeof setTimeout> | undefined
  const visit = useVisit()
  const raw = () => toRaw(form.data) as TData
  // A shallow copy, as Inertia's data(): transform may reshape it; files stay the same objects.
  const payload = () => transformer({ ...raw() })

  const validator = createValidator({
    endpoint: () => endpoint,
    payload,
    value: (field) => getPath(raw(), field),
    baseline: (field) => getPath(defaults.value, field),
    errors: () => form.errors,
    setErrors: (errors) => (form.errors = errors),
  })
  if (getCurrentScope()) {
    onScopeDispose(() => {
      validator.cancel()
      clearTimeout(flashTimer)
    })
  }

  const copyFields = (into: object, from: object, fields: string[]) => {
    for (const field of fields) setPath(into, field, clone(getPath(from, field)))
  }

  function send<T>(verb: Method, url: string, data: RequestData | undefined, options: FormVisitOptions<T> = {}): Result<T> {
    const method = verb.toLowerCase() as Method
    const own = payload()
    // Files force multipart; a GET carries the values in the query, where files cannot go.
    const body = data ?? (method !== 'get' && hasFiles(own) ? toFormData(own) : jsonCopy(own as RequestData))
    const upload = body instanceof FormData
    return visit.visit<T>(url, {
      ...options,
      method,
      data: body,
      onStart: async (pending) => {
        clearTimeout(flashTimer)
        // The submission's answer is newer than any validation still under way.
        validator.cancel()
        Object.assign(form, { processing: true, wasSuccessful: false, recentlySuccessful: false, progress: upload ? 0 : null })
        await options.onStart?.(pending)
      },
      onProgress: upload
        ? (event) => {
            if (event.total) form.progress = Math.min(100, Math.round((event.loaded / event.total) * 100))
          }
        : undefined,
      onSuccess: async (response) => {
        form.clearErrors()
        form.wasSuccessful = form.recentlySuccessful = true
        flashTimer = setTimeout(() => (form.recentlySuccessful = false), RECENTLY_SUCCESSFUL_MS)
        await options.onSuccess?.(response)
        // As in Inertia: what was saved is the new baseline of isDirty and reset().
        defaults.value = clone(raw())
      },
      onError: async (errors, rawError) => {
        form.errors = errors
        // Without a handler of its own the caller gets the error, as with useVisit.
        if (!options.onError) throw rawError
        await options.onError(errors, rawError)
      },
      onFinish: async () => {
        // Idle only once every callback is done (Inertia #2463: not before an async onSuccess).
        try {
          await options.onFinish?.()
        } finally {
          form.processing = false
          form.progress = null
        }
      },
    })
  }

  const form: VisitForm<TData> = reactive({
    data: clone(start),
    errors: {} as Errors,
    processing: false,
    progress: null as number | null,
    wasSuccessful: false,
    recentlySuccessful: false,
    isDirty: computed((): boolean => !isEqual(form.data, defaults.value)),
    hasErrors: computed((): boolean => Object.keys(form.errors).length > 0),
    validating: computed(() => validator.state.validating),
    /** `setError('email', 'Taken.')`, or several at once: `setError({ email: 'Taken.' })`. */
    setError(field: string | Errors, message?: string | string[]) {
      if (typeof field === 'string') form.errors[field] = message ?? ''
      else Object.assign(form.errors, field)
      return form
    },
    clearErrors(...fields: string[]) {
      if (!fields.length) form.errors = {}
      else for (const field of fields) delete form.errors[field]
      return form
    },
    /** Back to the defaults, all or the named fields; errors stay until cleared. */
    reset(...fields: string[]) {
      const from = typeof source === 'function' ? fresh() : defaults.value
      const names = fields.length ? fields : Object.keys(from)
      if (typeof source === 'function') {
        const next = clone(defaults.value)
        copyFields(next, from, names)
        defaults.value = next
      }
      copyFields(form.data, from, names)
      validator.forget(fields)
      return form
    },
    resetAndClearErrors(...fields: string[]) {
      return form.reset(...fields).clearErrors(...fields)
    },
    /** No argument: the current values become the defaults. */
    defaults(field?: string | Partial<TData>, value?: unknown) {
      const next = field === undefined ? clone(raw()) : clone(defaults.value)
      if (typeof field === 'string') setPath(next, field, clone(value))
      else if (field) Object.assign(next, clone(field))
      defaults.value = next
      return form
    },
    /** Reshapes what is sent (and validated): `transform(({ name }) => ({ name: name.trim() }))`. */
    transform(fn: (data: TData) => object) {
      transformer = fn
      return form
    },
    cancel: () => visit.cancel(),
    submit<T = any>(...args: [Method, string, FormVisitOptions<T>?] | [FormVisitOptions<T>?]) {
      if (typeof args[0] === 'string') return send<T>(args[0], args[1] as string, undefined, args[2])
      if (!endpoint) throw new Error('submit() without a method and URL needs the form’s precognition endpoint.')
      const url = typeof endpoint.url === 'function' ? endpoint.url() : endpoint.url
      return send<T>(endpoint.method, url, undefined, args[0])
    },
    /** The form's values travel in the query, as with any GET visit. */
    get: <T = any>(url: string, options?: FormVisitOptions<T>) => send<T>('get', url, undefined, options),
    post: <T = any>(url: string, data?: RequestData, options?: FormVisitOptions<T>) => send<T>('post', url, data, options),
    put: <T = any>(url: string, data?: RequestData, options?: FormVisitOptions<T>) => send<T>('put', url, data, options),
    patch: <T = any>(url: string, data?: RequestData, options?: FormVisitOptions<T>) => send<T>('patch', url, data, options),
    delete: <T = any>(url: string, options?: FormVisitOptions<T>) => send<T>('delete', url, undefined, options),
    withPrecognition(method: Method, url: Endpoint['url']) {
      endpoint = { method: method.toLowerCase() as Method, url }
      return form
    },
    validate(...fields: string[]) {
      validator.validate(fields)
      return form
    },
    touch(...fields: string[]) {
      validator.touch(fields)
      return form
    },
    touched: (field?: string) => (field ? validator.state.touched.includes(field) : validator.state.touched.length > 0),
    valid: (field: string) => validator.state.validated.includes(field) && form.errors[field] === undefined,
    invalid: (field: string) => form.errors[field] !== undefined,
    setValidationTimeout(ms: number) {
      validator.setTimeout(ms)
      return form
    },
  }) as unknown as VisitForm<TData>
  return args.length > 1 ? form.withPrecognition(args[0] as Method, args[1] as Endpoint['url']) : form
}
