import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Transporter } from 'nodemailer'
import type { Logger } from '../logger.js'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

export interface Mailer {
  readonly transport: 'smtp' | 'file'
  send(message: MailMessage): Promise<void>
  close(): void
}

/**
 * SMTP when SMTP_URL is set. Otherwise each message is written to `mailDir` as an .eml file and
 * its text to the log, so links can be followed in development without a mail server.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; mailDir: string; logger: Logger }): Mailer {
  const { smtpUrl, from, mailDir, logger } = options
  if (smtpUrl) {
    // nodemailer is loaded with the first message: a process that never mails does not carry it.
    let transporter: Promise<Transporter> | undefined
    return {
      transport: 'smtp',
      async send(message) {
        transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl))
        await (await transporter).sendMail({ from, ...message })
      },
      close: () => void transporter?.then((open) => open.close()),
    }
  }
  return {
    transport: 'file',
    async send(message) {
      await fs.mkdir(mailDir, { recursive: true })
      const stamp = new Date().toISOString().replace(/[:.]/g, '-')
      const name = `${stamp}-${randomBytes(3).toString('hex')}`
      const file = path.join(mailDir, `${name}.eml`)
      // Whoever watches the folder (a mail viewer, a test, a script waiting for a link) sees a
      // message whole or not at all: it is written under a name no .eml reader picks up, in the
      // same folder so the rename is atomic, and only then given its name.
      const partial = path.join(mailDir, `.${name}.partial`)
      await fs.writeFile(partial, toEml(from, message), 'utf8')
      await fs.rename(partial, file)
      logger.info({ mail: { to: message.to, subject: message.subject, file, text: message.text } }, `Mail saved to ${file}`)
    },
    close: () => {},
  }
}

/** RFC 2047 for header values that are not plain ASCII. */
const headerValue = (value: string) =>
  /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`

/**
 * The message as a file a person (or a test) can read as is: 8bit parts, so every link sits
 * on one line exactly as sent, where quoted-printable would fold it and write `=` as `=3D`.
 */
export function toEml(from: string, message: MailMessage, date = new Date()): string {
  const boundary = `----part_${randomBytes(12).toString('hex')}`
  const part = (type: string, body: string) =>
    [`--${boundary}`, `Content-Type: ${type}; charset=utf-8`, 'Content-Transfer-Encoding: 8bit', '', body.replace(/\r?\n/g, '\n')]
  return [
    `From: ${headerValue(from)}`,
    `To: ${headerValue(message.to)}`,
    `Subject: ${headerValue(message.subject)}`,
    `Date: ${date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${randomBytes(16).toString('hex')}@${from.split('@').pop()?.replace(/[^\w.-]/g, '') || 'localhost'}>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    ...part('text/plain', message.text),
    ...part('text/html', message.html),
    `--${boundary}--`,
    '',
  ].join('\n')
}
