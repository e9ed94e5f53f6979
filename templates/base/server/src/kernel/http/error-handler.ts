import type { ErrorRequestHandler, Request, RequestHandler } from 'express'
import type { Logger } from '../logger.js'
import { HttpError, notFound } from './errors.js'
import { isDependencyUnavailable, RETRY_AFTER_SECONDS } from './unavailable.js'
import { translatorOf } from '../i18n/request-locale.js'

/** Errors body-parser and the router raise on bad input, answered with the API's error messages. */
const clientErrors: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'errors.malformedJson'],
  'entity.too.large': [413, 'errors.tooLarge'],
  'entity.verify.failed': [400, 'errors.malformedBody'],
  'encoding.unsupported': [415, 'errors.unsupportedEncoding'],
  'charset.unsupported': [415, 'errors.unsupportedCharset'],
  'request.aborted': [400, 'errors.aborted'],
  'request.size.invalid': [400, 'errors.sizeMismatch'],
  'parameters.too.many': [413, 'errors.tooManyParameters'],
}

export const notFoundHandler: RequestHandler = () => {
  throw notFound()
}

/**
 * Every failure leaves as `{message, errors?}`, in the reader's language; a 500 never carries a
 * stack trace or SQL, and a dependency that is down is a 503 with Retry-After, never a 500. A 401
 * names the layers' `challenges` in `WWW-Authenticate`, when they have any.
 */
export function errorHandler(logger: Logger, challenges: (req: Request) => readonly string[] = () => []): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error)
    const t = translatorOf(req)
    if (error instanceof HttpError) {
      const challenge = error.status === 401 ? challenges(req).join(', ') : ''
      if (challenge) res.setHeader('WWW-Authenticate', challenge)
      res.status(error.status).json(error.toJSON(t))
      return
    }
    const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown }
    const known = typeof type === 'string' ? clientErrors[type] : undefined
    if (known) {
      res.status(known[0]).json({ message: t(known[1]) })
      return
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json({ message: t(status === 404 ? 'errors.notFound' : 'errors.badRequest') })
      return
    }
    if (isDependencyUnavailable(error)) {
      // An outage, not a bug: the client may retry, and one warning per request is enough.
      logger.warn({ err: error, method: req.method, url: req.originalUrl }, 'Dependency unavailable')
      res.status(503).set('Retry-After', String(RETRY_AFTER_SECONDS)).json({ message: t('errors.serviceUnavailable') })
      return
    }
    logger.error({ err: error, method: req.method, url: req.originalUrl }, 'Request failed')
    res.status(500).json({ message: t('errors.serverError') })
  }
}
