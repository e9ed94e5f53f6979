import { createSocket } from 'node:dgram'
import type { AddressInfo } from 'node:net'
import dnsPacket from 'dns-packet'

/**
 * A DNS server stand-in on the loopback: answers TXT questions from `records` (name → values),
 * every other question with no answer. `address` is what SSO_DNS_SERVER takes; `asked` lists the
 * names asked, in order.
 */
export async function startDnsServer() {
  const records = new Map<string, string[]>()
  const asked: string[] = []
  const socket = createSocket('udp4')
  socket.on('message', (message, peer) => {
    const query = dnsPacket.decode(message)
    const answers = (query.questions ?? []).flatMap((question) => {
      asked.push(question.name)
      if (question.type !== 'TXT') return []
      return (records.get(question.name.toLowerCase()) ?? []).map((value) => ({ type: 'TXT' as const, name: question.name, ttl: 60, data: value }))
    })
    socket.send(dnsPacket.encode({ type: 'response', id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER, questions: query.questions, answers }), peer.port, peer.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address() as AddressInfo
  return {
    address: `127.0.0.1:${port}`,
    asked,
    /** Publishes `value` at `name`, beside what is there. */
    publish: (name: string, value: string) => void records.set(name.toLowerCase(), [...(records.get(name.toLowerCase()) ?? []), value]),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  }
}
