/**
 * Why the generated auth middleware keeps its secrets as KeyObjects: jsonwebtoken turns a string
 * secret into a KeyObject (crypto.createSecretKey) on every sign and verify. Prints
 * verifications per second with a string secret and with a KeyObject made once, and the ratio.
 *
 *   npm run bench:jwt
 */
import { type KeyObject, createSecretKey, randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { sharedNodeModules } from './lib/shared-install.js'

const require = createRequire(join(await sharedNodeModules(), 'noop.js'))
// Loaded from the generated apps' shared install: the generator itself does not depend on it.
const jwt = require('jsonwebtoken') as {
  sign: (payload: object, secret: string, options: object) => string
  verify: (token: string, secret: string | KeyObject, options: object) => unknown
}

const secret = randomBytes(32).toString('hex')
const key = createSecretKey(Buffer.from(secret, 'utf8'))
const token = jwt.sign({ sub: '1', email: 'a@example.com', roleId: 2, role: 'user', type: 'access' }, secret, {
  algorithm: 'HS256',
  expiresIn: 900,
})

function perSecond(label: string, verify: () => unknown): number {
  for (let i = 0; i < 500; i++) verify()
  const count = 20000
  const started = process.hrtime.bigint()
  for (let i = 0; i < count; i++) verify()
  const rate = count / (Number(process.hrtime.bigint() - started) / 1e9)
  console.log(`${label.padEnd(34)} ${Math.round(rate).toLocaleString('en').padStart(9)} verifications/s`)
  return rate
}

const slow = perSecond('jwt.verify(token, string secret)', () => jwt.verify(token, secret, { algorithms: ['HS256'] }))
const fast = perSecond('jwt.verify(token, KeyObject)', () => jwt.verify(token, key, { algorithms: ['HS256'] }))
console.log(`ratio: ${(fast / slow).toFixed(1)}× faster with a KeyObject made once at start-up`)
