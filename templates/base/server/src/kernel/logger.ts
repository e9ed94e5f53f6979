import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino'
import type { NodeEnv } from './config/env.js'

/**
 * pino: one JSON object per line, every value escaped, so no input (a name with a line break, a
 * crafted URL) can forge a log line. Call it as pino does: `logger.error({ err }, 'message')`.
 */
export type Logger = PinoLogger

/**
 * Production and test: JSON on stdout, for a log shipper to read. Development: the same records
 * made readable by pino-pretty (in a worker thread, off the request path). LOG_LEVEL overrides
 * the level (`debug`, `warn`, `silent`, …).
 */
export function createLogger(nodeEnv: NodeEnv, destination?: DestinationStream): Logger {
  const level = process.env.LOG_LEVEL || 'info'
  if (destination) return pino({ level }, destination)
  if (nodeEnv === 'development') {
    return pino({ level, transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss' } } })
  }
  return pino({ level })
}
