import type { ClientFeature } from './types'

// Each feature layer's folder `features/<layer>/`, whose index.ts exports its `feature` (as the
// server's `server/src/features/<layer>/index.ts` does); an app generated without any has none.
const modules = import.meta.glob<ClientFeature>('./*/index.ts', { eager: true, import: 'feature' })

export const features: ClientFeature[] = Object.values(modules)
