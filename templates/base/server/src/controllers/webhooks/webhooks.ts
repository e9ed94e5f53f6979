import type { Request, RequestHandler } from 'express'
import type { AppContext } from '../../context.js'
import { notFound, validationError, type FieldErrors } from '../../http/errors.js'
import { msg } from '../../i18n/translate.js'
import { paginated } from '../../http/paginated.js'
import { idField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { WebhookDelivery, WebhookEndpoint } from '../../models/index.js'
import { TEST_EVENT } from '../../webhooks/catalogue.js'
import { newWebhookSecret, sealWebhookSecret } from '../../webhooks/secrets.js'
import { createWebhookSchema, updateWebhookSchema, webhookDeliveriesQuery } from './schemas.js'
import { deliveryJson, webhookJson } from './webhook-json.js'

type Ctx = Pick<AppContext, 'env' | 'webhooks'>

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
    const endpoint = await WebhookEndpoint.create({ url: input.url, events: JSON.stringify(unique(input.events)), secret: sealWebhookSecret(secret, ctx.env.COOKIE_SECRET) })
    ctx.webhooks.changed()
    res.status(201).json({ webhook: { ...webhookJson(endpoint), secret } })
  }
}

export function updateWebhook(ctx: Ctx): RequestHandler {
  return async (req, res) => {
    const endpoint = await endpointOf(req)
    const input = validate(updateWebhookSchema, req.body)
    await checkInput(ctx, input)
    await endpoint.update({ ...(input.url === undefined ? {} : { url: input.url }), ...(input.events === undefined ? {} : { events: JSON.stringify(unique(input.events)) }) })
    ctx.webhooks.changed()
    res.json({ webhook: webhookJson(endpoint) })
  }
}

/** 204; its messages not yet delivered go with it. */
export function deleteWebhook(ctx: Ctx): RequestHandler {
  return async (req, res) => {
    const endpoint = await endpointOf(req)
    await WebhookEndpoint.sequelize!.transaction(async (transaction) => {
      await WebhookDelivery.destroy({ where: { endpointId: endpoint.id }, transaction })
      await endpoint.destroy({ transaction })
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

/** Known event types, and a URL the app may send to (webhooks/address-guard.ts): else 422 on the field. */
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

