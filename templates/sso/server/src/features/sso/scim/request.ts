import type { Request, Response } from 'express'
import type { AppContext } from '../../../kernel/index.js'
import { MAX_RESULTS } from './protocol.js'

/** The SCIM base URL the IdP is given: `{BASE_URL}/scim/v2`. */
export const scimBase = (ctx: Pick<AppContext, 'env'>) => `${ctx.env.BASE_URL.replace(/\/+$/, '')}/scim/v2`

/** The team whose token authenticated the request (scim/auth.ts). */
export const teamOf = (res: Response): number => res.locals.scimTeamId as number

/** The query as SCIMMY reads it: `startIndex` and `count` as the integers they are written as. */
export type ScimQuery = { filter?: string; excludedAttributes?: string; attributes?: string; startIndex?: number; count?: number }

export function queryOf(req: Request): ScimQuery {
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) }
  for (const name of ['startIndex', 'count']) {
    const value = query[name]
    if (typeof value === 'string' && /^-?\d{1,9}$/.test(value)) query[name] = Number(value)
    else delete query[name]
  }
  return query as ScimQuery
}

/** RFC 7644 §3.4.2.4: `startIndex` from 1, `count` at most MAX_RESULTS (none asked: MAX_RESULTS). */
export function pageOf(constraints: { startIndex?: number; count?: number } | undefined): { startIndex: number; count: number } {
  return { startIndex: Math.max(constraints?.startIndex ?? 1, 1), count: Math.min(Math.max(constraints?.count ?? MAX_RESULTS, 0), MAX_RESULTS) }
}
