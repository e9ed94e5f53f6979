import { features } from '@/features'

/** The challenge a layer offers (the first, should there be several), or none. */
export const challenge = features.map((feature) => feature.challenge).find((found) => found !== undefined)

/** Whether a refusal asks for the challenge's answer: its field among the errors. */
export const asksChallenge = (errors: Readonly<Record<string, unknown>>): boolean => challenge !== undefined && errors[challenge.field] !== undefined
