import { z } from 'zod'
import { project } from '../config/project.js'
import type { AppContext } from '../context.js'
import { sessionOnlyRoute } from '../auth/session-only.js'
import { cookieNames } from '../auth/cookies.js'
import { errorBody } from './schemas.js'
import { kernelRouteDocs } from './kernel-routes.js'
import type { ResponseDoc, RouteDoc } from './types.js'

// Builds the OpenAPI 3.1 document from the routes' descriptions (the kernel's own, kernel-routes.ts,
// and each slice's `openapi`). Every schema in it is zod's own JSON Schema output (`z.toJSONSchema`, draft
// 2020-12, the dialect of OpenAPI 3.1): requests as the routes read them (`io: 'input'`),
// answers as they are sent (`io: 'output'`). Loaded by the first request for the document only.

export type OpenApiDocument = {
  openapi: '3.1.1'
  info: { title: string; version: string; description: string }
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, object>; securitySchemes: Record<string, object> }
}

type JsonSchema = Record<string, unknown>
type Operation = Record<string, unknown> & { responses: Record<string, { description: string; content?: Record<string, { schema?: JsonSchema }> }> }

/** Every route of this app: the kernel's own, then each slice's in the registry's order. */
export async function collectRouteDocs(ctx: AppContext): Promise<RouteDoc[]> {
  const lists = await Promise.all([kernelRouteDocs(ctx), ...ctx.features.map((feature) => feature.openapi?.(ctx) ?? [])])
  return lists.flat()
}

export async function buildDocument(ctx: AppContext): Promise<OpenApiDocument> {
  const operations = new Map<string, RouteDoc>()
  // A layer may add answers to a route of base's (a second factor's login answer): they merge.
  for (const doc of await collectRouteDocs(ctx)) {
    const key = `${doc.method} ${doc.path}`
    const seen = operations.get(key)
    operations.set(key, seen ? merge(seen, doc) : doc)
  }
  // The layers' ways in (an API key) and their schemes, on the routes they may call.
  const authenticators = ctx.features.flatMap((feature) => feature.authenticators ?? [])
  const schemes: Record<string, object> = Object.assign({}, ...authenticators.map((authenticator) => authenticator.securitySchemes ?? {}))
  const ways = { any: authenticators.length > 0, schemes: Object.keys(schemes) }
  const paths: OpenApiDocument['paths'] = {}
  for (const doc of operations.values()) (paths[openApiPath(doc.path)] ??= {})[doc.method] = operation(doc, ways, sessionOnlyRoute(ctx.features, doc.method, doc.path))
  const access = cookieNames(ctx).access
  return {
    openapi: '3.1.1',
    info: {
      title: project.name,
      version: '1.0.0',
      description:
        'Generated from the zod schemas the routes validate with. Every error answers `{message, errors?}`, `errors` mapping a field to its messages. ' +
        'State-changing requests from a browser must come from a trusted origin (CSRF check).',
    },
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBody, 'output') },
      securitySchemes: { cookie: { type: 'apiKey', in: 'cookie', name: access, description: 'The access token cookie that signing in sets (HttpOnly, signed).' }, ...schemes },
    },
  }
}

/** `/api/users/:id` → `/api/users/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON',
  401: 'Not signed in',
  403: 'Forbidden (a role, a step-up confirmation or the CSRF check)',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body over 100 KB',
  422: 'Validation failed',
  429: 'Too many attempts (`Retry-After`)',
  500: 'Server error',
  503: 'A dependency is down (`Retry-After`)',
}

/**
 * `ways`: whether layers bring ways in (a key is refused, 403, where only a session may go or a
 * scope is missing) and their schemes, listed where they may go; `sessionOnly`: whether this
 * route is one only a session may use (kernel/auth/principal.ts), and never an impersonation.
 */
function operation(doc: RouteDoc, ways: { any: boolean; schemes: readonly string[] }, sessionOnly: boolean): Operation {
  const hasBody = doc.body !== undefined
  const errors = new Set([500, 503, ...(doc.errors ?? [])])
  if (doc.method !== 'get') [400, 403, 413].forEach((status) => errors.add(status))
  if (doc.auth === true) errors.add(401)
  if (ways.any && (doc.auth || sessionOnly)) errors.add(403)
  // An admin signed in as the user (impersonation) is refused every route only the owner may use.
  if (doc.auth && sessionOnly) errors.add(403)
  const others = doc.auth === true && !sessionOnly ? ways.schemes.map((name) => ({ [name]: [] })) : []
  // A layer's credential may have limits of its own (an API key's requests a minute), met on any route it calls.
  if (others.length > 0) errors.add(429)
  const security = [...(doc.auth === 'optional' ? [{}] : []), { cookie: [] }, ...others]
  if (hasBody || doc.query) errors.add(422)
  const responses: Operation['responses'] = {}
  for (const [status, answer] of Object.entries(doc.responses)) responses[status] = response(answer)
  if (hasBody && doc.precognitive !== false) responses['204'] ??= { description: 'Precognition: the body is valid (`Precognition: true`), nothing else ran' }
  for (const status of [...errors].sort()) {
    responses[String(status)] ??= { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }
  }
  const params = [...doc.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }))
  return {
    tags: [doc.tag],
    summary: doc.summary,
    operationId: `${doc.method}${doc.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`,
    ...(doc.auth ? { security } : {}),
    ...(params.length > 0 || doc.query ? { parameters: [...params, ...(doc.query ? queryParameters(doc.query) : [])] } : {}),
    ...(hasBody ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(doc.body!, 'input') } } } } : {}),
    responses,
  }
}

function response(answer: ResponseDoc): Operation['responses'][string] {
  if (!answer.body) return { description: answer.description, ...(answer.contentType ? { content: { [answer.contentType]: {} } } : {}) }
  return { description: answer.description, content: { [answer.contentType ?? 'application/json']: { schema: jsonSchema(answer.body, 'output') } } }
}

/** A query schema's fields as parameters; an object field (`filter`) is sent as `filter[role]=…` (deepObject). */
function queryParameters(query: z.ZodType): object[] {
  const schema = jsonSchema(query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] }
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    ...(property.type === 'object' ? { style: 'deepObject', explode: true } : {}),
    schema: property,
  }))
}

/** zod's JSON Schema of one request or answer. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    // A rule only code can check (a checkbox's accepted values) still documents its field.
    unrepresentable: 'any',
  }) as JsonSchema
  delete json.$schema
  return json
}

function merge(base: RouteDoc, extra: RouteDoc): RouteDoc {
  const responses = { ...base.responses }
  for (const [status, answer] of Object.entries(extra.responses)) {
    const seen = responses[Number(status)]
    responses[Number(status)] = seen?.body && answer.body ? { description: `${seen.description}; or ${answer.description}`, body: z.union([seen.body, answer.body]) } : answer
  }
  return { ...base, responses, errors: [...new Set([...(base.errors ?? []), ...(extra.errors ?? [])])] }
}
