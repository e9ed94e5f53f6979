import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import { freePort } from './processes.js'

/**
 * A Redis of the test's own on a free port (the machine's Redis is never stopped), which the
 * test can stop and start again on the same port.
 */
export async function ownRedis() {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'])
      child = server
      let output = ''
      const timer = setTimeout(() => reject(new Error(`redis-server not ready:\n${output}`)), 10_000)
      server.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer)
          resolve()
        }
      })
      server.on('error', reject)
    })
  const stop = async () => {
    const server = child
    child = undefined
    if (!server || server.exitCode !== null) return
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGKILL')
    await exited
  }
  await start()
  return { url: `redis://127.0.0.1:${port}`, start, stop }
}

/**
 * A TCP proxy in front of a database server: `cut()` drops every connection and refuses new
 * ones, as a network partition or a stopped server would; `restore()` lets them through again.
 */
export async function tcpProxy(target: { host: string; port: number }) {
  const port = await freePort()
  const sockets = new Set<net.Socket>()
  let server: net.Server | undefined
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => socket.destroy())
        }
        client.pipe(upstream).pipe(client)
        client.on('close', () => upstream.destroy())
        upstream.on('close', () => client.destroy())
      })
      server.listen(port, '127.0.0.1', resolve)
    })
  const cut = async () => {
    const closing = server
    server = undefined
    for (const socket of sockets) socket.destroy()
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()))
  }
  await listen()
  return { port, cut, restore: listen, close: cut }
}

/** Runs `request` and returns its answer with the milliseconds it took. */
export async function timed<T>(request: () => PromiseLike<T>): Promise<{ res: T; ms: number }> {
  const started = performance.now()
  const res = await request()
  return { res, ms: performance.now() - started }
}
