// What a feature layer is to the server: one `ServerFeature` object, exported by
// `features/<layer>/index.ts` (through kernel/define-feature.ts) and listed by the rendered registry
// `features/index.ts`. Base never imports a layer: create-context.ts (and the command-line entry
// points) hand the registry down as `features`, and base reads each field where its point is. The
// types take the handlers' context as a parameter (`Ctx`, the app's `AppContext`) so that
// kernel/context.ts can carry the registry without an import cycle.
//
// What a layer names (its variables, rate limits, cookies, user fields, jobs, events) is typed by
// its own object, never declared into the kernel's interfaces: the kernel holds the values of every
// layer typed as it knows them (base's names), a slice reads its own through kernel/own-settings.ts
// (checked against its own `config` when read), and the registry exports the merged types
// (`EnvOf<…>` and the others below) for whoever reads every layer's, the tests.
import type { Express, Request, RequestHandler, Response, Router } from 'express'
import type { ModelAttributes, Sequelize, Transaction } from 'sequelize'
import type { Limit } from './config/limit.js'
import type { Restriction } from './auth/principal.js'
import type { RateLimiters } from './http/rate-limiters.js'
import type { CredentialEventKind } from './security/events.js'
import type { Migration } from './db/migrations/types.js'
import type { FeatureMessages } from './i18n/catalogue.js'
import type { RouteDoc } from './openapi/types.js'
import type { User } from './models/user.js'
import type { SignInUser, UserRow } from './services/user-json.js'
import type { AuthIdentity } from './http/request.js'

/** What a layer's variables may depend on, as kernel/config/env.ts has read them (spelled out here: importing env.ts would close a cycle). */
export interface EnvBasics {
  NODE_ENV: 'development' | 'production' | 'test'
  BASE_URL: string
  BASE_ORIGIN: string
}

/**
 * Reads one variable of a layer: `read` gives a variable's trimmed value (empty is unset), `fail`
 * reports one bad variable, and start-up stops with every line reported, as for base's.
 */
export type EnvReader = (read: (name: string) => string | undefined, fail: (name: string, problem: string) => void, base: EnvBasics) => unknown

/**
 * Settings read at start-up. Plain data: the layer's `config.ts` imports nothing of the app at run
 * time. Written `as const satisfies FeatureConfig`, so that its names stay literal: they are the
 * layer's declaration of them (kernel/own-settings.ts reads them typed by this object).
 */
export interface FeatureConfig {
  /** Env variables holding secrets, checked like JWT_ACCESS_SECRET. */
  readonly secrets?: readonly string[]
  /** Default rate limits by name; a test may override them by the same names. */
  readonly rateLimits?: Readonly<Record<string, Limit>>
  /** Cookie suffixes by name: prefixed like the others, and CSRF-checked. */
  readonly cookies?: Readonly<Record<string, string>>
  /** The layer's own environment variables, each by the name `ctx.env` holds it under, with what reads it. */
  readonly env?: Readonly<Record<string, EnvReader>>
}

/**
 * The layer's tables, and the columns it adds to `users` (declare them on `User` too: the one
 * `declare module` into the kernel, as Sequelize's model class types its columns that way).
 */
export interface FeatureModels {
  models: { initModel(sequelize: Sequelize): void }[]
  userAttributes?: ModelAttributes
}

/** Applied after base's, in layer order; a migration imports no application code. */
export type FeatureMigrations = { name: string; up: Migration; down?: Migration }[]

/**
 * What a user's JSON carries for the layer. The row and the model hold the layer's columns next to
 * base's (`unknown` to the kernel: read them with a conversion); what `fromRow` returns is the
 * layer's part of the JSON, typed from this object (`UserJsonOf`).
 */
export interface UserFields {
  /** Extra columns of the `users u` row the hot paths select, written as kernel/db/sql.ts quotes them. */
  readonly columns: readonly string[]
  fromRow(row: UserRow): Readonly<Record<string, unknown>>
  fromModel(user: User): Readonly<Record<string, unknown>>
}

/**
 * A login step that takes over (a second factor asks for a code instead of signing in): it has
 * set what it needs (its cookie); `body` answers a JSON login, `page` is where a sign-in that
 * came by browser redirects (one through a provider) sends the browser next.
 */
export interface LoginStepAnswer {
  body: object
  page: string
}

/**
 * Runs between a right password (or another first factor) and a session, in layer order;
 * `factor` is the first factor as the session will keep it (kernel/auth/sign-in.ts).
 */
export type LoginStep<Ctx> = (req: Request, res: Response, ctx: Ctx, user: SignInUser, remember: boolean, factor: string) => Promise<LoginStepAnswer | undefined>

/**
 * Whether a way in may sign this account in: a refusal, as a catalogue message telling the person
 * which way to use instead, or undefined. Asked before every sign-in (`factor` as signIn takes it:
 * `password`, `passkey:<id>`, `provider:<name>`, a layer's own) and before the login steps, so that
 * a refused account meets no second factor first (kernel/auth/sign-in.ts).
 */
export type SignInRefusal<Ctx> = (ctx: Ctx, identity: AuthIdentity, factor: string) => Promise<string | undefined>

/**
 * Routes mounted on the kernel's routers (kernel/http/api.ts), each slice's in the registry's
 * order; `limits` are the app's named rate limiters (kernel/http/rate-limits.ts).
 */
export interface FeatureRoutes<Ctx> {
  /** On /api/auth, signed out; only the app's own sign-in may call them (a key: 403). */
  auth?(router: Router, ctx: Ctx, limits: RateLimiters): void
  /**
   * On /api itself, for an area of the slice's own (`/api/<area>/…`): behind the API's headers,
   * CSRF check and body parsing, after /auth and /account, and before the API's 404.
   */
  api?(router: Router, ctx: Ctx, limits: RateLimiters): void
  /** On /api/account ahead of authentication: a mailed link that may be opened signed out. */
  accountOpen?(router: Router, ctx: Ctx, limits: RateLimiters): void
  /**
   * On /api/account behind authentication, open to any principal with the route's scope (an API
   * key's too). Listed rather than mounted, so that the rule "only a session may use the rest of
   * /api/account" has one source: the router and the API document both read this list.
   */
  accountShared?: readonly SharedRoute<Ctx>[]
  /**
   * On /api/account, behind authentication, for the app's own sign-in alone; `passwordChecked`
   * counts wrong passwords per user. A sensitive route takes kernel/auth/require-confirmed.ts
   * after it (step-up).
   */
  account?(router: Router, ctx: Ctx, passwordChecked: RequestHandler[], limits: RateLimiters): void
  /** On the app itself, outside /api (a `/.well-known/` document), ahead of the client's pages. */
  root?(app: Express, ctx: Ctx): void
  /**
   * Paths of the slice's own area that only the app's own sign-in may use, each with everything
   * under it (`/api/projects/:id/secrets`): a key gets 403 there, and the API document lists no
   * bearer for them (kernel/auth/session-only.ts). /api/auth and /api/account are so already.
   */
  sessionOnly?: readonly string[]
  /**
   * Paths under /api, among the slice's own POST routes, that another site's page posts an HTML
   * form to by design (a SAML identity provider's answer): their `application/x-www-form-urlencoded`
   * body is parsed (the API reads JSON only otherwise) and the CSRF check lets them pass, so the
   * route must prove the request by what it carries (a signed message), never by the app's cookies
   * (kernel/http/form-posts.ts).
   */
  formPosts?: readonly string[]
}

/**
 * Checks a request must pass before an action runs, by the action's name: base's `register`,
 * `login` and `forgot-password`, a layer's own action by its own name. Each is middleware that
 * answers its refusal itself (a 422 on a field of its own) or calls `next`; the route spreads
 * them after its rate limits (kernel/http/gates.ts `gatesFor`), so a refused request still counts.
 * Built once per app.
 */
export type FeatureGates<Ctx> = (ctx: Ctx) => Readonly<Partial<Record<string, RequestHandler>>>

/**
 * Sources the layer's pages need beyond the app's own origin, by Content-Security-Policy
 * directive (`frameSrc`, `workerSrc`, …, as helmet names them), added to the page's policy (app.ts).
 */
export type ContentSources<Ctx> = (ctx: Ctx) => Readonly<Partial<Record<string, readonly string[]>>>

/** An account route that any principal with its scope may call (a key's too). */
export interface SharedRoute<Ctx> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** Under /api/account: `/activity`. */
  path: string
  handlers(ctx: Ctx): RequestHandler[]
}

/** Who an authenticator found behind a request's `Authorization` header. */
export interface Authenticated {
  userId: number
  /** What the credential may do (kernel/auth/principal.ts): `read`, `write`, `admin`. */
  scopes: readonly string[]
  /** The credential's own id (an API key's), for its limits and its last use. */
  credentialId: string
  /** The one resource the credential acts within, when it is held to one (kernel/auth/principal.ts). */
  restriction?: Restriction
}

/**
 * A way to authenticate a request that a layer brings (an API key), asked in layer order after
 * the kernel's own: the access cookie, then the app's access token as a bearer. A request with an
 * `Authorization` header is judged by that header alone: no cookie is read and no CSRF check is
 * asked. The kernel then loads the user through the authentication cache (a deleted user is
 * refused, a changed role applies), checks the scope the method needs, and keeps every route that
 * changes credentials, sessions, keys or step-up for sessions only.
 */
export interface Authenticator<Ctx> {
  /** The principal's `via` (`api-key`). */
  name: string
  /** Its OpenAPI security schemes by name (`bearer`), listed on every route it may call. */
  securitySchemes?: Readonly<Record<string, object>>
  /**
   * Judges the header: undefined when it is not of this kind (the next authenticator is asked),
   * null when it is but proves nothing (401), who it is otherwise. May throw an HttpError (a 429).
   */
  authenticate(req: Request, header: string, ctx: Ctx): Promise<Authenticated | null | undefined>
  /**
   * What a 401 of the app says, in `WWW-Authenticate`, about getting this credential (RFC 6750's
   * `Bearer resource_metadata="…"`, where an OAuth client finds the authorization server), and
   * may say about the refused request itself (RFC 9449's `DPoP error="invalid_dpop_proof"`).
   */
  challenge?(ctx: Ctx, req: Request): string
}

/**
 * A way to sign in that a layer brings, besides base's password: the security core counts them
 * all to keep every account a way in (kernel/security/ways-in.ts), so no layer names another's.
 */
export interface SignInMethod {
  /** A short name for the method, as an event or a page would show it. */
  name: string
  /** How many of it the user has, read in the caller's transaction (under the user's row lock). */
  count(userId: number, transaction: Transaction): Promise<number>
}

/**
 * A way to confirm it is you (step-up: kernel/security/confirmation.ts) that a layer brings, besides
 * base's password, offered by `GET /api/account/confirm` to the accounts that have it.
 */
export interface ConfirmMethod<Ctx> {
  /** The names it offers this account (`totp`, `passkey`, `provider:<name>`), none when the account lacks it. */
  offered(userId: number, ctx: Ctx): Promise<string[]>
  /** A field of `POST /api/account/confirm` that it checks (`code`). */
  field?: string
  /**
   * Checks that field's value for the user: true when it confirms. A wrong value throws its 422 on
   * `field` and marks it (kernel/security/confirmation.ts `markWrongConfirmation`), so it counts toward
   * the account routes' 429 and is recorded as `confirmation_failed`.
   */
  check?(req: Request, res: Response, ctx: Ctx, userId: number, value: unknown): Promise<boolean>
  /** A ceremony's routes on /api/account/confirm (a passkey's, a provider's round trip); each confirms through kernel/security/confirmation.ts. */
  routes?(router: Router, ctx: Ctx, passwordChecked: RequestHandler[]): void
}

/** What the security core does to the rows of a credential token's model. */
export interface TokenModel {
  readonly name: string
  destroy(options: { where: Record<string, unknown>; transaction?: Transaction }): Promise<number>
  update(values: Record<string, unknown>, options: { where: Record<string, unknown>; transaction?: Transaction }): Promise<unknown>
}

/**
 * A kind of token that signs someone in, sets or changes a credential, or confirms an address,
 * registered with the security core (kernel/security/credential-tokens.ts). Every model that keeps such
 * a token is registered, base's and the layers' alike; a test of the app fails on one that is not.
 */
export interface CredentialToken {
  model: TokenModel
  /** What holding one lets its holder do. */
  grants: 'sign-in' | 'credential' | 'address'
  /**
   * Pending: mailed or started, not yet used (a link, a challenge, a ceremony): every event that
   * revokes sessions voids the user's. Standing: a credential in use (recovery codes, sessions),
   * changed only through its own flows and the core's revocation.
   */
  pending: boolean
  /** A pending token whose rows must outlive it is voided by stamping this column instead of deleted. */
  voidColumn?: string
  /**
   * Which revoking events void a pending token (default `every`). `wide`: only those that end
   * every session of the user, or every one but the requester's (sign out everywhere, a password
   * change or reset, a deletion), not the end of one session (a sign-out) nor of the sign-ins of
   * one way in (a removed passkey): a standing credential such as an API key outlives a sign-out.
   */
  voidedBy?: 'every' | 'wide'
  /** The column with the address a mailed token went to; it works only while that is the account's. */
  mailedTo?: string
}

/**
 * Runs when a user is created, by any path (registration, the first registration of a verified
 * link, `user:create`, a provider's sign-up: all go through kernel/services/users.ts `createUser`),
 * inside the transaction that inserts the row: what a layer keeps for every user exists with
 * the user or not at all, and no request ever sees a user without it.
 */
export type UserCreated = (user: User, transaction: Transaction) => Promise<void>

/**
 * What a layer checks and tidies before users are deleted (the account's own deletion, an
 * admin's), in the deleting transaction, after base's own checks took their locks and before the
 * rows go. Deletions that base does on its own (abandoned unverified accounts) meet only the
 * database's cascades, so a layer's rows must also cascade from `users`.
 */
export interface UserDeletion {
  /**
   * Why these users may not be deleted now, as a catalogue message (the layer's `messages`) of a
   * sentence the person deleting can act on, or undefined: base answers 422 with it on the
   * request's field. Take what it reads under lock,
   * so a concurrent change cannot slip past the check.
   */
  refusal?(userIds: number[], transaction: Transaction): Promise<string | undefined>
  /** What must change besides the cascades (other users' rows pointing at what goes). */
  cleanup?(userIds: number[], transaction: Transaction): Promise<void>
}

/** The registry as the users' creation and deletion read it. */
export type UserLifecycle = readonly { userCreated?: UserCreated; userDeletion?: UserDeletion }[]

/**
 * A job's handler as the queue holds it. Its payload went through the queue's storage as JSON,
 * dispatched under the job's name by the slice's own dispatcher (kernel/own-settings.ts
 * `jobDispatcher`, typed by these very handlers), so the queue hands back what the handler takes:
 * written as a method, a handler typed by its own payload is one of these.
 */
export type JobHandler = { run(data: unknown): Promise<void> }['run']

/** A layer's jobs by name (`project:created`): each name carries a colon, as base's do. */
export type FeatureJobs = Readonly<Record<`${string}:${string}`, JobHandler>>

/**
 * One feature layer, as the server's core consumes it. `JobDeps` is what the app's job handlers
 * are given (kernel/context.ts fills it in, as it does `Ctx`: naming it here would close a cycle).
 */
export interface ServerFeature<Ctx, JobDeps = unknown> {
  /** The layer's folder name under templates/ and features/. */
  name: string
  /**
   * The layers this one comes after, where the order of a point matters: the login steps run,
   * and the confirm methods are offered, in layer order. kernel/feature-order.ts sorts the
   * registry by it at start-up (otherwise keeping the options table's order), and refuses to
   * start on a name the app lacks or on a cycle; a layer names an optional one only when the app
   * has it (rendered: its `order.ts.ejs`).
   */
  after?: readonly string[]
  config?: FeatureConfig
  models?: FeatureModels
  migrations?: FeatureMigrations
  userFields?: UserFields
  loginStep?: LoginStep<Ctx>
  signInRefusal?: SignInRefusal<Ctx>
  routes?: FeatureRoutes<Ctx>
  /** Checks ahead of actions (a challenge on registration), by action name: see `FeatureGates`. */
  gates?: FeatureGates<Ctx>
  /** What the pages' Content-Security-Policy must allow for the layer's client (a provider's script). */
  contentSources?: ContentSources<Ctx>
  /**
   * Describes every route `routes` mounts, for the OpenAPI document (`GET /api/openapi.json`).
   * Called only when the document is first built: load the descriptions with `import()` here, so
   * nothing of them loads at start-up. The app's tests fail on a mounted route missing here.
   */
  openapi?(ctx: Ctx): Promise<readonly RouteDoc[]>
  signInMethods?: readonly SignInMethod[]
  /** Ways to authenticate a request by its `Authorization` header, asked in layer order after the kernel's own. */
  authenticators?: readonly Authenticator<Ctx>[]
  credentialTokens?: readonly CredentialToken[]
  confirmMethods?: readonly ConfirmMethod<Ctx>[]
  /** Keeps a row of the layer's for every user (a user's own workspace, say). */
  userCreated?: UserCreated
  /** Refuses a deletion that would break what the layer keeps (a group losing its last owner), and tidies after one. */
  userDeletion?: UserDeletion
  /**
   * The layer's own queued work and mails, by job name; the payloads are these handlers'
   * parameters (`JobPayloadsOf`). Queued through `jobDispatcher(jobs)` (kernel/own-settings.ts),
   * run by whichever instance runs jobs.
   */
  jobs?(deps: JobDeps): FeatureJobs
  /**
   * The layer's credential events, recorded through the security core like base's (the activity,
   * the owner's notice, the webhooks): its `as const` object of kinds, whose types are the
   * layer's event types (`EventTypesOf`). Webhooks send each under its own type unless
   * `webhookEvents` renames it.
   */
  events?: Readonly<Record<string, CredentialEventKind>>
  /**
   * Renames some of `events` for webhooks (`group_created` → `group.created`), so an endpoint can
   * subscribe to `group.*`.
   */
  webhookEvents?: Readonly<Record<string, string>>
  /**
   * The layer's messages (its errors, its mails), one catalogue per locale of kernel/i18n/locales.ts, under
   * a namespace of its own; merged with base's at start-up (kernel/i18n/translate.ts).
   */
  messages?: FeatureMessages
  /**
   * The layer's command-line tasks by name (`area:task`), each run by `tsx server/src/cli/run.ts
   * <name> [args]` (the npm script the layer's package.json adds) with the app's context, once the
   * database is migrated; what it returns is printed, what it throws ends the process with 1.
   */
  commands?: Readonly<Record<`${string}:${string}`, (ctx: Ctx, args: readonly string[]) => Promise<string | void>>>
}

/** The registry as base reads it: the layers this app was generated with, in order. */
export type Features<Ctx> = readonly ServerFeature<Ctx>[]

// The types a layer's object declares, one layer (`Own…`, of its `config`) or merged over a list
// (`…Of`, of the registry's `typeof features`). They read a field's type as written, so a layer
// without the field adds nothing.

/** A field of an object's type as written; never when it lacks the field (a widened `AppFeature`'s optional one included). */
type Field<T, K extends PropertyKey> = T extends { readonly [P in K]: infer V } ? Exclude<V, undefined> : never
/** Each key of `R` as a `V`: `{}` when there is no `R`. */
type Keyed<R, V> = [R] extends [never] ? {} : { [K in keyof R]: V }
type Values<R> = [R] extends [never] ? {} : { [K in keyof R]: R[K] extends (...args: never[]) => infer V ? V : never }
type OwnOf<F, Own> = Own extends 'env'
  ? OwnEnv<Field<F, 'config'>>
  : Own extends 'limits'
    ? OwnRateLimits<Field<F, 'config'>>
    : Own extends 'cookies'
      ? OwnCookies<Field<F, 'config'>>
      : Own extends 'json'
        ? OwnUserJson<F>
        : OwnJobPayloads<F>
/** `A & B & …` over a tuple's members' `Own` types; `{}` for none. */
type Merged<Fs, Own> = Fs extends readonly [infer F, ...infer Rest] ? OwnOf<F, Own> & Merged<Rest, Own> : {}

/** A layer's variables as `ctx.env` holds them (`C`: its `config`): each reader's value, and each secret as a string. */
export type OwnEnv<C> = Values<Field<C, 'env'>> & Keyed<Field<C, 'secrets'> extends readonly (infer S extends string)[] ? Record<S, true> : never, string>
export type OwnRateLimits<C> = Keyed<Field<C, 'rateLimits'>, Limit>
export type OwnCookies<C> = Keyed<Field<C, 'cookies'>, string>
export type OwnUserJson<F> = Field<F, 'userFields'> extends { fromRow(row: UserRow): infer J } ? J : {}
export type OwnJobPayloads<F> = Field<F, 'jobs'> extends (deps: never) => infer H ? { [K in keyof H]: H[K] extends (data: infer P) => Promise<void> ? P : never } : {}
export type OwnEventTypes<F> = Field<F, 'events'> extends infer E ? (E extends object ? (E[keyof E] extends { type: infer T } ? T : never) : never) : never

/** The layers' variables, merged (`Env & EnvOf<…>` is the whole `ctx.env`). */
export type EnvOf<Fs> = Merged<Fs, 'env'>
/** The layers' rate limits by name (`RateLimitSettings & RateLimitsOf<…>` is the whole `ctx.rateLimits`). */
export type RateLimitsOf<Fs> = Merged<Fs, 'limits'>
/** The layers' cookie names (`CookieNames & CookiesOf<…>` is all of `cookieNames(ctx)`). */
export type CookiesOf<Fs> = Merged<Fs, 'cookies'>
/** What the layers add to a user's JSON (`UserJson & UserJsonOf<…>` is a user as the API answers it). */
export type UserJsonOf<Fs> = Merged<Fs, 'json'>
/** The layers' job payloads by job name. */
export type JobPayloadsOf<Fs> = Merged<Fs, 'jobs'>
/** The layers' credential event types (with base's `CredentialEventType`, every type the app records). */
export type EventTypesOf<Fs> = Fs extends readonly (infer F)[] ? OwnEventTypes<F> : never
