import { mount } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { getHttp, useVisitForm, VALIDATION_TIMEOUT_MS } from '@/plugins/visit'
import type { TestServer } from './support/server'
import { sleep, useLiveServer } from './support/app'
import { isPrecognitive, precognitive } from './support/precognition'

let server: TestServer
useLiveServer('/items', (live) => ({ server } = live))
afterEach(() => vi.useRealTimers())

const rules = {
  name: (v: string) => (v ? undefined : 'The name field is required.'),
  email: (v: string) => (v === 'taken@example.com' ? 'The email has already been taken.' : v?.includes('@') ? undefined : 'The email must be a valid address.'),
  password: (v: string) => (v?.length >= 8 ? undefined : 'The password must be at least 8 characters.'),
}
const checks = () => server.received.filter(isPrecognitive)
const blank = () => ({ name: '', email: '', password: '' })

/** A form on the register route whose debounce is short enough to wait out for real. */
function registerForm(wait = 20) {
  server.on('POST', '/api/register', precognitive(rules))
  return useVisitForm('post', '/api/register', blank()).setValidationTimeout(wait)
}
const answered = async (count: number) => {
  await vi.waitFor(() => expect(checks()).toHaveLength(count))
  await sleep(30)
}

describe('live validation: when a request goes out', () => {
  it('not for a field still at its default: leaving an untouched field asks nothing', async () => {
    const form = registerForm()
    form.validate('name')
    await sleep(40)
    expect(checks()).toHaveLength(0)
    expect(form.touched()).toBe(false)
  })

  it('for a changed field, at once, with the Precognition headers and the form’s transformed data', async () => {
    const form = registerForm().transform((data) => ({ ...data, email: data.email.trim() }))
    form.data.email = ' ann@example.com '
    form.validate('email')
    await answered(1)
    const [check] = checks()
    expect(check!.method).toBe('POST')
    expect(check!.headers['precognition-validate-only']).toBe('email')
    expect(check!.json).toEqual({ name: '', email: 'ann@example.com', password: '' })
  })

  it('Precognition-Validate-Only lists every touched field', async () => {
    const form = registerForm()
    form.data.name = 'Ann'
    form.touch('name').data.email = 'ann@example.com'
    form.validate('email')
    await answered(1)
    expect(checks()[0]!.headers['precognition-validate-only']).toBe('name,email')
    expect(form.touched('name')).toBe(true)
    expect(form.touched('password')).toBe(false)
  })

  it('again only when the field’s value changed since its last validation', async () => {
    const form = registerForm()
    form.data.email = 'ann@example.com'
    form.validate('email')
    await answered(1)
    form.validate('email')
    await sleep(40)
    expect(checks()).toHaveLength(1)
    form.data.email = 'bob@example.com'
    form.validate('email')
    await answered(2)
    expect(checks()[1]!.json.email).toBe('bob@example.com')
  })

  it('validate() without names validates the touched fields that changed', async () => {
    const form = registerForm()
    form.data.name = 'Ann'
    form.validate('name')
    await answered(1)
    form.validate()
    await sleep(40)
    expect(checks()).toHaveLength(1)
    form.data.name = 'Anna'
    form.validate()
    await answered(2)
    expect(checks()[1]!.headers['precognition-validate-only']).toBe('name')
  })

  it('leaves files out of the body', async () => {
    server.on('POST', '/api/avatar', precognitive({}))
    const form = useVisitForm('post', '/api/avatar', { title: '', file: null as Blob | null })
    form.data.title = 'Me'
    form.data.file = new Blob(['png'])
    form.validate('title')
    await answered(1)
    expect(checks()[0]!.json).toEqual({ title: 'Me' })
  })

  it('needs an endpoint', () => {
    expect(() => useVisitForm({ a: '' }).validate('a')).toThrow(/endpoint/)
  })
})

describe('live validation: debounce', () => {
  // Counted where they leave the form, and never sent: no request outlives its test.
  const spyRequests = () => vi.spyOn(getHttp(), 'request').mockResolvedValue({ status: 204, headers: {}, data: '' })

  it(`sends on the first change at once and on the last one ${VALIDATION_TIMEOUT_MS} ms after it`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const request = spyRequests()
    const form = registerForm(VALIDATION_TIMEOUT_MS)
    const type = (value: string) => {
      form.data.email = value
      form.validate('email')
    }
    type('a')
    expect(request).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1000)
    type('an')
    vi.advanceTimersByTime(1000)
    type('ann')
    // Each change restarts the quiet period: nothing until 1500 ms after the last one.
    vi.advanceTimersByTime(VALIDATION_TIMEOUT_MS - 1)
    expect(request).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    expect(request).toHaveBeenCalledTimes(2)
    expect(request.mock.calls[1]![0].data).toMatchObject({ email: 'ann' })
    // Quiet since: the next change goes out at once again.
    vi.advanceTimersByTime(VALIDATION_TIMEOUT_MS)
    expect(request).toHaveBeenCalledTimes(2)
    type('anne')
    expect(request).toHaveBeenCalledTimes(3)
    request.mockRestore()
  })

  it('a single change sends once, with no trailing repeat', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const request = spyRequests()
    const form = registerForm(VALIDATION_TIMEOUT_MS)
    form.data.name = 'Ann'
    form.validate('name')
    vi.advanceTimersByTime(VALIDATION_TIMEOUT_MS * 2)
    expect(request).toHaveBeenCalledTimes(1)
    request.mockRestore()
  })
})

describe('live validation: answers', () => {
  it('a 422 sets the errors of the validated fields; a 204 with Precognition-Success clears them', async () => {
    const form = registerForm()
    form.data.email = 'taken@example.com'
    form.validate('email')
    await answered(1)
    expect(form.errors).toEqual({ email: ['The email has already been taken.'] })
    expect(form.invalid('email')).toBe(true)
    expect(form.valid('email')).toBe(false)
    form.data.email = 'ann@example.com'
    form.validate('email')
    await answered(2)
    expect(form.errors).toEqual({})
    expect(form.valid('email')).toBe(true)
    expect(form.invalid('email')).toBe(false)
  })

  it('replaces the errors of the validated fields only', async () => {
    const form = registerForm()
    form.setError({ password: 'The password is incorrect.', name: 'Stale.' })
    form.data.name = 'Ann'
    form.validate('name')
    await answered(1)
    expect(form.errors).toEqual({ password: 'The password is incorrect.' })
    expect(form.valid('name')).toBe(true)
    expect(form.valid('password')).toBe(false)
  })

  it('takes only the validated fields’ errors, even from a server that reports more', async () => {
    server.on('POST', '/api/everything', {
      status: 422,
      headers: { precognition: 'true' },
      body: { message: 'Invalid.', errors: { name: ['Required.'], email: ['Invalid.'], 'email.domain': ['Unknown.'] } },
    })
    const form = useVisitForm('post', '/api/everything', blank())
    form.data.email = 'x'
    form.validate('email')
    await answered(1)
    expect(form.errors).toEqual({ email: ['Invalid.'], 'email.domain': ['Unknown.'] })
  })

  it('ignores answers that are not Precognition’s: the real handler, a 500, a network error', async () => {
    server.on('POST', '/api/plain', { status: 422, body: { message: 'Invalid.', errors: { name: ['No.'] } } })
    server.on('POST', '/api/broken', { status: 500, body: { message: 'Server Error.' } })
    for (const url of ['/api/plain', '/api/broken', '/api/echo']) {
      const form = useVisitForm('post', url, blank())
      form.data.name = 'Ann'
      form.validate('name')
      await vi.waitFor(() => expect(form.validating).toBe(false))
      await sleep(20)
      expect(form.errors).toEqual({})
      expect(form.valid('name')).toBe(false)
    }
  })

  it('validating is true while the request runs', async () => {
    server.on('POST', '/api/slow', (req) => ({ ...precognitive(rules)(req), delay: 100 }))
    const form = useVisitForm('post', '/api/slow', blank())
    form.data.name = 'Ann'
    form.validate('name')
    expect(form.validating).toBe(true)
    await vi.waitFor(() => expect(form.validating).toBe(false))
    expect(form.valid('name')).toBe(true)
  })

  it('the newest validation wins over a slower older one', async () => {
    server.on('POST', '/api/register', (req) => ({ ...precognitive(rules)(req), delay: req.json.email === 'x' ? 150 : 0 }))
    const form = useVisitForm('post', '/api/register', blank()).setValidationTimeout(10)
    form.data.email = 'x'
    form.validate('email')
    // The slow one is under way (a loaded machine may take longer than its 10 ms to send it).
    await vi.waitFor(() => expect(checks()).toHaveLength(1))
    form.data.email = 'ann@example.com'
    form.validate('email')
    await vi.waitFor(() => expect(checks()).toHaveLength(2))
    // Long enough for the slow answer (150 ms after it was sent) to have come back too.
    await sleep(250)
    expect(checks()).toHaveLength(2)
    expect(form.errors).toEqual({})
    expect(form.valid('email')).toBe(true)
  })

  it('a submission drops a validation under way: its answer never lands over the submission’s', async () => {
    server.on('POST', '/api/register', (req) =>
      isPrecognitive(req)
        ? { ...precognitive(rules)(req), delay: 150 }
        : { status: 422, body: { message: 'Invalid.', errors: { email: ['Taken at submit.'] } } },
    )
    const form = useVisitForm('post', '/api/register', blank())
    form.data.email = 'bad'
    form.validate('email')
    await form.submit({ onError: () => undefined })
    expect(form.validating).toBe(false)
    await sleep(200)
    expect(form.errors).toEqual({ email: ['Taken at submit.'] })
  })
})

describe('live validation: the endpoint and the rest of the form', () => {
  it('withPrecognition(method, url) is chainable; submit() then goes there without the header', async () => {
    server.on('PATCH', '/api/profile', precognitive(rules))
    const form = useVisitForm({ name: 'Ann' }).withPrecognition('patch', '/api/profile').setValidationTimeout(10)
    form.data.name = ''
    form.validate('name')
    await answered(1)
    expect(form.errors).toEqual({ name: ['The name field is required.'] })
    form.data.name = 'Anna'
    await form.submit()
    const last = server.received.at(-1)!
    expect([last.method, last.path, isPrecognitive(last), last.json]).toEqual(['PATCH', '/api/profile', false, { name: 'Anna' }])
    expect(form.errors).toEqual({})
  })

  it('takes the URL as a function, read when the request goes out', async () => {
    server.on('PATCH', '/api/users/2', precognitive(rules))
    let id = 1
    const form = useVisitForm('patch', () => `/api/users/${id}`, { name: 'x' })
    id = 2
    form.data.name = ''
    form.validate('name')
    await answered(1)
    expect(checks()[0]!.path).toBe('/api/users/2')
  })

  it('reset(field) untouches the field, which is compared with its default again', async () => {
    const form = registerForm()
    form.data.email = 'ann@example.com'
    form.validate('email')
    await answered(1)
    form.reset('email')
    expect(form.touched('email')).toBe(false)
    expect(form.valid('email')).toBe(false)
    form.validate('email')
    await sleep(40)
    expect(checks()).toHaveLength(1)
  })

  it('unmounting cancels a validation under way and the one waiting for its quiet period', async () => {
    server.on('POST', '/api/register', (req) => ({ ...precognitive(rules)(req), delay: 100 }))
    let form!: ReturnType<typeof registerForm>
    // A quiet period longer than the first check takes to arrive (a CORS preflight before it
    // here), so the second change waits in it.
    const Page = defineComponent({
      setup() {
        form = useVisitForm('post', '/api/register', blank()).setValidationTimeout(300)
        return () => h('form')
      },
    })
    const wrapper = mount(Page)
    form.data.email = 'taken@example.com'
    form.validate('email')
    await vi.waitFor(() => expect(checks()).toHaveLength(1))
    form.data.email = 'taken@example.com '
    form.validate('email')
    wrapper.unmount()
    await sleep(400)
    expect(checks()).toHaveLength(1)
    expect(form.errors).toEqual({})
    expect(form.validating).toBe(false)
  })
})
