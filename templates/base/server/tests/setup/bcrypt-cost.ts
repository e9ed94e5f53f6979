// Tests hash thousands of passwords: at the specification's cost 10 (tens of milliseconds each)
// that was half of the server suite's CPU time. Cost 4 takes about a millisecond, as Laravel's
// test environment does (BCRYPT_ROUNDS=4). The server itself, every process a test spawns
// (startup.test.ts checks a stored `$2b$10$` hash), passwords.test.ts (useSpecifiedBcryptCost) and
// the timing project (enumeration.test.ts, which measures bcrypt's work) keep cost 10:
// vitest.config.ts loads this file for the `server` project only.
import { lowerBcryptCost } from '../helpers/bcrypt-cost.js'

lowerBcryptCost()
