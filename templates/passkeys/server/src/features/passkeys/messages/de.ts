import type { Translation } from '../../../kernel/index.js'
import type { en } from './en.js'

// The passkeys layer's German messages: the type makes them as complete as en.ts.
export const de: Translation<typeof en> = {
  passkeys: {
    signInFailed: 'Mit diesem Passkey konnten wir dich nicht anmelden. Bitte versuche es erneut.',
    noPasskey: 'Dein Konto hat keinen Passkey: Bestätige auf andere Weise.',
    notConfirmed: 'Mit diesem Passkey konnten wir nicht bestätigen, dass du es bist. Bitte versuche es erneut.',
    lastWayIn: 'Dieser Passkey ist die einzige Möglichkeit, dich bei deinem Konto anzumelden: Lege ein Passwort fest (mit „Passwort vergessen?“) oder füge zuerst einen weiteren Passkey hinzu.',
    notVerified: 'Der Passkey konnte nicht überprüft werden. Bitte versuche es erneut.',
    requestExpired: 'Diese Passkey-Anfrage ist abgelaufen oder wurde bereits verwendet. Bitte beginne von vorn.',
    alreadyRegistered: 'Dieser Passkey ist bereits registriert.',
    responseMalformed: 'Die Antwort des Passkeys fehlt oder ist fehlerhaft.',
  },
  passkeyNotices: {
    added: {
      subject: 'Deinem Konto wurde ein Passkey hinzugefügt',
      summary: 'Deinem Konto wurde ein Passkey hinzugefügt: Damit kann man sich jetzt ohne dein Passwort anmelden.',
    },
  },
}
