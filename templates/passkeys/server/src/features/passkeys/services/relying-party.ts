import { type AppSettings, envOf, project } from '../../../kernel/index.js'
import { config } from '../config.js'

/** The port of the Vite dev server (vite.config.ts), whose pages are another origin than BASE_URL's. */
const DEV_SERVER_PORT = '5173'

/**
 * Who the passkeys belong to: RP_ID (BASE_URL's host name unless set), and the page origins a
 * ceremony may come from: BASE_URL's, and in development the dev server's on the same host.
 */
export function relyingParty(settings: Pick<AppSettings, 'env'>) {
  const env = envOf(config, settings.env)
  const origins = [env.BASE_ORIGIN]
  if (env.NODE_ENV === 'development') {
    const dev = new URL(env.BASE_ORIGIN)
    dev.port = DEV_SERVER_PORT
    origins.push(dev.origin)
  }
  return { id: env.RP_ID, name: project.name, origins }
}
