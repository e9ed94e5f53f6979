import type { Translation } from '../../../kernel/index.js'
import type { en } from './en.js'

// The API-key layer's German messages: the type makes them as complete as en.ts.
export const de: Translation<typeof en> = {
  fields: {
    scopes: 'Berechtigungen',
  },
  apiKeys: {
    scopesList: 'Die Berechtigungen müssen eine Liste aus read, write und admin sein.',
    scopeUnknown: 'Eine Berechtigung ist read, write oder admin.',
    scopesRequired: 'Wähle mindestens eine Berechtigung.',
    adminOnly: 'Nur Administratoren können einem Schlüssel die Berechtigung admin geben.',
    expiresIn: 'Die Gültigkeit muss eine Dauer wie 900, 15m oder 30d sein (höchstens 3650d), oder keine.',
  },
  apiKeyNotices: {
    created: {
      subject: 'Für dein Konto wurde ein API-Schlüssel erstellt',
      summary: 'Für dein Konto wurde ein API-Schlüssel erstellt: Wer ihn hat, kann die API in deinem Namen nutzen, im Rahmen seiner Berechtigungen. Wenn du das nicht warst, widerrufe ihn unter Einstellungen → API-Schlüssel und ändere dein Passwort.',
    },
  },
}
