import dns from 'node:dns'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'
import { promisify } from 'node:util'

/**
 * Tests keep their traffic on this machine: importing this module refuses every name lookup and
 * connection but to 127.0.0.0/8, ::1 and localhost, with an error naming the host, said on
 * stderr. The test set-up (setup/loopback-only.ts) fails the test during which one was refused;
 * a process a test starts (helpers/processes.ts loads this with `--import`) exits 1 instead of 0.
 * Connections go through net.Socket.prototype.connect (http, https, tls, and fetch alike) and
 * default lookups through dns.lookup, so those two are the doors watched; a stand-in resolver a
 * test hands the app is checked by the addresses it answers.
 */

type Lookup = (hostname: string, options: dns.LookupOptions, callback: (error: Error | null, address?: unknown, family?: number) => void) => unknown
interface Guard {
  /** Refused since the set-up last took them. */
  refused: string[]
}

const GUARD = Symbol.for('tests.loopback-only')
const state = globalThis as { [GUARD]?: Guard }

const loopback = new net.BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')
loopback.addSubnet('::ffff:127.0.0.0', 104, 'ipv6')

const isLoopbackAddress = (address: string) => {
  const family = net.isIP(address)
  return family !== 0 && loopback.check(address, family === 6 ? 'ipv6' : 'ipv4')
}
const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase()
const isLoopbackHost = (host: string) => bare(host) === 'localhost' || isLoopbackAddress(bare(host))

function install(): Guard {
  const guard: Guard = { refused: [] }
  process.on('exit', (code) => {
    if (guard.refused.length > 0 && code === 0) process.exitCode = 1
  })

  const refusal = (host: string, port?: unknown) => {
    const where = port === undefined || port === null || port === '' ? host : `${host}:${String(port)}`
    const message = `loopback only: refused ${where}: tests keep their traffic on 127.0.0.0/8, ::1 and localhost`
    guard.refused.push(where)
    process.stderr.write(`${message} (pid ${process.pid})\n`)
    return Object.assign(new Error(message), { code: 'ERR_LOOPBACK_ONLY', host, port })
  }

  const lookup = dns.lookup as unknown as Lookup
  const promisesLookup = dns.promises.lookup as (hostname: string, options?: dns.LookupOptions) => Promise<unknown>
  const guardedLookup = function (this: unknown, hostname: string, options: dns.LookupOptions | Parameters<Lookup>[2], callback?: Parameters<Lookup>[2]) {
    if (typeof options === 'function') [callback, options] = [options, {}]
    if (!isLoopbackHost(hostname)) {
      process.nextTick(callback!, refusal(hostname))
      return {}
    }
    return lookup.call(this, hostname, options, callback!)
  }
  Object.defineProperty(guardedLookup, promisify.custom, { value: (hostname: string, options: dns.LookupOptions) => dns.promises.lookup(hostname, options) })
  ;(dns as { lookup: unknown }).lookup = guardedLookup
  ;(dns.promises as { lookup: unknown }).lookup = function (this: unknown, hostname: string, options: dns.LookupOptions) {
    return isLoopbackHost(hostname) ? promisesLookup.call(this, hostname, options) : Promise.reject(refusal(hostname))
  }

  const checkedLookup = (inner: Lookup, port: unknown): Lookup =>
    function (this: unknown, hostname, options, callback) {
      if (typeof options === 'function') [callback, options] = [options, {}]
      return inner.call(this, hostname, options, (error, address, family) => {
        if (error) return callback(error)
        const addresses = Array.isArray(address) ? address.map((entry: { address: string }) => entry.address) : [address as string]
        const outside = addresses.find((entry) => !isLoopbackAddress(entry))
        if (outside !== undefined) return callback(refusal(`${hostname} (${outside})`, port))
        return callback(null, address, family)
      })
    }

  type ConnectOptions = { path?: string; host?: string; port?: unknown; lookup?: Lookup }
  const socket = net.Socket.prototype as unknown as { connect: (...args: unknown[]) => net.Socket }
  const connect = socket.connect
  const normalize = (net as unknown as { _normalizeArgs: (args: unknown[]) => [ConnectOptions, unknown] })._normalizeArgs
  socket.connect = function (this: net.Socket, ...args: unknown[]) {
    // net.connect hands over its arguments already normalised, as a marked array.
    const [options, callback] = Array.isArray(args[0]) ? (args[0] as [ConnectOptions, unknown]) : normalize(args)
    if (options.path) return connect.call(this, options, callback)
    const host = options.host ?? 'localhost'
    if (net.isIP(bare(host))) {
      if (isLoopbackAddress(bare(host))) return connect.call(this, options, callback)
      // Refused through a lookup that fails, so the socket errs as one that could not connect does.
      const error = refusal(host, options.port)
      const fail: Lookup = (_hostname, _options, done) => process.nextTick(done, error)
      return connect.call(this, { ...options, host: 'refused.invalid', lookup: fail }, callback)
    }
    return connect.call(this, { ...options, lookup: checkedLookup(options.lookup ?? (dns.lookup as unknown as Lookup), options.port) }, callback)
  }

  syncBuiltinESMExports()
  return guard
}

// Test files share a worker's modules (isolate: false) but not always: installed once per process.
const guard = (state[GUARD] ??= install())

/** What was refused since the last call, emptied: a test that reached out fails with it. */
export function takeRefusals(): string[] {
  return guard.refused.splice(0)
}
