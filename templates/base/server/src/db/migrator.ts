import type { QueryInterface, Sequelize } from 'sequelize'
import { SequelizeStorage, Umzug } from 'umzug'
import type { FeatureMigrations } from '../kernel/feature.js'
import { migrationsOf } from './migrations/index.js'

/** What the migrator reads of the feature layers. */
export type MigrationFeatures = readonly { migrations?: FeatureMigrations }[]

export function createMigrator(sequelize: Sequelize, features: MigrationFeatures): Umzug<QueryInterface> {
  return new Umzug({
    migrations: migrationsOf(features).map(({ name, up, down }) => ({ name, up, down })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'migrations' }),
    logger: undefined,
  })
}

export async function pendingMigrations(sequelize: Sequelize, features: MigrationFeatures): Promise<string[]> {
  return (await createMigrator(sequelize, features).pending()).map((m) => m.name)
}
