import { describe, expect, it } from 'vitest'
import { EnvError, parseEnv, secretNames } from '../src/kernel/config/env.js'
import { project } from '../src/kernel/config/project.js'
import { features } from '../src/features/index.js'
import { testSecrets } from './helpers/processes.js'

// The variables the layers add are read here too, so this file runs in every variant; the
// processes started with a bad environment are startup.test.ts's, which runs once per database.
const good = { ...testSecrets(), DATABASE_URL: 'sqlite:./data/x.sqlite' }

function envErrors(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source, features)
  } catch (error) {
    if (error instanceof EnvError) return error.lines
    throw error
  }
  return []
}

describe('environment validation', () => {
  it('accepts a complete environment and applies the defaults', () => {
    const env = parseEnv(good, features)
    expect(env).toMatchObject({ PORT: 3000, BASE_URL: 'http://localhost:3000', COOKIE_SAMESITE: 'lax', MAIL_FROM: 'no-reply@localhost', CORS_ORIGINS: [] })
    expect(env.REDIS_URL).toBeUndefined()
    expect(env.SMTP_URL).toBeUndefined()
    expect(parseEnv({ ...testSecrets() }, features).DATABASE_URL).toBe(project.defaultDatabaseUrl)
  })

  it.each(secretNames(features))('%s: missing, short or a placeholder is one clear line', (name) => {
    for (const [value, problem] of [
      [undefined, /is required/],
      ['', /is required/],
      ['x'.repeat(31), /at least 32 characters/],
      ['change-me', /placeholder/],
      ['change-me-change-me-change-me-change-me', /placeholder/],
    ] as const) {
      const lines = envErrors({ ...good, [name]: value })
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(name)
      expect(lines[0]).toMatch(problem)
    }
    expect(envErrors({ ...good, [name]: 'y'.repeat(32) })).toEqual([])
  })

  it('reports every bad variable on its own line', () => {
    const lines = envErrors({
      DATABASE_URL: 'postgres://x',
      PORT: 'eighty',
      BASE_URL: 'localhost',
      COOKIE_SAMESITE: 'strict',
      REDIS_URL: 'http://x',
      SMTP_URL: 'mail',
      MAIL_TRANSPORT: 'pigeon',
      CORS_ORIGINS: '*',
    })
    const named = ['DATABASE_URL', 'PORT', 'BASE_URL', 'COOKIE_SAMESITE', 'REDIS_URL', 'SMTP_URL', 'MAIL_TRANSPORT', 'CORS_ORIGINS', ...secretNames(features)]
    expect(lines).toHaveLength(named.length)
    for (const name of named) expect(lines.filter((line) => line.includes(` ${name}:`))).toHaveLength(1)
  })

  it('DATABASE_URL: SQLite, MySQL or PostgreSQL, a server URL naming its database', () => {
    for (const url of ['sqlite:./data/x.sqlite', 'mysql://root@127.0.0.1:3306/app', 'mariadb://h/app', 'postgres://postgres@127.0.0.1:5432/app', 'postgresql://u:p@h/app']) {
      expect(envErrors({ ...good, DATABASE_URL: url }), url).toEqual([])
    }
    for (const [url, problem] of [
      ['redis://h/app', /must start with sqlite:, mysql:\/\/ or postgres:\/\//],
      ['mysql://root@127.0.0.1:3306', /a MySQL URL must name the database/],
      ['postgres://postgres@127.0.0.1:5432/', /a PostgreSQL URL must name the database/],
      ['postgresql://h', /a PostgreSQL URL must name the database/],
    ] as const) {
      const lines = envErrors({ ...good, DATABASE_URL: url })
      expect(lines, url).toHaveLength(1)
      expect(lines[0]).toMatch(/^Invalid environment variable DATABASE_URL: /)
      expect(lines[0]).toMatch(problem)
    }
  })

  it('COOKIE_HOST_PREFIX is true or false, INSTANCE_ID a plain name', () => {
    expect(envErrors({ ...good, COOKIE_HOST_PREFIX: 'yes' })).toEqual([expect.stringContaining('COOKIE_HOST_PREFIX')])
    expect(parseEnv({ ...good, COOKIE_HOST_PREFIX: 'TRUE' }, features).COOKIE_HOST_PREFIX).toBe(true)
    expect(parseEnv(good, features).COOKIE_HOST_PREFIX).toBe(false)
    expect(envErrors({ ...good, INSTANCE_ID: 'web 1\n' })).toEqual([expect.stringContaining('INSTANCE_ID')])
    expect(parseEnv({ ...good, INSTANCE_ID: 'web-1' }, features).INSTANCE_ID).toBe('web-1')
  })

  it('API_DOCS is on or off; unset, on outside production only', () => {
    expect(parseEnv(good, features).API_DOCS).toBe(true)
    expect(parseEnv({ ...good, NODE_ENV: 'production', MAIL_TRANSPORT: 'log' }, features).API_DOCS).toBe(false)
    expect(parseEnv({ ...good, NODE_ENV: 'production', MAIL_TRANSPORT: 'log', API_DOCS: 'on' }, features).API_DOCS).toBe(true)
    expect(parseEnv({ ...good, API_DOCS: 'OFF' }, features).API_DOCS).toBe(false)
    expect(envErrors({ ...good, API_DOCS: 'yes' })).toEqual([expect.stringContaining('API_DOCS')])
  })

  it('SameSite=None needs CORS_ORIGINS', () => {
    expect(envErrors({ ...good, COOKIE_SAMESITE: 'none' })[0]).toContain('COOKIE_SAMESITE')
    expect(envErrors({ ...good, COOKIE_SAMESITE: 'none', CORS_ORIGINS: 'https://a.example' })).toEqual([])
  })

  it('MAIL_TRANSPORT: smtp with SMTP_URL, else log; smtp needs SMTP_URL', () => {
    expect(parseEnv(good, features).MAIL_TRANSPORT).toBe('log')
    expect(parseEnv({ ...good, SMTP_URL: 'smtp://127.0.0.1:1025' }, features).MAIL_TRANSPORT).toBe('smtp')
    expect(parseEnv({ ...good, SMTP_URL: 'smtp://127.0.0.1:1025', MAIL_TRANSPORT: 'LOG' }, features).MAIL_TRANSPORT).toBe('log')
    expect(envErrors({ ...good, MAIL_TRANSPORT: 'sendmail' })).toEqual([expect.stringMatching(/^Invalid environment variable MAIL_TRANSPORT: "sendmail" is not smtp or log/)])
    expect(envErrors({ ...good, MAIL_TRANSPORT: 'smtp' })).toEqual([expect.stringMatching(/^Invalid environment variable SMTP_URL: /)])
  })

  it('production without SMTP_URL is one line naming SMTP_URL, unless MAIL_TRANSPORT=log says the log is meant', () => {
    const production = { ...good, NODE_ENV: 'production' }
    expect(envErrors(production)).toEqual([expect.stringMatching(/^Invalid environment variable SMTP_URL: .*MAIL_TRANSPORT=log/)])
    expect(envErrors({ ...production, SMTP_URL: 'smtp://127.0.0.1:1025' })).toEqual([])
    expect(parseEnv({ ...production, MAIL_TRANSPORT: 'log' }, features).MAIL_TRANSPORT).toBe('log')
    // A bad SMTP_URL is still one line, not two.
    expect(envErrors({ ...production, SMTP_URL: 'mail' })).toEqual([expect.stringContaining('SMTP_URL: "mail" is not')])
  })
})
