import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath, URL } from 'node:url'
import { parseEnv } from 'node:util'
import { defineConfig, type Plugin } from 'vite'
import vue from '@vitejs/plugin-vue'
import { baseCompile } from '@intlify/message-compiler'

// axios, loaded only by an upload with progress, bundles a fetch adapter beside the XMLHttpRequest
// one (XHR is the one that reports upload progress, the reason axios is loaded at all). Nothing
// can select it here, so the build leaves it out: about a sixth of axios.
function axiosWithoutFetch(): Plugin {
  const stub = '\0axios-fetch-stub'
  return {
    name: 'axios-without-fetch',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './fetch.js' && importer?.replace(/\\/g, '/').endsWith('/axios/lib/adapters/adapters.js')) return stub
    },
    load(id) {
      if (id === stub) return 'export const getFetch = () => false'
    },
  }
}

// The catalogues (client/src/locales/*.json and locales/pages/*.json, and each feature's) become
// vue-i18n's messages here, at build time, with vue-i18n's own compiler: the browser gets the
// runtime-only build, with no message compiler (smaller, and nothing evaluated at run time). A
// malformed message fails the build, naming its key. The tree is flattened to dotted keys
// (`{ "nav.dashboard": … }`), the form petite-vue-i18n looks keys up in without a path parser.
function i18nCatalogues(): Plugin {
  const catalogue = /\/client\/src\/(?:features\/[^/]+\/)?locales\/(?:pages\/)?[^/]+\.json$/
  const compile = (value: unknown, key: string): [string, unknown][] => {
    if (typeof value !== 'object' || value === null) {
      const onError = (error: Error) => {
        throw new Error(`${key}: ${error.message}`)
      }
      return [[key, baseCompile(String(value), { jit: true, location: false, minify: true, onError }).ast]]
    }
    return Object.entries(value).flatMap(([name, inner]) => compile(inner, key ? `${key}.${name}` : name))
  }
  return {
    name: 'i18n-catalogues',
    enforce: 'pre',
    transform(code, id) {
      if (!catalogue.test(id.replace(/\\/g, '/'))) return
      return { code: `export default ${JSON.stringify(Object.fromEntries(compile(JSON.parse(code), '')))}`, map: null, moduleType: 'js' }
    },
  }
}

// The API's settings as the API reads them: the environment first, then .env.
const envFile = fileURLToPath(new URL('./.env', import.meta.url))
const dotEnv: Record<string, string | undefined> = existsSync(envFile) ? parseEnv(readFileSync(envFile, 'utf8')) : {}
const setting = (name: string) => process.env[name]?.trim() || dotEnv[name]?.trim() || undefined

const apiOrigin = `http://localhost:${setting('PORT') ?? '3000'}`
// The one origin, besides CORS_ORIGINS, that the API's CSRF check trusts (BASE_URL's).
const baseUrl = setting('BASE_URL')
const appOrigin = baseUrl && URL.canParse(baseUrl) ? new URL(baseUrl).origin : 'http://localhost:3000'

export default defineConfig({
  root: fileURLToPath(new URL('./client', import.meta.url)),
  plugins: [vue(), i18nCatalogues(), axiosWithoutFetch()],
  // Every component uses the Composition API: the Options API support can stay out of the bundle,
  // as can vue-i18n's legacy API, its message compiler and devtools hooks.
  define: {
    __VUE_OPTIONS_API__: 'false',
    __VUE_I18N_LEGACY_API__: 'false',
    __VUE_I18N_FULL_INSTALL__: 'false',
    __INTLIFY_DROP_MESSAGE_COMPILER__: 'true',
    __INTLIFY_PROD_DEVTOOLS__: 'false',
    __VUE_I18N_PROD_DEVTOOLS__: 'false',
  },
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./client/src', import.meta.url)) },
      { find: /^petite-vue-i18n$/, replacement: 'petite-vue-i18n/dist/petite-vue-i18n.runtime.mjs' },
    ],
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      // The proxy is the same-origin boundary in development: the API sees BASE_URL's origin,
      // so its CSRF origin check holds without listing the dev server in CORS_ORIGINS.
      '/api': {
        target: apiOrigin,
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on('proxyReq', (req) => {
            if (req.getHeader('origin')) req.setHeader('origin', appOrigin)
          })
        },
      },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    // Every browser the app supports preloads modules itself.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The framework every page runs on, in one chunk beside the entry: left to itself the bundler
        // splits it by which pages share which part, into chunks that compress worse and cost
        // more requests. A package one page needs (axios for uploads, say) stays with that page.
        codeSplitting: { groups: [{ name: 'vendor', test: /[\\/]node_modules[\\/](?:@vue|vue|vue-router|pinia|petite-vue-i18n|@intlify)[\\/]/ }] },
      },
    },
  },
})
