import type { Translation } from '../../../kernel/index.js'
import type { en } from './en.js'

// The two-factor layer's German messages: the type makes them as complete as en.ts.
export const de: Translation<typeof en> = {
  fields: {
    code: 'Code',
    recovery_code: 'Wiederherstellungscode',
  },
  twoFactor: {
    codeDigits: 'Der Code muss aus 6 Ziffern bestehen.',
    recoveryInvalid: 'Der Wiederherstellungscode ist ungültig.',
    codeInvalid: 'Der Code ist ungültig.',
    codeUsed: 'Dieser Code wurde bereits verwendet. Warte auf den nächsten.',
    recoveryUsed: 'Der Wiederherstellungscode ist ungültig oder wurde bereits verwendet.',
    expired: 'Dieser Anmeldeversuch ist abgelaufen. Bitte melde dich erneut an.',
    locked: 'Zu viele falsche Codes für dieses Konto. Bitte versuche es in {{seconds}} Sekunden erneut.',
    notEnabled: 'Die Zwei-Faktor-Authentifizierung ist nicht aktiviert.',
    setUpFirst: 'Beginne zuerst mit der Einrichtung der Zwei-Faktor-Authentifizierung.',
  },
  twoFactorNotices: {
    enabled: {
      subject: 'Die Zwei-Faktor-Authentifizierung wurde aktiviert',
      summary: 'Die Zwei-Faktor-Authentifizierung wurde für dein Konto aktiviert, und deine anderen Sitzungen wurden abgemeldet.',
    },
    disabled: {
      subject: 'Die Zwei-Faktor-Authentifizierung wurde deaktiviert',
      summary: 'Die Zwei-Faktor-Authentifizierung wurde für dein Konto deaktiviert: Jetzt genügt ein Passwort zur Anmeldung. Deine anderen Sitzungen wurden abgemeldet.',
    },
    recoveryCodesRegenerated: {
      subject: 'Neue Wiederherstellungscodes wurden erstellt',
      summary: 'Für dein Konto wurden neue Wiederherstellungscodes erstellt; die alten funktionieren nicht mehr. Deine anderen Sitzungen wurden abgemeldet.',
    },
    lockedOut: {
      subject: 'Anmeldungen bei deinem Konto sind pausiert',
      summary: 'Für dein Konto wurden zu viele falsche Zwei-Faktor-Codes eingegeben, deshalb ist der zweite Anmeldeschritt 15 Minuten lang gesperrt. Möglicherweise kennt jemand dein Passwort: Setze es zurück, damit wird auch die Sperre aufgehoben.',
    },
  },
}
