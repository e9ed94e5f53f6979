import { ConnectionError } from 'sequelize'

/** Seconds a client is told to wait before trying again when a dependency is down. */
export const RETRY_AFTER_SECONDS = 5

// Socket-level failures, as the drivers report them: the database or Redis went away mid-query.
const LOST_CONNECTION = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'PROTOCOL_CONNECTION_LOST', '57P01', '57P03'])
const LOST_MESSAGE = /Connection terminated|connection manager was closed|Stream isn't writeable|Connection is closed|enableOfflineQueue|Reached the max retries per request|Command timed out|connect ETIMEDOUT/i

/**
 * Whether an error means "a dependency is down" (answered 503 with Retry-After) rather than a
 * bug (500): Sequelize's connection errors, a connection lost under a query, ioredis failing
 * fast while Redis is unreachable.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    if (current instanceof ConnectionError) return true
    if (current.name === 'MaxRetriesPerRequestError') return true
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && LOST_CONNECTION.has(code)) return true
    if (LOST_MESSAGE.test(current.message)) return true
    current = (current as { parent?: unknown; original?: unknown; cause?: unknown }).parent ?? (current as { cause?: unknown }).cause
  }
  return false
}
