// What a provider's own slice may use of this one: its client's variables, read the same way for every provider.
export { readClient, readProviderUrl, type ProviderClientEnv } from './env.js'
