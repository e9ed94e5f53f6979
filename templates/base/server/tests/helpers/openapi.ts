import type { Server } from 'node:http'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import type { Express, Router } from 'express'
import type { AppContext } from '../../src/kernel/context.js'
import { buildDocument, type OpenApiDocument } from '../../src/kernel/openapi/document.js'
import { cookieNames } from '../../src/kernel/auth/cookies.js'

// Checks the answers the HTTP tests receive against the app's own OpenAPI document: wired into
// supertest by setup/validate-responses.ts, so every request a test makes through it is checked.

interface Operation {
  method: string
  template: string
  pattern: RegExp
  /** Literal paths are matched before templated ones: `/api/things/current` before `/api/things/{id}`. */
  params: number
}

interface Checker {
  document: OpenApiDocument
  operations: Operation[]
  ajv: Ajv2020
  validators: Map<string, ValidateFunction>
}

/** The apps the test helpers built, with their contexts: the document depends on both. */
const contexts = new WeakMap<Express, AppContext>()
export const registerApp = (app: Express, ctx: AppContext) => void contexts.set(app, ctx)

// Built and compiled once per worker for each kind of app (its layers and the settings the document reads).
const checkers = new Map<string, Promise<Checker>>()
const checkerKey = (ctx: AppContext) =>
  [ctx.features.map((feature) => feature.name).join(','), ctx.auth.requireEmailVerification, ctx.env.API_DOCS, cookieNames(ctx).access].join('|')

export function checkerFor(ctx: AppContext): Promise<Checker> {
  const key = checkerKey(ctx)
  let checker = checkers.get(key)
  if (!checker) {
    checker = buildDocument(ctx).then((document) => {
      // Formats are checked by the patterns zod writes beside them; the document itself is a schema resource to point into.
      const ajv = new Ajv2020({ strict: false, validateFormats: false })
      ajv.addSchema({ ...document, $id: 'openapi.json' })
      const operations = Object.entries(document.paths).flatMap(([template, methods]) =>
        Object.keys(methods).map((method) => ({
          method,
          template,
          pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`),
          params: (template.match(/\{/g) ?? []).length,
        })),
      )
      return { document, operations: operations.sort((a, b) => a.params - b.params), ajv, validators: new Map() }
    })
    checkers.set(key, checker)
  }
  return checker
}

/** What is wrong with an answer to `method path`, or undefined; a route the document lacks is the route-coverage test's to catch. */
export async function responseProblem(ctx: AppContext, method: string, path: string, status: number, contentType: string | undefined, body: unknown): Promise<string | undefined> {
  const verb = method.toLowerCase()
  if (verb === 'head' || verb === 'options') return undefined
  const checker = await checkerFor(ctx)
  const pathname = path.split('?')[0]!
  const operation = checker.operations.find((candidate) => candidate.method === verb && candidate.pattern.test(pathname))
  if (!operation) return undefined
  const where = `${method.toUpperCase()} ${pathname} → ${status}`
  const answer = checker.document.paths[operation.template]![verb]!.responses[String(status)]
  if (!answer) return `${where}: status not documented for ${operation.template}`
  const type = contentType?.split(';')[0]?.trim()
  if (!type || !answer.content) return undefined
  const media = answer.content[type]
  if (!media) return `${where}: ${type} not documented (${Object.keys(answer.content).join(', ')})`
  if (!media.schema || type !== 'application/json') return undefined
  // The errors all point at one component: compiled once, not once per route and status.
  const ref = (media.schema as { $ref?: string }).$ref
  const pointer = ref ? `openapi.json${ref}` : `openapi.json#/paths/${escape(operation.template)}/${verb}/responses/${status}/content/${escape(type)}/schema`
  let validate = checker.validators.get(pointer)
  if (!validate) {
    validate = checker.ajv.compile({ $ref: pointer })
    checker.validators.set(pointer, validate)
  }
  if (validate(body)) return undefined
  return `${where}: body does not match the document: ${checker.ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`
}

const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1')

/** The app a supertest request goes to: the handler of the server it wrapped the app in. */
export function contextOf(target: unknown): AppContext | undefined {
  const app = typeof target === 'function' ? target : (target as Server | undefined)?.listeners?.('request')[0]
  return app ? contexts.get(app as Express) : undefined
}

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> }
  handle?: { stack?: RouterLayer[] }
  rawPath?: string | string[]
}

/** Every `method path` the app mounts under /api and /.well-known, found by walking its routers' stacks. */
export function mountedRoutes(app: Express): string[] {
  const found = new Set<string>()
  const join = (prefix: string, path: string) => (prefix + (path === '/' ? '' : path)).replace(/\/+$/, '') || '/'
  const walk = (stack: RouterLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') found.add(`${method} ${join(prefix, layer.route.path)}`)
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, join(prefix, typeof layer.rawPath === 'string' ? layer.rawPath : '/'))
      }
    }
  }
  walk((app as unknown as { router: Router & { stack: RouterLayer[] } }).router.stack, '')
  return [...found].filter((route) => / \/(api|\.well-known)\//.test(route)).sort()
}
