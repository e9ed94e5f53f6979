import { stringify, type Options } from 'csv-stringify/sync'
import { EXPORTED_FIELDS, type ExportedEvent } from './activity-export.js'

export const EXPORT_FORMATS = ['ndjson', 'csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** How one format writes the export: its media type, file extension, first line and each page. */
export interface ExportEncoding {
  contentType: string
  extension: string
  /** What comes before the first event (and alone when there is none). */
  head: string
  page(events: ExportedEvent[]): string
}

/**
 * RFC 4180: CRLF between records, a cell quoted when it holds a comma, a quote or a line break
 * (csv-stringify quotes only the whole record delimiter by itself, so a lone CR or LF is matched).
 * OWASP's CSV injection rule: a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return gets a leading `'`, so a spreadsheet shows it as text instead of running it as a formula
 * (an address a proxy's X-Forwarded-For passed on, text some code stored as `meta`).
 */
const CSV: Options = { record_delimiter: 'windows', quoted_match: /[\r\n]/, escape_formulas: true }

export const exportEncodings: Record<ExportFormat, ExportEncoding> = {
  ndjson: {
    contentType: 'application/x-ndjson',
    extension: 'ndjson',
    head: '',
    page: (events) => events.map((event) => `${JSON.stringify({ ...event, meta: metaValue(event.meta) })}\n`).join(''),
  },
  csv: {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    head: stringify([[...EXPORTED_FIELDS]], CSV),
    // `meta` stays the JSON text it is stored as: one cell, quoted by the rules above.
    page: (events) => stringify(events.map((event) => EXPORTED_FIELDS.map((field) => event[field])), CSV),
  },
}

/**
 * `meta` as the object it holds rather than a string of JSON inside JSON. The column is plain
 * text, though: a row some other code wrote unparseable there comes out as that text, rather
 * than cutting the export short halfway.
 */
function metaValue(meta: string | null): unknown {
  if (meta === null) return null
  try {
    return JSON.parse(meta)
  } catch {
    return meta
  }
}
