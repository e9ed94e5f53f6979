import { inject } from 'vitest'

/** This worker's database (setup/global-setup.ts made one per worker): no other file uses it meanwhile. */
export function runDatabaseUrl(): string {
  const urls = inject('databaseUrls')
  const url = urls[Number(process.env.VITEST_POOL_ID ?? 1) - 1]
  if (!url) throw new Error(`No test database for worker ${process.env.VITEST_POOL_ID} of ${urls.length}`)
  return url
}
