import { parseArgs } from 'node:util'
import { z } from 'zod'
import { HttpError } from '../kernel/http/errors.js'
import { emailField, nameField, newPasswordField } from '../kernel/http/schemas.js'
import { createLogger } from '../kernel/logger.js'
import { toFieldErrors } from '../kernel/http/validate.js'
import { initModels, User } from '../kernel/models/index.js'
import { hashNewPassword } from '../kernel/auth/breached-passwords.js'
import { createAppSettings } from '../kernel/config/settings.js'
import { storeJob } from '../kernel/jobs/outbox.js'
import { createUser } from '../kernel/services/users.js'
import { AddressGuard } from '../kernel/webhooks/address-guard.js'
import { WebhookCatalogue } from '../kernel/webhooks/catalogue.js'
import { WebhookHub } from '../kernel/webhooks/hub.js'
import { connectOrExit, exitWith, features, loadEnvOrExit, refuseWithPendingMigrations } from './bootstrap.js'
import { defaultLocale } from '../kernel/i18n/locales.js'
import { translator } from '../kernel/i18n/translate.js'

const usage = 'Usage: user:create -- --name NAME --email EMAIL --password PASSWORD [--role admin|user]'

let values: Record<string, string | undefined>
try {
  values = parseArgs({
    options: { name: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' } },
    strict: true,
  }).values
} catch (error) {
  exitWith([(error as Error).message, usage])
}

const schema = z.object({
  name: nameField,
  email: emailField,
  password: newPasswordField,
  role: z.enum(['admin', 'user'], { error: 'validation.role' }).default('user'),
})
// A command line speaks the default language; the catalogues' keys stay out of its output.
const english = translator(defaultLocale)
const parsed = schema.safeParse(values)
if (!parsed.success) {
  exitWith([...Object.entries(toFieldErrors(parsed.error)).map(([field, messages]) => `--${field}: ${messages.map((message) => english(message)).join(' ')}`), usage])
}
const input = parsed.data

const env = loadEnvOrExit()
const sequelize = await connectOrExit(env)
await refuseWithPendingMigrations(sequelize)
initModels(sequelize, features)
try {
  if (await User.findOne({ where: { email: input.email } })) exitWith(`A user with the e-mail ${input.email} already exists.`)
  const passwordHash = await hashNewPassword({ env, logger: createLogger(env.NODE_ENV) }, input.password).catch((error: unknown) => {
    if (error instanceof HttpError) exitWith(`--password: ${error.errors!.password!.map((message) => english(message)).join(' ')}`)
    throw error
  })
  // `user.created` for the webhooks that take it, left in the outbox for the server to send.
  const { keyPrefix } = createAppSettings({ env, features })
  const guard = new AddressGuard({ allowPrivate: env.WEBHOOK_ALLOW_PRIVATE, allowHttp: env.NODE_ENV !== 'production' })
  const webhooks = new WebhookHub({ dispatch: (name, data, transaction) => storeJob(keyPrefix, name, data, transaction) }, new WebhookCatalogue(features), guard)
  const user = await createUser(features, { ...input, passwordHash, verified: true }, webhooks)
  console.log(`Created user #${user.id} ${user.email} (role ${input.role}, e-mail verified).`)
} finally {
  await sequelize.close()
}
