import { describe, expect, it } from 'vitest'
import { answersFromFlags, brokenRule, withDefaults } from '../src/cli/answers.js'
import { buildProgram, statedDefault } from '../src/cli/program.js'
import { formatDuration, parseDuration } from '../src/duration.js'
import { optionsDocument } from '../src/cli/options-table.js'
import { featureLayers } from '../src/generate/layers.js'
import { type BaseAnswers, FEATURES, LAYER_ORDER, OPTIONS, answersToArgs, variesByChoice } from '../src/options.js'
import { parseFeatures, withFeatures } from '../src/update/features.js'
import { ALL_VARIANT_IDS, VARIANT_IDS, variant, variantAnswers } from '../src/variants.js'

const env = { userAgent: undefined, gitAvailable: true }

/** CONTRACT.md §1's defaults of base's rows (the environment above's); each layer's row states its own (`contractDefault`). */
const CONTRACT_DEFAULTS: BaseAnswers = {
  db: 'sqlite',
  accessTtl: 900,
  refreshTtl: 3600,
  rememberTtl: 2592000,
  emailVerification: false,
  cookieName: 'app',
  pm: 'npm',
  install: true,
  git: true,
}

function flags(args: string[]) {
  return buildProgram().parse(args, { from: 'user' }).opts()
}

describe('durations', () => {
  it.each([
    ['900', 900],
    ['900s', 900],
    ['15m', 900],
    ['1h', 3600],
    ['30d', 2592000],
  ])('parses %s as %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds)
  })

  it.each(['', '0', '0m', '-5', '1.5h', '15 minutes', '1w', 'm', '1e3'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeNull()
  })

  it.each([
    [900, '15m'],
    [90, '90s'],
    [7200, '2h'],
    [2592000, '30d'],
    [86401, '86401s'],
  ])('formats %i seconds as %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text)
  })
})

describe('answers', () => {
  it('uses the contract defaults', () => {
    const defaults = withDefaults(answersFromFlags(flags([])), env)
    expect(Object.keys(defaults).sort()).toEqual(OPTIONS.map((option) => option.key).sort())
    const [layered, base] = [OPTIONS.filter((option) => option.layer), OPTIONS.filter((option) => !option.layer)]
    expect(Object.fromEntries(base.map((option) => [option.key, defaults[option.key]]))).toEqual(CONTRACT_DEFAULTS)
    // A layer's row states the contract's default itself, as CONTRACT.md §1 words it (`no`, `none`).
    for (const option of layered) {
      expect(option.contractDefault, `${option.flag}: contractDefault`).toBeDefined()
      expect(statedDefault(option), `${option.flag}: the default against the contract's`).toBe(option.contractDefault)
      expect(defaults[option.key], option.flag).toEqual(option.default(env))
    }
  })

  it("takes each layer's row from its layer.ts, in LAYER_ORDER, after base's answers and before the setup rows", () => {
    const layered = OPTIONS.filter((option) => option.layer).map((option) => option.layer)
    // Every layer LAYER_ORDER names has its row; one it does not name follows them.
    expect(layered.slice(0, LAYER_ORDER.length)).toEqual([...LAYER_ORDER])
    const kinds = OPTIONS.map((option) => (option.layer ? 'layer' : option.setup ? 'setup' : 'app'))
    expect(kinds.join(' ')).toMatch(/^(app )+(layer )+setup( setup)*$/)
  })

  it('takes the package manager from the user agent and git from PATH', () => {
    const detected = withDefaults({}, { userAgent: 'pnpm/9.1.0 npm/? node/v20.20.2 linux x64', gitAvailable: false })
    expect(detected.pm).toBe('pnpm')
    expect(detected.git).toBe(false)
    expect(withDefaults({}, { userAgent: 'deno/2', gitAvailable: true }).pm).toBe('npm')
  })

  it.each([
    [['--db', 'postgresql'], '--db "postgresql" is invalid: use sqlite or mysql or postgres'],
    [['--access-ttl', '15x'], '--access-ttl "15x" is invalid: use whole seconds'],
    [['--cookie-name', '9lives'], '--cookie-name "9lives" is invalid: use a letter'],
    [['--cookie-name', 'a'.repeat(33)], `--cookie-name "${'a'.repeat(33)}" is invalid`],
    [['--pm', 'pip'], '--pm "pip" is invalid: use npm or pnpm or yarn or bun'],
    [['--oauth', 'github,facebook'], '--oauth "github,facebook" is invalid: use none or a comma list of github, google, oidc'],
    [['--oauth', 'none,google'], '--oauth "none,google" is invalid: use none or a comma list of github, google, oidc'],
    [['--captcha', 'recaptcha'], '--captcha "recaptcha" is invalid: use none or cap or turnstile or hcaptcha'],
  ])('rejects %j naming the flag, the value and what is allowed', (args, message) => {
    expect(() => answersFromFlags(flags(args))).toThrow(message)
  })

  it('takes --two-factor and --no-two-factor, and keeps the answer in the reproduce command', () => {
    expect(answersFromFlags(flags(['--two-factor'])).twoFactor).toBe(true)
    expect(answersFromFlags(flags(['--no-two-factor'])).twoFactor).toBe(false)
    expect(answersFromFlags(flags([])).twoFactor).toBeUndefined()
    const args = answersToArgs(withDefaults(answersFromFlags(flags(['--db', 'postgres', '--two-factor'])), env))
    expect(args).toEqual(expect.arrayContaining(['--db', 'postgres', '--two-factor']))
    expect(answersToArgs(withDefaults({}, env))).toContain('--no-two-factor')
  })

  it('takes --oauth as a comma list in any order and case, once each, or none', () => {
    expect(answersFromFlags(flags(['--oauth', 'OIDC, github,oidc'])).oauth).toEqual(['github', 'oidc'])
    expect(answersFromFlags(flags(['--oauth', 'none'])).oauth).toEqual([])
    expect(withDefaults({}, env).oauth).toEqual([])
    const args = answersToArgs(withDefaults(answersFromFlags(flags(['--oauth', 'google,github'])), env))
    expect(args.join(' ')).toContain('--oauth github,google')
    expect(answersToArgs(withDefaults({}, env)).join(' ')).toContain('--oauth none')
  })

  it('takes --captcha as one choice, whose none adds no layer; add knows each other value, and refuses two at once', () => {
    expect(answersFromFlags(flags(['--captcha', 'turnstile'])).captcha).toBe('turnstile')
    expect(withDefaults({}, env).captcha).toBe('none')
    expect(answersToArgs(withDefaults({}, env)).join(' ')).toContain('--captcha none')
    expect(featureLayers(withDefaults({}, env))).not.toContain('captcha')
    for (const value of ['cap', 'turnstile', 'hcaptcha'] as const) expect(featureLayers(withDefaults({ captcha: value }, env))).toContain('captcha')
    expect(FEATURES.filter((feature) => feature.key === 'captcha').map((feature) => feature.name)).toEqual(['captcha-cap', 'captcha-turnstile', 'captcha-hcaptcha'])
    expect(withFeatures(withDefaults({}, env), parseFeatures(['captcha-hcaptcha'])).captcha).toBe('hcaptcha')
    expect(() => withFeatures(withDefaults({}, env), parseFeatures(['captcha-cap', 'captcha-turnstile']))).toThrow('features "captcha-cap" and "captcha-turnstile" are one answer: add one of them')
    // One tag in the variant matrix, not a dimension of four values.
    expect(variantAnswers('sqlite-captcha').captcha).toBe('cap')
    expect(ALL_VARIANT_IDS.some((id) => /turnstile|hcaptcha/.test(id))).toBe(false)
    const row = optionsDocument().options.find((option) => option.key === 'captcha')!
    expect(row).toMatchObject({ flag: '--captcha', type: 'choice', values: ['none', 'cap', 'turnstile', 'hcaptcha'], default: 'none', defaultText: 'none', layer: 'captcha', prompt: 'Protect sign-up and sign-in with a CAPTCHA' })
    expect(buildProgram().helpInformation()).toContain('--captcha <none|cap|turnstile|hcaptcha>')
  })

  it('accepts a 32-character cookie prefix with _ and -', () => {
    const prefix = `a${'b_-9'.repeat(7)}xyz`
    expect(prefix).toHaveLength(32)
    expect(answersFromFlags(flags(['--cookie-name', prefix])).cookieName).toBe(prefix)
  })

  it('blames the flag the user gave when the token lives are out of order', () => {
    const check = (args: string[]) => {
      const given = answersFromFlags(flags(args))
      return brokenRule(withDefaults(given, env), new Set(Object.keys(given) as never))?.message
    }
    expect(check(['--access-ttl', '2h'])).toBe('--access-ttl "2h" is invalid: must be shorter than the refresh token life (1h)')
    expect(check(['--refresh-ttl', '10m'])).toBe('--refresh-ttl "10m" is invalid: must be longer than the access token life (15m)')
    expect(check(['--refresh-ttl', '60d'])).toBe('--refresh-ttl "60d" is invalid: must be at most the "remember me" life (30d)')
    expect(check(['--remember-ttl', '30m'])).toBe('--remember-ttl "30m" is invalid: must be at least the refresh token life (1h)')
    expect(check(['--access-ttl', '1h', '--refresh-ttl', '1h'])).toMatch(/^--refresh-ttl "1h" is invalid/)
    expect(check(['--refresh-ttl', '2h', '--remember-ttl', '2h'])).toBeUndefined()
  })

  it('holds a row to the rows it needs: on only with them on, and no variant without them', () => {
    const check = (args: string[]) => {
      const given = answersFromFlags(flags(args))
      return brokenRule(withDefaults(given, env), new Set(Object.keys(given) as never))?.message
    }
    expect(check(['--sso'])).toBe('--sso needs --teams: add --teams, or leave --sso out')
    expect(check(['--sso', '--teams'])).toBeUndefined()
    expect(check(['--no-sso'])).toBeUndefined()
    for (const option of OPTIONS.filter((row) => row.needs?.length)) {
      for (const id of ALL_VARIANT_IDS) {
        const answers = variantAnswers(id)
        if (answers[option.key] === true) for (const key of option.needs!) expect(answers[key], `${id}: ${option.flag}`).toBe(true)
      }
    }
  })

  it('turns answers back into flags that parse to the same answers', () => {
    for (const id of VARIANT_IDS) {
      const answers = variantAnswers(id)
      expect(withDefaults(answersFromFlags(flags(answersToArgs(answers))), env)).toEqual(answers)
    }
  })

  it('derives every variant from the options table', () => {
    // Which variants CI runs is src/variant-cover.ts's, checked by test/variant-cover.test.ts.
    expect(variantAnswers('mysql-custom-verify-2fa-passkeys')).toMatchObject({
      db: 'mysql',
      emailVerification: true,
      cookieName: 'acme',
      accessTtl: 600,
      refreshTtl: 7200,
      rememberTtl: 1209600,
      twoFactor: true,
      passkeys: true,
      oauth: [],
      install: false,
      git: false,
    })
    expect(variantAnswers('sqlite')).toMatchObject({ db: 'sqlite', twoFactor: false, passkeys: false, cookieName: 'app', emailVerification: false, accessTtl: 900 })
    expect(variantAnswers('mysql-oauth-redis').oauth).toEqual(['github', 'google', 'oidc'])
    expect(variant('mysql-oauth-redis').redis).toBe(true)
    expect(variant('sqlite').redis).toBe(false)
    expect(OPTIONS.map((option) => option.key).sort()).toEqual(Object.keys(variantAnswers("sqlite")).sort())
  })

  it('covers every pair of values of two dimensions in the set npm test runs, and every combination with --all', () => {
    // From the options table: base's prompted single choice varies over its choices, each `matrix` tag
    // (rows sharing one change together) is on or off, and Redis is on or off.
    const covered = OPTIONS.filter((option) => option.matrix || variesByChoice(option))
    const values = (id: string) => {
      const answers = variantAnswers(id)
      return { ...Object.fromEntries(covered.map((option) => [option.key, JSON.stringify(answers[option.key])])), redis: variant(id).redis }
    }
    const choices = OPTIONS.flatMap((option) => (variesByChoice(option) ? [option.choices!.length] : []))
    // A row that needs another is no dimension of its own but one more value of the needed row's (teams, teams-sso).
    const needing = OPTIONS.filter((option) => option.matrix && option.needs?.length)
    const tagOf = (key: string) => OPTIONS.find((option) => option.key === key)?.matrix?.tag
    const tags = new Set(OPTIONS.flatMap((option) => (option.matrix && !option.needs?.length ? [option.matrix.tag] : [])))
    const tagValues = [...tags].map((tag) => 2 + needing.filter((option) => tagOf(option.needs![0]!) === tag).length)
    const all = ALL_VARIANT_IDS.map(values)
    expect(all).toHaveLength(choices.reduce((product, count) => product * count, 1) * tagValues.reduce((product, count) => product * count, 1) * 2)
    expect(new Set(all.map((v) => JSON.stringify(v))).size).toBe(all.length)
    const tested = VARIANT_IDS.map(values)
    const keys = Object.keys(tested[0]!) as (keyof ReturnType<typeof values>)[]
    for (const [i, a] of keys.entries()) {
      for (const b of keys.slice(i + 1)) {
        const pairs = (rows: typeof all) => new Set(rows.map((row) => `${row[a]}|${row[b]}`))
        expect([...pairs(tested)].sort(), `${a} × ${b}`).toEqual([...pairs(all)].sort())
      }
    }
  })
})
