/**
 * bench:app's rows for the passwordless and CAPTCHA layers, timed request by request from here
 * (wrk cannot solve a Cap challenge): the e-mail sign-in request, which must answer without
 * waiting for its mail, and Cap's redemption, which checks every puzzle of a challenge and
 * stores the token it hands out.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ms, verdict } from './report.js'

/** Requests per row: sequential, one at a time, after as many unmeasured ones. */
const REQUESTS = 200
/**
 * The server's own check of a redemption costs one hash per puzzle, whatever their difficulty: the
 * bench keeps the default count and lowers the difficulty, so that solving here takes no time. An
 * address counts every login in flight as a failure until it succeeds (captcha/gates.ts), and the
 * logins row's 16 connections over 64 accounts now and then have four on one: 422
 * `errors.captcha`, as meant, but the row measures logins, so that count is lifted too.
 */
export const BENCH_CAP_ENV = { CAPTCHA_PROVIDER: 'cap', CAPTCHA_DIFFICULTY: '1', RATE_LIMIT_CAPTCHA_PER_IP: '999999999', RATE_LIMIT_CAPTCHA_LOGIN_FAILURES: '999999999' }
/** The e-mail sign-in request's limits (per IP, per address and IP), lifted: the row measures the request, not the 429. */
export const BENCH_PASSWORDLESS_ENV = {
  RATE_LIMIT_EMAIL_SIGN_IN_PER_IP: '999999999',
  RATE_LIMIT_EMAIL_SIGN_IN_PER_EMAIL_IP: '999999999',
  RATE_LIMIT_EMAIL_SIGN_IN_PER_EMAIL_IP_HOURLY: '999999999',
}

type Row = [string, string, string, string]
interface Challenge {
  token: string
  challenge: { c: number; s: number; d: number }
}
type Solve = (token: string, challenge: Challenge['challenge']) => number[]

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json().catch(() => null)) as unknown }
}

function p50p99(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b)
  return { p50: sorted[Math.floor(sorted.length / 2)]!, p99: sorted[Math.floor(sorted.length * 0.99)]! }
}

/** The app's own test helper solves as the widget does (one source for Cap's puzzle derivation). */
async function capSolver(dir: string): Promise<Solve> {
  const helper = (await import(pathToFileURL(join(dir, 'server/tests/helpers/captcha.ts')).href)) as { solve: Solve }
  return helper.solve
}

/** A challenge asked for and solved: what the redemption is sent. */
async function solvedChallenge(base: string, solve: Solve): Promise<{ token: string; solutions: number[] }> {
  const asked = await post(`${base}/api/captcha/challenge`, {})
  if (asked.status !== 200) throw new Error(`POST /api/captcha/challenge: ${asked.status}`)
  const { token, challenge } = asked.body as Challenge
  return { token, solutions: solve(token, challenge) }
}

async function redeemed(base: string, solve: Solve): Promise<{ token: string; ms: number }> {
  const solved = await solvedChallenge(base, solve)
  const started = performance.now()
  const answer = await post(`${base}/api/captcha/redeem`, solved)
  const elapsed = performance.now() - started
  if (answer.status !== 200) throw new Error(`POST /api/captcha/redeem: ${answer.status} ${JSON.stringify(answer.body)}`)
  return { token: (answer.body as { token: string }).token, ms: elapsed }
}

export async function signInRows(options: { base: string; dir: string; passwordless: boolean; captcha: boolean; step: (message: string) => void }): Promise<Row[]> {
  const { base, dir, step } = options
  const solve = options.captcha ? await capSolver(dir) : undefined
  const rows: Row[] = []
  if (solve) {
    step(`POST /api/captcha/redeem, ${REQUESTS} after ${REQUESTS} unmeasured`)
    const times: number[] = []
    for (let i = 0; i < 2 * REQUESTS; i++) {
      const { ms: elapsed } = await redeemed(base, solve)
      if (i >= REQUESTS) times.push(elapsed)
    }
    const { p50, p99 } = p50p99(times)
    rows.push(['POST /api/captcha/redeem (50 puzzles), p50', ms(p50), `(p99 ${ms(p99)})`, verdict(p50 <= 20, '≤ 20 ms')])
  }
  if (options.passwordless) {
    step(`POST /api/auth/email-sign-in, ${REQUESTS} after ${REQUESTS} unmeasured, half for addresses with no account`)
    const times: number[] = []
    for (let i = 0; i < 2 * REQUESTS; i++) {
      // A CAPTCHA answer is part of the request where the layer asks for one; getting it is not.
      const captcha = solve ? (await redeemed(base, solve)).token : undefined
      const email = i % 2 === 0 ? `user${(i % 500) + 1}@example.test` : `nobody${i}@example.test`
      const started = performance.now()
      const answer = await post(`${base}/api/auth/email-sign-in`, { email, ...(captcha ? { captcha } : {}) })
      const elapsed = performance.now() - started
      if (answer.status !== 202) throw new Error(`POST /api/auth/email-sign-in: ${answer.status} ${JSON.stringify(answer.body)}`)
      if (i >= REQUESTS) times.push(elapsed)
    }
    const { p50, p99 } = p50p99(times)
    rows.push(['POST /api/auth/email-sign-in (the mail queued, not sent), p50', ms(p50), `(p99 ${ms(p99)})`, verdict(p50 <= 20, '≤ 20 ms')])
  }
  return rows
}
