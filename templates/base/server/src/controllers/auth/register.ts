import type { RequestHandler } from 'express'
import { UniqueConstraintError } from 'sequelize'
import { z } from 'zod'
import type { AppConfig } from '../../context.js'
import { fieldError } from '../../http/errors.js'
import { emailField, nameField, newPasswordField } from '../../http/schemas.js'
import { validate } from '../../http/validate.js'
import { User } from '../../models/index.js'
import { hashPassword } from '../../services/passwords.js'
import { signIn } from '../../services/sign-in.js'
import { createUser, identityOf, roleId, serializeUser, type UserJson } from '../../services/users.js'

const schema = z.object({ name: nameField, email: emailField, password: newPasswordField })

const emailTaken = () => fieldError('email', 'The email has already been taken.')

/**
 * Verification off: the account is signed in at once, so a taken address is a 422.
 * Verification on: a taken address answers exactly like a new one (201 and a user of the same
 * shape, after the same bcrypt work) and the job mails its owner a notice instead, so the
 * endpoint does not reveal which addresses have accounts.
 */
export function register(config: AppConfig): RequestHandler {
  return async (req, res) => {
    const input = validate(schema, req.body)

    if (!config.auth.requireEmailVerification) {
      if (await User.findOne({ where: { email: input.email } })) throw emailTaken()
      const passwordHash = await hashPassword(input.password)
      const user = await createUser({ ...input, passwordHash, role: 'user', verified: false }).catch((error: unknown) => {
        throw error instanceof UniqueConstraintError ? emailTaken() : error
      })
      const json = serializeUser(user)
      const accessToken = await signIn(req, res, config, identityOf(json), false)
      res.status(201).json({ user: json, access_token: accessToken })
      return
    }

    const passwordHash = await hashPassword(input.password)
    let user: UserJson
    if (await User.findOne({ where: { email: input.email } })) {
      user = await lookalikeUser(input.name, input.email)
    } else {
      user = await createUser({ ...input, passwordHash, role: 'user', verified: false })
        .then(serializeUser)
        .catch(async (error: unknown) => {
          if (error instanceof UniqueConstraintError) return lookalikeUser(input.name, input.email)
          throw error
        })
    }
    await config.queue.dispatch('user:verify-email', { email: input.email, reason: 'register' })
    res.status(201).json({ user })
  }
}

/** What a fresh registration would have returned, for an address that already has an account. */
async function lookalikeUser(name: string, email: string): Promise<UserJson> {
  const now = new Date().toISOString()
  const lastId = (await User.max<number | null, User>('id')) ?? 0
  return {
    id: lastId + 1,
    name,
    email,
    roleId: await roleId('user'),
    role: 'user',
    emailVerifiedAt: null,
    createdAt: now,
    updatedAt: now,
  }
}
