/**
 * Loaded with `node --import` (NODE_OPTIONS, scripts/lib/app-env.ts) into every process the
 * generator's tests, benchmarks and scripts start for a generated app: their traffic stays on
 * this machine. A name lookup or a connection anywhere but 127.0.0.0/8, ::1 and localhost is
 * refused with an error naming the host, said on stderr, and fails the process (exit code 1 where
 * it would have been 0), so a step that reached out fails where it would have passed unseen.
 *
 * Plain JavaScript: it loads before any TypeScript loader, into every Node line the runs use.
 * Connections go through net.Socket.prototype.connect (http, https, tls, and fetch's undici alike)
 * and default name lookups through dns.lookup, so those two are the doors watched.
 */
import dns from 'node:dns'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'
import { promisify } from 'node:util'

const loopback = new net.BlockList()
loopback.addSubnet('127.0.0.0', 8, 'ipv4')
loopback.addAddress('::1', 'ipv6')
loopback.addSubnet('::ffff:127.0.0.0', 104, 'ipv6')

const isLoopbackAddress = (address) => {
  const family = net.isIP(address)
  return family !== 0 && loopback.check(address, family === 6 ? 'ipv6' : 'ipv4')
}
const bare = (host) => String(host).replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase()
const isLoopbackHost = (host) => bare(host) === 'localhost' || isLoopbackAddress(bare(host))

let refusals = 0
process.on('exit', (code) => {
  if (refusals > 0 && code === 0) process.exitCode = 1
})

function refusal(host, port) {
  refusals++
  const where = port === undefined || port === null || port === '' ? host : `${host}:${port}`
  const message = `loopback only: refused ${where}: tests keep their traffic on 127.0.0.0/8, ::1 and localhost`
  process.stderr.write(`${message} (pid ${process.pid})\n`)
  return Object.assign(new Error(message), { code: 'ERR_LOOPBACK_ONLY', host, port })
}

const lookup = dns.lookup
const promisesLookup = dns.promises.lookup

function guardedLookup(hostname, options, callback) {
  if (typeof options === 'function') [callback, options] = [options, {}]
  if (!isLoopbackHost(hostname)) {
    const error = refusal(hostname)
    process.nextTick(callback, error)
    return {}
  }
  return lookup.call(this, hostname, options, callback)
}
Object.defineProperty(guardedLookup, promisify.custom, { value: (hostname, options) => dns.promises.lookup(hostname, options) })
dns.lookup = guardedLookup
dns.promises.lookup = function (hostname, options) {
  return isLoopbackHost(hostname) ? promisesLookup.call(this, hostname, options) : Promise.reject(refusal(hostname))
}

/** A socket's lookup whose answers are checked: a custom one (a test's stand-in resolver) may answer anything. */
const checkedLookup = (inner, port) =>
  function (hostname, options, callback) {
    if (typeof options === 'function') [callback, options] = [options, {}]
    return inner.call(this, hostname, options, (error, address, family) => {
      if (error) return callback(error)
      const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address]
      const outside = addresses.find((entry) => !isLoopbackAddress(entry))
      if (outside !== undefined) return callback(refusal(`${hostname} (${outside})`, port))
      return callback(null, address, family)
    })
  }

const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function (...args) {
  // net.connect hands over its arguments already normalised, as a marked array.
  const [options, callback] = Array.isArray(args[0]) ? args[0] : net._normalizeArgs(args)
  if (options.path) return connect.call(this, options, callback)
  const host = options.host ?? 'localhost'
  if (net.isIP(bare(host))) {
    if (isLoopbackAddress(bare(host))) return connect.call(this, options, callback)
    // Refused through a lookup that fails, so the socket errs as one that could not connect does.
    const error = refusal(host, options.port)
    const fail = (_hostname, _options, done) => process.nextTick(done, error)
    return connect.call(this, { ...options, host: 'refused.invalid', lookup: fail }, callback)
  }
  return connect.call(this, { ...options, lookup: checkedLookup(options.lookup ?? dns.lookup, options.port) }, callback)
}

syncBuiltinESMExports()
