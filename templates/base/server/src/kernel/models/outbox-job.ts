import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize'

/** A job a request promised (kernel/jobs/outbox.ts): pending until `finishedAt` (done or handed on) or `failedAt`. */
export class OutboxJob extends Model<InferAttributes<OutboxJob>, InferCreationAttributes<OutboxJob>> {
  declare id: CreationOptional<number>
  /** The app's key prefix (see the migration). */
  declare queue: string
  declare name: string
  /** Claimed apart from other lanes, a few at a time (kernel/jobs/outbox.ts); null: the shared lane. */
  declare lane: CreationOptional<string | null>
  /** The job's data as JSON. */
  declare payload: string
  declare attempts: CreationOptional<number>
  declare availableAt: Date
  /** A claim: the instance that set it works on the job until then. */
  declare lockedUntil: CreationOptional<Date | null>
  declare finishedAt: CreationOptional<Date | null>
  declare failedAt: CreationOptional<Date | null>
  declare createdAt: CreationOptional<Date>

  static initModel(sequelize: Sequelize): void {
    OutboxJob.init(
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
        queue: { type: DataTypes.STRING(64), allowNull: false },
        name: { type: DataTypes.STRING(64), allowNull: false },
        lane: { type: DataTypes.STRING(64), allowNull: true, defaultValue: null },
        payload: { type: DataTypes.TEXT, allowNull: false },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        availableAt: { type: DataTypes.DATE, allowNull: false },
        lockedUntil: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        finishedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        failedAt: { type: DataTypes.DATE, allowNull: true, defaultValue: null },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'outbox_jobs', modelName: 'OutboxJob', updatedAt: false },
    )
  }
}
