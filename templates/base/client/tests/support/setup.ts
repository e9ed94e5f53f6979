import { config } from '@vue/test-utils'
import { vi } from 'vitest'
import { addMessages, i18n, type Catalogue } from '@/lib/i18n'

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

// The tests read the pages in English, every layer's texts included, and the pages' own (which the
// app loads with the first page that needs them: a component mounted alone has none). The
// catalogues come straight from their files: importing the layers' index files here would load
// their modules before a test file's vi.mock of what they import.
const catalogues = import.meta.glob<Catalogue>(['@/locales/pages/en.json', '@/features/*/locales/en.json', '@/features/*/locales/pages/en.json'], {
  eager: true,
  import: 'default',
})
for (const catalogue of Object.values(catalogues)) {
  addMessages('en', catalogue)
}
config.global.plugins.push(i18n)
