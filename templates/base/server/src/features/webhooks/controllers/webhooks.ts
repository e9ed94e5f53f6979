import type { Request, RequestHandler } from 'express'
import type { Transaction } from 'sequelize'
import { events as securityEvents, idField, msg, newWebhookSecret, notFound, paginated, recordCredentialEvent, sealWebhookSecret, TEST_EVENT, validate, validationError, WebhookDelivery, WebhookEndpoint, type AppContext, type CredentialEventKind, type FieldErrors } from '../../../kernel/index.js'
import { createWebhookSchema, updateWebhookSchema, webhookDeliveriesQuery } from './schemas.js'
import { deliveryJson, webhookJson } from './webhook-json.js'

type Ctx = Pick<AppContext, 'env' | 'webhooks' | 'queue' | 'authCache' | 'features'>

/**
 * A change to an endpoint, as the acting admin's security event (activity, audit export,
 * webhooks), in the change's transaction. The endpoint is named by id and origin only: a
 * receiver's path or query may hold a token of its own (a chat's incoming-hook URL), and the
 * signing secret never leaves the endpoint's row.
 */
const recordEndpointChange = (ctx: Ctx, req: Request, kind: CredentialEventKind, endpoint: WebhookEndpoint, transaction: Transaction, rest: Record<string, unknown> = {}) =>
  recordCredentialEvent(ctx, kind, req.auth!.id, {
    req,
    meta: { endpointId: endpoint.id, origin: new URL(endpoint.url).origin, events: JSON.parse(endpoint.events) as string[], ...rest },
    transaction,
  })

const inTransaction = <T>(work: (transaction: Transaction) => Promise<T>) => WebhookEndpoint.sequelize!.transaction(work)

/** The endpoints, and the event types they may take (the admin page offers them). */
export function listWebhooks(ctx: Ctx): RequestHandler {
  return async (_req, res) => {
    const endpoints = await WebhookEndpoint.findAll({ order: [['id', 'ASC']] })
    res.json({ data: endpoints.map(webhookJson), events: ctx.webhooks.catalogue.types })
  }
}

/** 201 with the signing secret: the one time it is shown. */
export function createWebhook(ctx: Ctx): RequestHandler {
  return async (req, res) => {
    const input = validate(createWebhookSchema, req.body)
    await checkInput(ctx, input)
    const secret = newWebhookSecret()
    const events = JSON.stringify(unique(input.events))
    const endpoint = await inTransaction(async (transaction) => {
      // It takes its events only once the news of it is out: whether a new endpoint heard of its
      // own creation would otherwise hang on the hub's cache of subscriptions.
      const created = await WebhookEndpoint.create({ url: input.url, events: '[]', secret: sealWebhookSecret(secret, ctx.env.COOKIE_SECRET) }, { transaction })
      await recordEndpointChange(ctx, req, securityEvents.webhookEndpointCreated, created, transaction, { events: JSON.parse(events) })
      return created.update({ events }, { transaction })
    })
    ctx.webhooks.changed()
    res.status(201).json({ webhook: { ...webhookJson(endpoint), secret } })
  }
}

export function updateWebhook(ctx: Ctx): RequestHandler {
  return async (req, res) => {
    const endpoint = await endpointOf(req)
    const input = validate(updateWebhookSchema, req.body)
    await checkInput(ctx, input)
    const changed = (['url', 'events'] as const).filter((field) => input[field] !== undefined)
    await inTransaction(async (transaction) => {
      await endpoint.update({ ...(input.url === undefined ? {} : { url: input.url }), ...(input.events === undefined ? {} : { events: JSON.stringify(unique(input.events)) }) }, { transaction })
      await recordEndpointChange(ctx, req, securityEvents.webhookEndpointUpdated, endpoint, transaction, { changed })
    })
    ctx.webhooks.changed()
    res.json({ webhook: webhookJson(endpoint) })
  }
}

/** 204; its messages not yet delivered go with it. */
export function deleteWebhook(ctx: Ctx): RequestHandler {
  return async (req, res) => {
    const endpoint = await endpointOf(req)
    await inTransaction(async (transaction) => {
      await WebhookDelivery.destroy({ where: { endpointId: endpoint.id }, transaction })
      await endpoint.destroy({ transaction })
      // After the row is gone: the endpoint is not sent the news of its own removal.
      await recordEndpointChange(ctx, req, securityEvents.webhookEndpointDeleted, endpoint, transaction)
    })
    ctx.webhooks.changed()
    res.status(204).end()
  }
}

/** The endpoint's delivery log, newest first. */
export function listDeliveries(): RequestHandler {
  return async (req, res) => {
    const endpoint = await endpointOf(req)
    const { page, size } = validate(webhookDeliveriesQuery, req.query)
    const { rows, count } = await WebhookDelivery.findAndCountAll({ where: { endpointId: endpoint.id }, order: [['id', 'DESC']], limit: size, offset: (page - 1) * size })
    res.json({ data: paginated(rows.map(deliveryJson), count, page, size, `/api/webhooks/${endpoint.id}/deliveries`) })
  }
}

/** 202: a `webhook.test` message is on its way (the delivery log shows how it went). */
export function testWebhook(ctx: Ctx): RequestHandler {
  return async (req, res) => {
    const endpoint = await endpointOf(req)
    const delivery = await ctx.webhooks.sendTo(endpoint.id, TEST_EVENT, { timestamp: new Date(), data: { endpoint: { id: endpoint.id }, by: req.auth!.id } })
    res.status(202).json({ delivery: deliveryJson(delivery) })
  }
}

async function endpointOf(req: Request): Promise<WebhookEndpoint> {
  const id = idField.safeParse(req.params.id)
  const endpoint = id.success ? await WebhookEndpoint.findByPk(id.data) : null
  if (!endpoint) throw notFound()
  return endpoint
}

/** Known event types, and a URL the app may send to (kernel/webhooks/address-guard.ts): else 422 on the field. */
async function checkInput(ctx: Ctx, input: { url?: string; events?: string[] }): Promise<void> {
  const errors: FieldErrors = {}
  input.events?.forEach((event, index) => {
    if (!ctx.webhooks.catalogue.isPattern(event)) errors[`events.${index}`] = [msg('webhooks.unknownEvent', { event })]
  })
  if (input.url !== undefined) {
    const checked = await ctx.webhooks.guard.check(new URL(input.url))
    if ('problem' in checked) errors.url = [checked.problem]
  }
  if (Object.keys(errors).length > 0) throw validationError(errors)
}

const unique = (events: string[]) => [...new Set(events)]

