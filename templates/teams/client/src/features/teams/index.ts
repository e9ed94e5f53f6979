import type { ClientFeature } from '../types'

export const feature: ClientFeature = {}
