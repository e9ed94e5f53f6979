import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import express, { Router, type Request } from 'express'
import type { AppContext } from '../context.js'

const VITE_DEV_SERVER = 'http://localhost:5173'

/**
 * The Content-Security-Policy sources that let the built index.html's inline scripts run (the
 * theme, set before first paint): their hashes, so nothing else inline runs.
 */
export function inlineScriptSources(clientDir: string): string[] {
  const index = path.join(clientDir, 'index.html')
  if (!fs.existsSync(index)) return []
  const scripts = fs.readFileSync(index, 'utf8').matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)
  return [...scripts].map(([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`)
}

const isPageRequest = (req: Request) =>
  (req.method === 'GET' || req.method === 'HEAD') && !req.path.startsWith('/api/') && req.path !== '/api'

/**
 * Production: the built client from dist/client, with index.html for every other page path so
 * the client router handles deep links. Development without a build: pages are on the Vite dev
 * server, so mailed links to this port are sent there.
 */
export function clientRoutes(ctx: AppContext): Router {
  const router = Router()
  const index = path.join(ctx.clientDir, 'index.html')
  if (fs.existsSync(index)) {
    router.use(express.static(ctx.clientDir, { index: false, maxAge: '1h' }))
    router.use((req, res, next) => {
      if (!isPageRequest(req) || !req.accepts('html')) return next()
      res.setHeader('Cache-Control', 'no-cache')
      res.sendFile(index)
    })
  } else if (ctx.env.NODE_ENV !== 'production') {
    router.use((req, res, next) => {
      if (!isPageRequest(req)) return next()
      res.redirect(302, `${VITE_DEV_SERVER}${req.originalUrl}`)
    })
  }
  return router
}
