import type { ClientFeature } from './types'

// Each feature layer's `features/<layer>.ts`; an app generated without any has none to find.
const modules = import.meta.glob<ClientFeature>(['./*.ts', '!./index.ts', '!./types.ts'], { eager: true, import: 'feature' })

export const features: ClientFeature[] = Object.values(modules)
