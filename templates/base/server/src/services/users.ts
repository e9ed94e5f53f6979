import { Role, User, type RoleName } from '../models/index.js'

export interface UserJson {
  id: number
  name: string
  email: string
  roleId: number | null
  role: string | null
  emailVerifiedAt: string | null
  createdAt: string
  updatedAt: string
}

/** The only shape in which a user leaves the server: never the password hash. */
export function serializeUser(user: User): UserJson {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    roleId: user.roleId,
    role: user.Role?.name ?? null,
    emailVerifiedAt: user.emailVerifiedAt ? user.emailVerifiedAt.toISOString() : null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  }
}

const withRole = { include: [{ model: Role, as: 'Role' }] }

export const findUserByEmail = (email: string) => User.findOne({ where: { email }, ...withRole })

export const findUserById = (id: number) => User.findByPk(id, withRole)

export async function roleId(name: RoleName): Promise<number> {
  const role = await Role.findOne({ where: { name } })
  if (!role) throw new Error(`The role "${name}" is missing: run the migrations.`)
  return role.id
}

/** Creates a user and reloads it with its role, ready to serialise. */
export async function createUser(values: {
  name: string
  email: string
  passwordHash: string
  role: RoleName
  verified: boolean
}): Promise<User> {
  const user = await User.create({
    name: values.name,
    email: values.email,
    password: values.passwordHash,
    roleId: await roleId(values.role),
    emailVerifiedAt: values.verified ? new Date() : null,
  })
  return (await findUserById(user.id)) ?? user
}

/** What the access token carries and `req.auth` holds. */
export function identityOf(user: User) {
  return { id: user.id, email: user.email, roleId: user.roleId, role: user.Role?.name ?? null }
}
