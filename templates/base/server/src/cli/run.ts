import { createAppContext } from '../create-context.js'
import { connectOrExit, exitWith, features, loadEnvOrExit, refuseWithPendingMigrations } from './bootstrap.js'

// Usage: tsx server/src/cli/run.ts <command> [args]: a layer's command-line task (the `commands`
// of its feature), with the app's context on a migrated database. The layers' npm scripts call it.
const [name, ...args] = process.argv.slice(2)
const commands = new Map(features.flatMap((feature) => Object.entries(feature.commands ?? {})))
const command = name === undefined ? undefined : commands.get(name as `${string}:${string}`)
if (!command) exitWith(`Unknown command "${name ?? ''}": this app has ${commands.size ? [...commands.keys()].join(', ') : 'none'}.`)

const env = loadEnvOrExit()
const sequelize = await connectOrExit(env)
await refuseWithPendingMigrations(sequelize)
const ctx = await createAppContext({ env, sequelize, worker: false })
try {
  const said = await command(ctx, args)
  if (said) console.log(said)
} catch (error) {
  console.error(`${name} failed: ${(error as Error).message}`)
  process.exitCode = 1
} finally {
  await ctx.close()
  await sequelize.close()
}
