import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { RequestHandler } from 'express'
import { z } from 'zod'
import { EXPORT_FORMATS, exportedEventPages, exportEncodings, lastEventId, msg, validate, type AppContext, type ExportedEvent, type ExportEncoding, type ExportRange } from '../../../kernel/index.js'

const DAY_MS = 24 * 3600 * 1000
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** A calendar day (UTC) or an instant with its offset; an empty value means "not given". */
const bound = (field: string) =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
      error: msg('validation.date', { field }),
    }).optional(),
  )

export const exportActivityQuery = z
  .object({
    from: bound('from'),
    to: bound('to'),
    format: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.enum(EXPORT_FORMATS, { error: msg('validation.format', { formats: EXPORT_FORMATS.join(', ') }) }).default('ndjson'),
    ),
  })
  .transform(({ from, to, format }, ctx) => {
    // Both ends are inclusive: a day given as `to` counts to its end, so it is "before the next
    // day" (never "through 23:59:59.999", which MySQL's whole-second DATETIME would round up).
    const range: ExportRange = { from: from === undefined ? undefined : new Date(from) }
    if (to !== undefined && DATE_ONLY.test(to)) range.before = new Date(Date.parse(to) + DAY_MS)
    else if (to !== undefined) range.through = new Date(to)
    const end = range.before ?? range.through
    if (range.from && end && (range.before ? end <= range.from : end < range.from)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.dateOrder' })
      return z.NEVER
    }
    return { range, format }
  })

/**
 * The audit export (admin): every credential event of the range as NDJSON or CSV, streamed page
 * by page. Memory stays at one page whatever the range holds: the next page is read only once
 * the client has taken the last one (pipeline waits for `drain` when `res.write` says the socket
 * is full), and a client that goes away stops the reading.
 */
export function exportActivity(ctx: Pick<AppContext, 'logger'>): RequestHandler {
  return async (req, res) => {
    const { range, format } = validate(exportActivityQuery, req.query)
    // Read before any byte is sent: a database that is down is still answered with its 503.
    const lastId = await lastEventId()
    const encoding = exportEncodings[format]
    res.status(200)
    res.setHeader('Content-Type', encoding.contentType)
    res.setHeader('Content-Disposition', `attachment; filename="security-events-${new Date().toISOString().replace(/[:.]/g, '-')}.${encoding.extension}"`)
    // Express answers HEAD with this GET route: the headers say it all, without reading every event.
    if (req.method === 'HEAD') return void res.end()
    try {
      await pipeline(Readable.from(chunks(encoding, exportedEventPages(range, lastId)), { objectMode: false }), res)
    } catch (error) {
      // Once the status is sent a failure can only cut the transfer short (the client sees a
      // truncated download, never a complete-looking one); a client that left needs no log line.
      if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return
      ctx.logger.error({ err: error, method: req.method, url: req.originalUrl }, 'Audit export failed')
    }
  }
}

async function* chunks(encoding: ExportEncoding, pages: AsyncIterable<ExportedEvent[]>): AsyncGenerator<string> {
  if (encoding.head) yield encoding.head
  for await (const events of pages) yield encoding.page(events)
}
