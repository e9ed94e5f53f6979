import { createServer, type AddressInfo } from 'node:net'

/** A port the system just handed out and released: free at the moment, for a server about to start. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
