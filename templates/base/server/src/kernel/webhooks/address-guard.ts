import { lookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import { msg } from '../i18n/translate.js'

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Host name → every address it has (tests hand in their own, so no test needs real DNS). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))

/**
 * What a webhook may never reach (OWASP SSRF prevention: deny the internal ranges, check every
 * address a name resolves to): this host, private and shared (CGNAT) networks, link-local (the
 * cloud metadata services at 169.254.169.254 and fd00:ec2::254 among them), unique-local,
 * documentation, multicast and reserved ranges, and the IPv6 forms that embed an IPv4 address.
 */
const blocked = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 32], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) blocked.addSubnet(network, prefix, 'ipv6')
// Kept apart: Node matches IPv4 addresses against an IPv4-mapped IPv6 range, which would block them all.
const mapped = new BlockList()
mapped.addSubnet('::ffff:0:0', 96, 'ipv6')

/** Whether a webhook may connect to this address. */
export function isPublicAddress({ address, family }: ResolvedAddress): boolean {
  if (family === 4) return !blocked.check(address, 'ipv4')
  return !mapped.check(address, 'ipv6') && !blocked.check(address, 'ipv6')
}

/** The addresses `url`'s host stands for: a literal IP as it is, a name as `resolve` answers (none when the lookup fails). */
export async function hostAddresses(url: URL, resolve: Resolver = systemResolver): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const family = isIP(host)
  if (family) return [{ address: host, family: family === 6 ? 6 : 4 }]
  return resolve(host).catch(() => [])
}

/** `problem` is a message (a catalogue key, i18n/messages/): a 422 at registration, the log's at delivery. */
export type Checked = { target: ResolvedAddress } | { problem: string }

/**
 * A webhook URL's rules, at registration and again before every delivery: `https` (plain `http`
 * too outside production), no user name or password in it, and, unless private addresses are
 * allowed (`WEBHOOK_ALLOW_PRIVATE=on`, for tests and local receivers), a host whose every address
 * is public. The delivery connects to the address checked here (`pinnedLookup`), so a name that
 * answers differently a moment later (DNS rebinding) reaches nothing else.
 */
export class AddressGuard {
  constructor(
    private readonly options: { allowPrivate: boolean; allowHttp: boolean },
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /** What is wrong with the URL itself, before any lookup. */
  urlProblem(url: URL): string | undefined {
    const schemes = this.options.allowHttp ? ['https:', 'http:'] : ['https:']
    if (!schemes.includes(url.protocol)) return this.options.allowHttp ? 'webhooks.httpOrHttps' : 'webhooks.https'
    if (url.username || url.password) return 'webhooks.userInfo'
    return undefined
  }

  async check(url: URL): Promise<Checked> {
    const problem = this.urlProblem(url)
    if (problem) return { problem }
    const addresses = await hostAddresses(url, this.resolve)
    if (addresses.length === 0) return { problem: msg('webhooks.unresolved', { host: url.hostname.replace(/^\[(.*)\]$/, '$1') }) }
    if (!this.options.allowPrivate && !addresses.every(isPublicAddress)) return { problem: 'webhooks.privateAddress' }
    return { target: addresses[0]! }
  }
}

/** A `lookup` that answers with the address already checked, whatever the name resolves to now. */
export const pinnedLookup = (target: ResolvedAddress): LookupFunction =>
  ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [target])
    else callback(null, target.address, target.family)
  }) as unknown as LookupFunction
