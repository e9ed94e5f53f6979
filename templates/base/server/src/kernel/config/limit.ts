/** One rate limit: at most `limit` counted requests per `windowMs` (kernel/config/rate-limits.ts). */
export interface Limit {
  limit: number
  windowMs: number
}
