import SCIMMY from 'scimmy'

// SCIMMY keeps its configuration and resource types process-wide, and a test process builds
// several apps: it is set up once here, with nothing of any app in it. Each request hands its own
// team and context to the layer's routes, which use SCIMMY's parts (the filter parser, the
// schemas' coercion, PatchOp, the error messages), never its resource handlers.
/** A page is at most this long, whatever `count` asks (the ServiceProviderConfig's `filter.maxResults`). */
export const MAX_RESULTS = 200

// `authenticationSchemes` appends: emptied first, so that setting it up twice gives one.
SCIMMY.Config.set('authenticationSchemes', [])
SCIMMY.Config.set({
  patch: true,
  filter: MAX_RESULTS,
  // Sorting would have to read every member to order them; pages come in a stable order instead.
  sort: false,
  bulk: false,
  changePassword: false,
  etag: false,
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'OAuth Bearer Token',
      description: "A team's SCIM token (`scim_…`, made on the team page), as `Authorization: Bearer <token>`",
      specUri: 'https://datatracker.ietf.org/doc/html/rfc6750',
      primary: true,
    },
  ],
})
SCIMMY.Resources.declare(SCIMMY.Resources.User)
SCIMMY.Resources.declare(SCIMMY.Resources.Group)

export { SCIMMY }
export const ScimError = SCIMMY.Types.Error
export type ScimError = InstanceType<typeof SCIMMY.Types.Error>

/** A SCIM error; `scimType` only where RFC 7644 §3.12 names one (SCIMMY's types want a string, its body leaves a null out). */
export const scimError = (status: number, detail: string, scimType?: string) => new ScimError(status, (scimType ?? null) as string, detail)

/** RFC 7644's media type: every answer of /scim/v2 has it. */
export const SCIM_CONTENT_TYPE = 'application/scim+json'

/** The statuses SCIMMY's error message takes: those RFC 7644 §3.12 lists. */
const SCIMMY_STATUSES = new Set([307, 308, 400, 401, 403, 404, 409, 412, 413, 500, 501])

/**
 * The error message of RFC 7644 §3.12, as SCIMMY writes it (`status` a string); one of a status
 * its list leaves out (a 503 of an outage, a 429) in the same shape, with no `scimType`.
 */
export const errorBody = (status: number, detail: string, scimType?: string) =>
  SCIMMY_STATUSES.has(status)
    ? new SCIMMY.Messages.Error(scimError(status, detail, scimType))
    : { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(status), detail }

export const invalidValue = (detail: string) => scimError(400, detail, 'invalidValue')
export const mutability = (detail: string) => scimError(400, detail, 'mutability')
export const scimNotFound = (id: string) => scimError(404, `Resource ${id} not found`)

/** `ListResponse` of RFC 7644 §3.4.2, for one page whose total is counted apart (SCIMMY's would re-slice a page). */
export const listResponse = (resources: unknown[], totalResults: number, startIndex: number) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
  totalResults,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
})
