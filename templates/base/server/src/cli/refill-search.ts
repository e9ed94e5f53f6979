import { Op } from 'sequelize'
import { initModels, User } from '../kernel/models/index.js'
import { searchTextOf } from '../kernel/models/user-search-text.js'
import { connectOrExit, features, loadEnvOrExit, refuseWithPendingMigrations } from './bootstrap.js'

/**
 * Refolds every user's `search` text as the app does (kernel/models/user-search-text.ts): after an
 * import or a seed wrote users with SQL (the database's trigger folds only what it can), or a
 * change of the folding. Batches by id, so it runs beside a live app; a row is written only when
 * its text differs.
 */
const BATCH = 1_000

const env = loadEnvOrExit()
const sequelize = await connectOrExit(env)
await refuseWithPendingMigrations(sequelize)
initModels(sequelize, features)
try {
  let last = 0
  let seen = 0
  let changed = 0
  for (;;) {
    const rows = await User.findAll({ attributes: ['id', 'name', 'email', 'search'], where: { id: { [Op.gt]: last } }, order: [['id', 'ASC']], limit: BATCH })
    if (rows.length === 0) break
    // One transaction per batch: one commit (on SQLite, one fsync) for up to a thousand rows.
    await sequelize.transaction(async (transaction) => {
      for (const row of rows) {
        // MySQL keeps the text as VARBINARY and hands back its bytes.
        const stored = row.getDataValue('search') as string | Buffer
        const search = searchTextOf(row.name, row.email)
        if ((Buffer.isBuffer(stored) ? stored.toString('utf8') : stored) === search) continue
        await User.update({ search }, { where: { id: row.id }, silent: true, hooks: false, transaction })
        changed++
      }
    })
    seen += rows.length
    last = rows.at(-1)!.id
  }
  console.log(`Search text refolded for ${changed} of ${seen} users.`)
} finally {
  await sequelize.close()
}
