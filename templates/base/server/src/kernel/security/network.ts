import { isIPv4, isIPv6 } from 'node:net'

/**
 * The network an address belongs to, as the new-device rule compares them: its /24 for IPv4 and
 * its /48 for IPv6 (what one site or one provider's customer usually holds), so a phone moving
 * between addresses of one network is not a new device every time.
 */
export function networkOf(ip: string | null): string | null {
  if (!ip) return null
  if (isIPv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.0/24`
  if (!isIPv6(ip)) return null
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return networkOf(mapped[1]!)
  return `${expandIPv6(ip).slice(0, 3).join(':')}::/48`
}

/** `2001:db8::1` → its eight groups, each without leading zeros (a zone id is dropped). */
function expandIPv6(ip: string): string[] {
  const [head = '', tail] = ip.split('%')[0]!.toLowerCase().split('::')
  const groups = (part: string) => (part ? part.split(':') : [])
  const left = groups(head)
  const right = tail === undefined ? [] : groups(tail)
  const middle = Array.from({ length: 8 - left.length - right.length }, () => '0')
  return [...left, ...middle, ...right].map((group) => group.replace(/^0+(?=.)/, ''))
}
