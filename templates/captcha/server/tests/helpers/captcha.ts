import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Express } from 'express'
import supertest from 'supertest'

/** Cheap Cap work for tests: 3 puzzles of one hex digit each. */
export const EASY_CAP = { CAPTCHA_PROVIDER: 'cap', CAPTCHA_DIFFICULTY: '1', CAPTCHA_CHALLENGE_COUNT: '3' }

/**
 * Cap's seeded generator, as `@cap.js/server` and its widget draw a puzzle's salt and target from a
 * challenge's token: FNV-1a of the seed, then xorshift32, as hex.
 */
function prng(seed: string, length: number): string {
  let state = 2166136261
  for (let i = 0; i < seed.length; i++) {
    state ^= seed.charCodeAt(i)
    state += (state << 1) + (state << 4) + (state << 7) + (state << 8) + (state << 24)
  }
  state >>>= 0
  let result = ''
  while (result.length < length) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    result += (state >>> 0).toString(16).padStart(8, '0')
  }
  return result.slice(0, length)
}

/** Solves a challenge as the widget does: for puzzle i (from 1), the n with sha256(salt + n) starting with the target. */
export function solve(token: string, challenge: { c: number; s: number; d: number }): number[] {
  return Array.from({ length: challenge.c }, (_, index) => {
    const salt = prng(`${token}${index + 1}`, challenge.s)
    const target = prng(`${token}${index + 1}d`, challenge.d)
    for (let n = 0; ; n++) if (createHash('sha256').update(`${salt}${n}`).digest('hex').startsWith(target)) return n
  })
}

/** A challenge fetched, solved and redeemed over HTTP: the token to send as `captcha`. */
export async function capToken(app: Express): Promise<string> {
  const { body: challenge } = await supertest(app).post('/api/captcha/challenge').expect(200)
  const { body } = await supertest(app).post('/api/captcha/redeem').send({ token: challenge.token, solutions: solve(challenge.token, challenge.challenge) }).expect(200)
  return body.token as string
}

/** A stand-in for Turnstile's or hCaptcha's siteverify on loopback: it answers `{success}` as told, and keeps what it was sent. */
export interface Siteverify {
  url: string
  answer: boolean
  received: URLSearchParams[]
  close(): Promise<void>
}

export async function startSiteverify(): Promise<Siteverify> {
  const received: URLSearchParams[] = []
  const state = { answer: true }
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push(new URLSearchParams(body))
      res.setHeader('Content-Type', 'application/json')
      res.end(JSON.stringify(state.answer ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    get answer() {
      return state.answer
    },
    set answer(value: boolean) {
      state.answer = value
    },
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A loopback address where nothing listens: a provider that cannot be reached. */
export async function deadUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/siteverify`
}
