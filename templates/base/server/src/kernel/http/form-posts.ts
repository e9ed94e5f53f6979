import express, { type Request, type RequestHandler } from 'express'
import { security } from '../config/security.js'

/** The requests that came in on a path a layer lists in `routes.formPosts` (kernel/feature.ts). */
const formPosts = new WeakSet<Request>()

/**
 * Ahead of the API's middleware, on the paths the layers list in `formPosts`: an HTML form's body
 * (`application/x-www-form-urlencoded`, as an identity provider's page posts it) is read here,
 * within the API's size limit, so the API's own parser (JSON, anything else dropped) leaves it be.
 */
export function formPostParser(): RequestHandler {
  const urlencoded = express.urlencoded({ extended: false, limit: security.maxBodyBytes, parameterLimit: 20 })
  return (req, res, next) => {
    formPosts.add(req)
    urlencoded(req, res, next)
  }
}

/** Whether the request came in on a form-post path: the CSRF check lets it pass (kernel/auth/csrf.ts). */
export const isFormPost = (req: Request) => formPosts.has(req)
