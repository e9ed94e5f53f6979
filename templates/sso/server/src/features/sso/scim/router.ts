import express, { type ErrorRequestHandler, type Request, type RequestHandler, Router } from 'express'
import { type AppContext, authenticate, HttpError, translatorOf } from '../../../kernel/index.js'
import { scimTokenOnly } from './auth.js'
import { createGroup, deleteGroup, listGroups, patchGroup, replaceGroup, showGroup } from './groups.js'
import { errorBody, SCIM_CONTENT_TYPE, SCIMMY, ScimError, scimError } from './protocol.js'
import { queryOf, scimBase } from './request.js'
import { createUser, deleteUser, listUsers, patchUser, replaceUser, showUser } from './users.js'

/** What body-parser throws on a body it can't read, as SCIM answers it. */
const bodyErrors: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'invalidSyntax'],
  'entity.too.large': [413, ''],
  'encoding.unsupported': [415, ''],
  'charset.unsupported': [415, ''],
}

/**
 * Every failure of /scim/v2 in SCIM's error body (RFC 7644 §3.12): SCIMMY's, the app's own
 * (a 429, a 422 of the security core as a 400) and body-parser's. Anything else the app's error
 * handler answers as anywhere (it logs, tells an outage from a bug, gives a 503 its Retry-After),
 * its `{message}` written as SCIM's body: a 503 while the database is down is one an IdP reads.
 */
const scimErrors: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) return next(error)
  const send = (status: number, detail: string, scimType?: string) => res.status(status).type(SCIM_CONTENT_TYPE).json(errorBody(status, detail, scimType))
  if (error instanceof ScimError) return send(error.status, error.message, error.scimType ?? undefined)
  if (error instanceof HttpError) {
    if (error.status === 401) return send(401, "A valid SCIM token of the team is required, as 'Authorization: Bearer <token>'")
    const t = translatorOf(req)
    const detail = t(Object.values(error.errors ?? {})[0]?.[0] ?? error.message)
    return error.status === 422 ? send(400, detail, 'invalidValue') : send(error.status, detail)
  }
  const known = bodyErrors[String((error as { type?: unknown } | null)?.type)]
  if (known) return send(known[0], known[0] === 413 ? 'The body is larger than 100 KB' : 'The body is not JSON', known[1] || undefined)
  const json = res.json.bind(res)
  res.json = ((body: { message?: unknown } | undefined) => json(errorBody(res.statusCode, String(body?.message ?? '')))) as typeof res.json
  next(error)
}

/** The discovery endpoints (RFC 7644 §4), their `meta.location` under this app's base. */
function discovery(ctx: AppContext, read: (req: Request) => Promise<unknown>): RequestHandler {
  return async (req, res) => {
    const base = scimBase(ctx)
    SCIMMY.Resources.ServiceProviderConfig.basepath(base)
    SCIMMY.Resources.ResourceType.basepath(base)
    SCIMMY.Resources.Schema.basepath(base)
    SCIMMY.Resources.User.basepath(base)
    SCIMMY.Resources.Group.basepath(base)
    res.json(await read(req))
  }
}

/**
 * /scim/v2 of the team whose token the request carries: Users (the team's members), Groups (its
 * roles), and what describes them. JSON in and `application/scim+json` out, never cached.
 */
export function scimRouter(ctx: AppContext): Router {
  const router = Router()
  router.use((_req, res, next) => {
    res.type(SCIM_CONTENT_TYPE)
    res.setHeader('Cache-Control', 'no-store')
    next()
  })
  router.use(authenticate(ctx), scimTokenOnly)
  router.use(express.json({ type: ['application/scim+json', 'application/json'], limit: '100kb' }))
  router.get('/ServiceProviderConfig', discovery(ctx, () => new SCIMMY.Resources.ServiceProviderConfig().read()))
  router.get('/ResourceTypes', discovery(ctx, (req) => new SCIMMY.Resources.ResourceType(undefined, queryOf(req)).read()))
  router.get('/ResourceTypes/:id', discovery(ctx, (req) => new SCIMMY.Resources.ResourceType(String(req.params.id), queryOf(req)).read()))
  router.get('/Schemas', discovery(ctx, (req) => new SCIMMY.Resources.Schema(undefined, queryOf(req)).read()))
  router.get('/Schemas/:id', discovery(ctx, (req) => new SCIMMY.Resources.Schema(String(req.params.id), queryOf(req)).read()))
  router.get('/Users', listUsers(ctx))
  router.post('/Users', createUser(ctx))
  router.get('/Users/:id', showUser(ctx))
  router.put('/Users/:id', replaceUser(ctx))
  router.patch('/Users/:id', patchUser(ctx))
  router.delete('/Users/:id', deleteUser(ctx))
  router.get('/Groups', listGroups(ctx))
  router.post('/Groups', createGroup())
  router.get('/Groups/:id', showGroup(ctx))
  router.put('/Groups/:id', replaceGroup(ctx))
  router.patch('/Groups/:id', patchGroup(ctx))
  router.delete('/Groups/:id', deleteGroup())
  router.use(() => {
    throw scimError(404, 'No such SCIM endpoint')
  })
  router.use(scimErrors)
  return router
}
