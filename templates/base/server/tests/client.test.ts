import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import { useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

describe('the built client on the API port', () => {
  let app: TestApp['app']
  beforeAll(async () => {
    const clientDir = t.tempDir('app-client-')
    fs.mkdirSync(path.join(clientDir, 'assets'))
    fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><div id="app"></div>')
    fs.writeFileSync(path.join(clientDir, 'assets', 'main.js'), 'console.log(1)')
    ;({ app } = await t.build({ clientDir, env: { NODE_ENV: 'production' } }))
  })

  it('serves files and falls back to index.html for page paths', async () => {
    const asset = await supertest(app).get('/assets/main.js')
    expect(asset.status).toBe(200)
    expect(asset.text).toBe('console.log(1)')
    for (const page of ['/', '/dashboard', '/reset-password?token=x&email=y']) {
      const res = await supertest(app).get(page).set('Accept', 'text/html')
      expect(res.status).toBe(200)
      expect(res.text).toContain('<div id="app">')
    }
  })

  it('keeps /api answers JSON and non-GET page requests 404', async () => {
    const api = await supertest(app).get('/api/unknown').set('Accept', 'text/html')
    expect(api.status).toBe(404)
    expect(api.body).toEqual({ message: 'Not Found.' })
    await supertest(app).post('/dashboard').expect(404)
    await supertest(app).get('/assets/missing.js').set('Accept', 'application/javascript').expect(404)
  })
})

describe('index.html\'s inline script', () => {
  it('runs by its hash in the page\'s Content-Security-Policy, and no other inline script does', async () => {
    const clientDir = t.tempDir('app-client-')
    const script = "document.documentElement.dataset.theme = 'dark'"
    fs.writeFileSync(path.join(clientDir, 'index.html'), `<!doctype html><script>${script}</script><script type="module" src="/assets/main.js"></script>`)
    const { app } = await t.build({ clientDir, env: { NODE_ENV: 'production' } })
    const res = await supertest(app).get('/login').set('Accept', 'text/html').expect(200)
    const scriptSrc = String(res.headers['content-security-policy']).split(';').find((d) => d.startsWith('script-src '))
    const hash = createHash('sha256').update(script).digest('base64')
    const sources = String(scriptSrc).split(' ').slice(1)
    expect(sources.slice(0, 2)).toEqual(["'self'", `'sha256-${hash}'`])
    // A layer's page may add a host or 'wasm-unsafe-eval' (the CAPTCHA's), never an inline script.
    expect(sources.filter((source) => /^'(sha256-|sha384-|sha512-|nonce-|unsafe-inline|unsafe-eval|strict-dynamic)/.test(source))).toEqual([`'sha256-${hash}'`])
  })
})

describe('without a client build', () => {
  it('development redirects page GETs to the Vite dev server, so mailed links work', async () => {
    const { app } = await t.build({ env: { NODE_ENV: 'development' } })
    const res = await supertest(app).get('/verify-email?token=abc&email=a%40b.test')
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe('http://localhost:5173/verify-email?token=abc&email=a%40b.test')
    await supertest(app).get('/api/nothing').expect(404)
  })

  it('production answers 404', async () => {
    const { app } = await t.build({ env: { NODE_ENV: 'production' } })
    await supertest(app).get('/dashboard').expect(404)
  })
})
