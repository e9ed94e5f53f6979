/**
 * The scale-out step of the variant run: a built variant as it would be deployed behind a load
 * balancer. Two instances (`WORKER=false`) and a worker share the database and Redis behind a
 * real nginx (Debian's package), and a driver checks through nginx and against each instance:
 * requests land on both; rotation, logout and session revocation on one are seen by the other;
 * the rate limit is shared; a job yields exactly one mail; an instance killed mid-run costs no
 * request beyond those in flight to it. Prints the request count per instance.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { appEnv, layerRunEnv } from './app-env.js'
import { freePort } from './ports.js'


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Answer {
  status: number
  instance: string | null
  cookies: Record<string, string>
  body: unknown
}

/**
 * A tiny cookie-carrying client: what a browser would send and keep. Its pages come from
 * `origin` (BASE_URL, the load balancer) whichever address `base` it sends a request to, as the
 * API trusts no other origin.
 */
async function request(origin: string, base: string, method: string, path: string, cookies: Record<string, string> = {}, body?: object): Promise<Answer> {
  const headers: Record<string, string> = { Origin: origin }
  const cookie = Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join('; ')
  if (cookie) headers.Cookie = cookie
  if (body) headers['Content-Type'] = 'application/json'
  const res = await fetch(`${base}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined })
  const next = { ...cookies }
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';')
    const eq = pair.indexOf('=')
    const value = pair.slice(eq + 1)
    if (value === '' || /max-age=0/i.test(line)) delete next[pair.slice(0, eq)]
    else next[pair.slice(0, eq)] = value
  }
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  return { status: res.status, instance: res.headers.get('x-instance-id'), cookies: next, body: parsed }
}

function nginxConfig(prefix: string, port: number, upstreams: number[]): string {
  return `pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
daemon off;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream app {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 16;
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502;
      proxy_connect_timeout 2s;
    }
  }
}
`
}

/** Debian's nginx, installed when missing (CI's variant run and bench:scale use it). */
export async function nginxBinary(): Promise<string> {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(candidate)) return candidate
  console.log('installing nginx from Debian')
  await execa('apt-get', ['update', '-qq'], { stdio: 'inherit' })
  await execa('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
  return '/usr/sbin/nginx'
}

/** Waits until `url` answers 200, or the process has exited. */
async function ready(url: string, child: ChildProcess, label: string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).status === 200) return
    } catch {}
    await sleep(200)
  }
  throw new Error(`${label} not ready`)
}

export async function runScaleOut(dir: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const tmp = mkdtempSync(join(tmpdir(), 'cca-scale-'))
  const children: ChildProcess[] = []
  const checks: Array<[string, boolean]> = []
  const check = (label: string, ok: boolean) => {
    checks.push([label, ok])
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}`)
  }
  try {
    const [portA, portB, portLb] = [await freePort(), await freePort(), await freePort()]
    const lb = `http://127.0.0.1:${portLb}`
    const call = (base: string, method: string, path: string, cookies?: Record<string, string>, body?: object) => request(lb, base, method, path, cookies, body)
    const mailDir = join(dir, 'storage', 'mail')
    rmSync(mailDir, { recursive: true, force: true })
    const common: NodeJS.ProcessEnv = {
      ...appEnv(env),
      ...(await layerRunEnv(dir)),
      NODE_ENV: 'production',
      BASE_URL: lb,
      REDIS_URL: env.REDIS_URL || 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `scale-${randomBytes(4).toString('hex')}:`,
      SMTP_URL: '',
      // The mail check below reads storage/mail: production writes there only when told so.
      MAIL_TRANSPORT: 'log',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    }
    await execa('node', ['dist/server/cli/migrate.js'], { cwd: dir, env: common, stdio: 'inherit' })
    const password = 'scale out password'
    for (const [email, role] of [['admin@scale.test', 'admin'], ['user@scale.test', 'user']]) {
      await execa('node', ['dist/server/cli/user-create.js', '--name', role, '--email', email, '--password', password, '--role', role], { cwd: dir, env: common })
    }

    const start = (args: string[], extra: NodeJS.ProcessEnv) => {
      const child = spawn('node', args, { cwd: dir, env: { ...common, ...extra }, stdio: ['ignore', 'inherit', 'inherit'] })
      children.push(child)
      return child
    }
    const instance = (name: 'a' | 'b') =>
      start(['dist/server/index.js'], { PORT: String(name === 'a' ? portA : portB), INSTANCE_ID: name, WORKER: 'false' })
    let a = instance('a')
    const b = instance('b')
    start(['dist/server/cli/worker.js'], {})
    await ready(`http://127.0.0.1:${portA}/api/health`, a, 'instance a')
    await ready(`http://127.0.0.1:${portB}/api/health`, b, 'instance b')
    for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(tmp, sub))
    writeFileSync(join(tmp, 'nginx.conf'), nginxConfig(tmp, portLb, [portA, portB]))
    const nginx = spawn(await nginxBinary(), ['-p', tmp, '-c', join(tmp, 'nginx.conf')], { stdio: 'inherit' })
    children.push(nginx)
    await ready(`${lb}/api/health`, nginx, 'nginx')

    const direct = { a: `http://127.0.0.1:${portA}`, b: `http://127.0.0.1:${portB}` }
    const counts: Record<string, number> = {}
    const through = async (method: string, path: string, cookies?: Record<string, string>, body?: object) => {
      const answer = await call(lb, method, path, cookies, body)
      if (answer.instance) counts[answer.instance] = (counts[answer.instance] ?? 0) + 1
      return answer
    }

    // Sign-in through nginx, then requests landing on both instances.
    const login = await through('POST', '/api/auth/login', {}, { email: 'user@scale.test', password })
    check('login through nginx: 200', login.status === 200)
    for (let i = 0; i < 40; i++) await through('GET', '/api/auth/me', login.cookies)
    check(`requests land on both instances (a: ${counts.a ?? 0}, b: ${counts.b ?? 0})`, (counts.a ?? 0) > 0 && (counts.b ?? 0) > 0)

    // Rotation on a, the successor accepted on b; the replaced token refused once its grace is over.
    const rotated = await call(direct.a, 'POST', '/api/auth/refresh-token', login.cookies)
    const refreshName = Object.keys(rotated.cookies).find((name) => name.endsWith('_refresh'))!
    const onlyRefresh = { [refreshName]: rotated.cookies[refreshName]! }
    check('rotation on a: 200', rotated.status === 200)
    check('the rotated refresh token renews access on b', (await call(direct.b, 'GET', '/api/auth/me', onlyRefresh)).status === 200)

    // Session revocation on a, seen by b within a second (Redis pub/sub).
    const second = await through('POST', '/api/auth/login', {}, { email: 'user@scale.test', password })
    const sessions = (await call(direct.a, 'GET', '/api/account/sessions', rotated.cookies)).body as { data: Array<{ id: string; current: boolean }> }
    const other = sessions.data.find((session) => !session.current)
    const revoked = other ? await call(direct.a, 'DELETE', `/api/account/sessions/${other.id}`, rotated.cookies) : undefined
    await sleep(300)
    check('a session revoked on a: its access token is refused on b', revoked?.status === 204 && (await call(direct.b, 'GET', '/api/auth/me', second.cookies)).status === 401)

    // Logout on b, seen by a.
    const out = await call(direct.b, 'POST', '/api/auth/logout', rotated.cookies)
    await sleep(300)
    check('logout on b: the access token is refused on a', out.status === 204 && (await call(direct.a, 'GET', '/api/auth/me', rotated.cookies)).status === 401)

    // One rate limit for both: 5 failed logins for one address spread over a and b, then 429.
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      statuses.push((await call(i % 2 ? direct.b : direct.a, 'POST', '/api/auth/login', {}, { email: 'limited@scale.test', password: 'wrong password' })).status)
    }
    check(`the login limit is shared (${statuses.join(' ')})`, statuses.join(' ') === '422 422 422 422 422 429')

    // One mail per job: a reset request through nginx, run by the worker.
    await through('POST', '/api/auth/forgot-password', {}, { email: 'user@scale.test' })
    const mails = () => (existsSync(mailDir) ? readdirSync(mailDir).filter((file) => readFileSync(join(mailDir, file), 'utf8').includes('To: user@scale.test')) : [])
    for (let waited = 0; mails().length === 0 && waited < 10_000; waited += 200) await sleep(200)
    await sleep(2000)
    check(`a job yields exactly one mail (${mails().length})`, mails().length === 1)

    // Steady load through nginx while instances go away: 4 clients, GET /me, counting failures.
    const session = await through('POST', '/api/auth/login', {}, { email: 'admin@scale.test', password })
    const concurrency = 4
    const underLoad = async (requests: number, during: () => Promise<void>) => {
      let failed = 0
      let sent = 0
      const client = async () => {
        for (; sent < requests; sent++) {
          const answer = await through('GET', '/api/auth/me', session.cookies).catch(() => null)
          if (answer?.status !== 200) failed++
        }
      }
      const load = Promise.all(Array.from({ length: concurrency }, client))
      await during()
      await load
      return failed
    }
    const stopped = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))

    // A rolling restart: SIGTERM drains a (kept-alive connections get `Connection: close`), a
    // comes back on its port, and only then does the next one go. Nothing may fail.
    const rolling = await underLoad(600, async () => {
      await sleep(200)
      a.kill('SIGTERM')
      await stopped(a)
      a = instance('a')
      await ready(`http://127.0.0.1:${portA}/api/health`, a, 'instance a (restarted)')
      await sleep(200)
    })
    check(`a rolling restart of instance a under load: ${rolling} of 600 requests failed`, rolling === 0)

    // One instance killed mid-run: nothing fails beyond what was in flight to it.
    const killed = await underLoad(400, async () => {
      await sleep(300)
      a.kill('SIGKILL')
    })
    check(`instance a killed with kill -9 mid-run: ${killed} of 400 requests failed (at most ${concurrency} in flight)`, killed <= concurrency)

    console.log(`requests per instance through nginx: a ${counts.a ?? 0}, b ${counts.b ?? 0}`)
    return checks.every(([, ok]) => ok)
  } catch (error) {
    console.log(`FAIL scale-out: ${(error as Error).message}`)
    return false
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM')
    await sleep(500)
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    rmSync(tmp, { recursive: true, force: true })
  }
}
