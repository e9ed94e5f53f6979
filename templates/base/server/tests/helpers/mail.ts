import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  to: string[]
  subject: string
  /** Decoded message source (quoted-printable undone). */
  body: string
}

export interface MailLink {
  token: string
  email: string
  url: string
}

/** A real SMTP server the app delivers to; tests read tokens from what it receives. */
export interface MailServer {
  url: string
  received: ReceivedMail[]
  /** Resolves with the first message (already received or arriving) that matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
  /** Like waitFor but only counts messages received after this call. */
  next(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>
  close(): Promise<void>
}

export async function startMailServer(port = 0): Promise<MailServer> {
  const received: ReceivedMail[] = []
  const listeners = new Set<() => void>()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const source = decodeQuotedPrintable(raw)
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          // From the raw headers: decoding the whole source would take a subject's closing `?=` for a soft line break.
          subject: decodeHeader(/^Subject: (.*(?:\r?\n[ \t].*)*)$/m.exec(raw)?.[1]?.trim() ?? ''),
          body: source,
        })
        for (const listener of listeners) listener()
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.server.address() as AddressInfo

  const waitFrom = (start: number, match: (mail: ReceivedMail) => boolean, timeoutMs: number) =>
    new Promise<ReceivedMail>((resolve, reject) => {
      const check = () => {
        const found = received.slice(start).find(match)
        if (!found) return false
        listeners.delete(check)
        clearTimeout(timer)
        resolve(found)
        return true
      }
      const timer = setTimeout(() => {
        listeners.delete(check)
        reject(new Error(`No matching mail within ${timeoutMs} ms (received: ${received.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none'})`))
      }, timeoutMs)
      listeners.add(check)
      check()
    })

  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    waitFor: (match, timeoutMs = 10_000) => waitFrom(0, match, timeoutMs),
    next: (match, timeoutMs = 10_000) => waitFrom(received.length, match, timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export const mailTo = (email: string) => (mail: ReceivedMail) => mail.to.includes(email.toLowerCase())

/** The verify or reset link of a message, as the client page would receive it. */
export function linkIn(mail: ReceivedMail, page: 'verify-email' | 'reset-password'): MailLink {
  const match = new RegExp(`(https?://[^\\s"<]+/${page}\\?token=([A-Za-z0-9_-]+)&(?:amp;)?email=([^\\s"<&]+))`).exec(mail.body)
  if (!match) throw new Error(`No ${page} link in:\n${mail.body}`)
  return { url: match[1]!.replace(/&amp;/g, '&'), token: match[2]!, email: decodeURIComponent(match[3]!) }
}

const quotedWord = (text: string) =>
  Buffer.from(text.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8')

/** RFC 2047 encoded words (`=?UTF-8?Q?Best=C3=A4tige?=`), as nodemailer writes a subject that is not plain ASCII. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : quotedWord(text.replace(/_/g, ' ')),
    )
}

function decodeQuotedPrintable(source: string): string {
  const unfolded = source.replace(/=\r?\n/g, '')
  return Buffer.from(
    unfolded.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8')
}

/** The token of a `confirm-email` link (an e-mail change), as the client page would receive it. */
export function confirmLinkIn(mail: ReceivedMail): { url: string; token: string } {
  const match = /(https?:\/\/[^\s"<]+\/confirm-email\?token=([A-Za-z0-9_-]+))/.exec(mail.body)
  if (!match) throw new Error(`No confirm-email link in:\n${mail.body}`)
  return { url: match[1]!, token: match[2]! }
}
