import { Op } from 'sequelize'
import { SecurityEvent } from '../models/index.js'
import { deviceOf } from '../auth/sessions.js'

/** One credential event as the audit export writes it. */
export interface ExportedEvent {
  id: number
  userId: number | null
  type: string
  ip: string | null
  device: string
  /**
   * The event's details, as the JSON text stored (null when it has none); with `impersonatorId`
   * in it when an admin signed in as the user did it. The columns stay the documented seven.
   */
  meta: string | null
  createdAt: string
}

export const EXPORTED_FIELDS = ['id', 'userId', 'type', 'ip', 'device', 'meta', 'createdAt'] as const satisfies ReadonlyArray<keyof ExportedEvent>

/** Events at or after `from`, and at or before `through` or before `before` (each open when absent). */
export interface ExportRange {
  from?: Date
  through?: Date
  before?: Date
}

/** Rows per query: one page is all the export holds at a time, whatever the range's size. */
export const EXPORT_PAGE_SIZE = 1000

/**
 * The id of the newest event now: the export ends there, so events recorded while it runs (the
 * admin's own sign-ins, a busy site's logins) cannot keep it going for ever.
 */
export async function lastEventId(): Promise<number> {
  return ((await SecurityEvent.max('id')) as number | null) ?? 0
}

/**
 * Every event of the range up to `lastId`, oldest id first, one page at a time. Keyset paging
 * (`id > last`) costs one primary-key seek per page where OFFSET would rescan all the pages
 * before it; the caller asks for the next page only once the last one is written out.
 */
export async function* exportedEventPages(range: ExportRange, lastId: number): AsyncGenerator<ExportedEvent[]> {
  const createdAt = {
    ...(range.from ? { [Op.gte]: range.from } : {}),
    ...(range.through ? { [Op.lte]: range.through } : {}),
    ...(range.before ? { [Op.lt]: range.before } : {}),
  }
  const inRange = range.from || range.through || range.before ? { createdAt } : {}
  let after = 0
  for (;;) {
    const rows = await SecurityEvent.findAll({
      attributes: ['id', 'userId', 'type', 'ip', 'userAgent', 'meta', 'createdAt', 'impersonatorId'],
      where: { id: { [Op.gt]: after, [Op.lte]: lastId }, ...inRange },
      order: [['id', 'ASC']],
      limit: EXPORT_PAGE_SIZE,
    })
    if (rows.length > 0) yield exported(rows)
    if (rows.length < EXPORT_PAGE_SIZE) return
    after = rows[rows.length - 1]!.id
  }
}

function exported(rows: SecurityEvent[]): ExportedEvent[] {
  // A page's events mostly share a few agents: each is parsed once (Bowser is the slow part).
  const devices = new Map<string | null, string>()
  const deviceFor = (userAgent: string | null) => {
    let device = devices.get(userAgent)
    if (device === undefined) devices.set(userAgent, (device = deviceOf(userAgent)))
    return device
  }
  return rows.map((row) => ({
    id: row.id,
    userId: row.userId,
    type: row.type,
    ip: row.ip,
    // As on the activity pages: older rows may hold an agent's free text, so the line is rebuilt from known names.
    device: deviceFor(row.userAgent),
    meta: row.impersonatorId === null ? row.meta : JSON.stringify({ ...(row.meta ? (JSON.parse(row.meta) as object) : {}), impersonatorId: row.impersonatorId }),
    createdAt: row.createdAt.toISOString(),
  }))
}
