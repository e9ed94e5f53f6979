import type { z } from 'zod'

// How a route is described in the API's OpenAPI document (kernel/openapi/document.ts). Types only: the
// descriptions themselves are loaded when the document is first asked for, never at start-up.

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

/** One answer of a route besides its errors: a JSON body (`body`), another media type, or none (204, 302). */
export interface ResponseDoc {
  description: string
  body?: z.ZodType
  /** Defaults to application/json when `body` is given. */
  contentType?: string
}

/** One route, as mounted. */
export interface RouteDoc {
  method: HttpMethod
  /** The path as Express mounts it (`/api/users/:id`): the document turns `:id` into `{id}`. */
  path: string
  summary: string
  /** The group the reference lists it under. */
  tag: string
  /** Behind authentication (the access cookie; 401 without it); `optional` when a session only changes the answer. */
  auth?: boolean | 'optional'
  /** The zod schema the route validates its JSON body with (the request body and 422). */
  body?: z.ZodType
  /** The zod schema the route validates its query with (the query parameters and 422). */
  query?: z.ZodType
  /** The answers besides the errors below, by status. */
  responses: Record<number, ResponseDoc>
  /**
   * Error statuses besides those every route of its kind answers (500 and 503 always; 400, 403
   * and 413 with a body; 401 behind authentication; 422 with a body or a query; 204 for
   * Precognition with a body), each with the API's error body `{message, errors?}`.
   */
  errors?: readonly number[]
  /**
   * Only the app's own sign-in may call it (a key gets 403: kernel/auth/principal.ts `sessionOnly`),
   * besides the routes that are so by where they are (`sessionOnlyRoute`): not listed for a bearer.
   */
  sessionOnly?: boolean
  /** Validates its body with Precognition (`Precognition: true` → 204): true whenever it has a body, unless set. */
  precognitive?: boolean
}

/** What a feature (base's or a layer's) documents: its routes, given the app's context. */
export type RouteDocs<Ctx> = (ctx: Ctx) => RouteDoc[] | Promise<RouteDoc[]>
