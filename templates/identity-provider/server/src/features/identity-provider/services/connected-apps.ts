import { Op } from 'sequelize'
import { OAuthClient } from '../models/oauth-client.js'
import { OidcPayload } from '../models/oidc-payload.js'
import { API_SCOPES, OPENID_SCOPES } from './urls.js'

/** An app a person allowed, as `/settings/connected-apps` lists it. */
export interface ConnectedAppJson {
  client_id: string
  name: string
  scopes: string[]
  /** When the person first allowed it. */
  createdAt: string
  /** When the app last got a token for the person (a code, a refresh), or null. */
  lastUsedAt: string | null
}

const SCOPE_ORDER: readonly string[] = [...OPENID_SCOPES, ...API_SCOPES]
const live = () => ({ [Op.or]: [null, { [Op.gt]: new Date() }] })
const iatOf = (payload: string) => (JSON.parse(payload) as { iat?: number }).iat ?? null

/** The person's live grants, one entry per client, with the scopes they hold and the last token issued under them. */
export async function connectedApps(userId: number): Promise<ConnectedAppJson[]> {
  const rows = await OidcPayload.findAll({ attributes: ['kind', 'payload', 'clientId'], where: { userId, clientId: { [Op.ne]: null }, expiresAt: live() } })
  const apps = new Map<string, { scopes: Set<string>; createdAt: number; lastUsedAt: number | null }>()
  for (const row of rows.filter((r) => r.kind === 'Grant')) {
    const grant = JSON.parse(row.payload) as { iat?: number; openid?: { scope?: string }; resources?: Record<string, string> }
    const app = apps.get(row.clientId!) ?? { scopes: new Set<string>(), createdAt: grant.iat ?? 0, lastUsedAt: null }
    for (const scope of [grant.openid?.scope ?? '', ...Object.values(grant.resources ?? {})].join(' ').split(' ')) if (scope) app.scopes.add(scope)
    app.createdAt = Math.min(app.createdAt, grant.iat ?? app.createdAt)
    apps.set(row.clientId!, app)
  }
  for (const row of rows.filter((r) => r.kind !== 'Grant')) {
    const app = apps.get(row.clientId!)
    const iat = iatOf(row.payload)
    if (app && iat !== null && (app.lastUsedAt === null || iat > app.lastUsedAt)) app.lastUsedAt = iat
  }
  const names = new Map((await OAuthClient.findAll({ attributes: ['clientId', 'name'], where: { clientId: [...apps.keys()] } })).map((c) => [c.clientId, c.name]))
  return [...apps]
    .filter(([clientId]) => names.has(clientId))
    .map(([clientId, app]) => ({
      client_id: clientId,
      name: names.get(clientId)!,
      scopes: [...app.scopes].sort((a, b) => SCOPE_ORDER.indexOf(a) - SCOPE_ORDER.indexOf(b)),
      createdAt: new Date(app.createdAt * 1000).toISOString(),
      lastUsedAt: app.lastUsedAt === null ? null : new Date(app.lastUsedAt * 1000).toISOString(),
    }))
    .sort((a, b) => a.name.localeCompare(b.name))
}
