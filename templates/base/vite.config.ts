import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath, URL } from 'node:url'
import { parseEnv } from 'node:util'
import { defineConfig, type Plugin } from 'vite'
import vue from '@vitejs/plugin-vue'
import vueI18n from '@intlify/unplugin-vue-i18n/vite'

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
  plugins: [
    vue(),
    // The catalogues (client/src/**/locales/*.json) are compiled here, at build time, so the
    // browser gets vue-i18n's runtime-only build: no message compiler, and no eval for the CSP.
    vueI18n({
      include: [fileURLToPath(new URL('./client/src/**/locales/*.json', import.meta.url))],
      runtimeOnly: true,
      dropMessageCompiler: true,
      compositionOnly: true,
      fullInstall: false,
    }),
    axiosWithoutFetch(),
  ],
  // Every component uses the Composition API: the Options API support can stay out of the bundle,
  // as can vue-i18n's devtools support.
  define: { __VUE_OPTIONS_API__: 'false', __INTLIFY_PROD_DEVTOOLS__: 'false' },
  resolve: {
    alias: { '@': fileURLToPath(new URL('./client/src', import.meta.url)) },
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
    // The chunks loaded later (the users page, axios) import nothing but the entry, which is
    // there already: no module to preload, so no polyfill for it either.
    modulePreload: { polyfill: false },
  },
})
