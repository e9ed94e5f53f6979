import supertest from 'supertest'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AppFeature } from '../src/kernel/context.js'
import { features } from '../src/features/index.js'
import { names, useTestApps, type TestApp } from './helpers/test-app.js'

const t = useTestApps()

/** A stand-in layer with an API area of its own, mounted through `routes.api`. */
const echo: AppFeature = {
  name: 'echo',
  routes: {
    api: (router) => {
      router.post('/echo', (req, res) => {
        res.json({ body: req.body })
      })
    },
  },
}

describe("a feature's own API area (routes.api)", () => {
  let app: TestApp['app']
  beforeAll(async () => {
    ;({ app } = await t.build({ features: [...features, echo] }))
  })

  it('answers under /api, behind the API middleware: the body parsed, no-store', async () => {
    const res = await supertest(app).post('/api/echo').send({ said: 'hi' })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ body: { said: 'hi' } })
    expect(res.headers['cache-control']).toBe('no-store')
  })

  it('is CSRF-checked like base routes: a cookie-carrying post passes from the app, not from another origin', async () => {
    const post = (origin: string) => supertest(app).post('/api/echo').set('Origin', origin).set('Cookie', `${names().access}=x`).send({ said: 'hi' })
    expect((await post('http://localhost:3000')).status).toBe(200)
    expect((await post('https://evil.example')).status).toBe(403)
  })
})
