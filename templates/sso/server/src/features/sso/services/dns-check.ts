import { Resolver } from 'node:dns/promises'

/**
 * Whether `name` has a TXT record holding exactly `value`, asked of `servers` (the system's
 * resolvers when null). An answer that says nothing (no such name, no TXT record, a server that
 * does not answer in time) is a no: the owner publishes the record and asks again.
 */
export async function hasTxtRecord(name: string, value: string, servers: readonly string[] | null): Promise<boolean> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 })
  if (servers) resolver.setServers([...servers])
  try {
    // A long record comes in chunks of at most 255 characters: joined, they are the record.
    const records = await resolver.resolveTxt(name)
    return records.some((chunks) => chunks.join('') === value)
  } catch {
    return false
  }
}
