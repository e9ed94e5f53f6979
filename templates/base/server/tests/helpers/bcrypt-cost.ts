import { afterAll, beforeAll } from 'vitest'
import { security } from '../../src/kernel/config/security.js'

/**
 * The specification's cost, read when this module is first loaded: setup/bcrypt-cost.ts imports
 * it before lowering the cost, and a worker keeps its modules from file to file.
 */
export const SPECIFIED_BCRYPT_COST = security.bcryptCost
const TEST_BCRYPT_COST = 4
const settings = security as { bcryptCost: number }

export function lowerBcryptCost(): void {
  settings.bcryptCost = TEST_BCRYPT_COST
}

/** For a file that checks bcrypt's cost or relies on a hash taking its real time. */
export function useSpecifiedBcryptCost(): void {
  beforeAll(() => {
    settings.bcryptCost = SPECIFIED_BCRYPT_COST
  })
  afterAll(lowerBcryptCost)
}
