import { vi } from 'vitest'

/** Called each time a test file loads axios: only an upload with progress may. */
export const axiosLoaded = vi.fn()

// happy-dom's XMLHttpRequest never reports upload progress: the uploads that go through axios use
// Node's HTTP client (axios' `http` adapter) to the real test server instead.
vi.mock('axios', async (importOriginal) => {
  axiosLoaded()
  // axios recognises a FormData by its tag, which happy-dom's class lacks.
  Object.defineProperty(FormData.prototype, Symbol.toStringTag, { value: 'FormData', configurable: true })
  const axios = await importOriginal<typeof import('axios')>()
  axios.default.defaults.adapter = 'http'
  return axios
})
