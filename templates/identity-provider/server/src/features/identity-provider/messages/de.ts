import type { Translation } from '../../../kernel/index.js'
import type { en } from './en.js'

// The OAuth provider layer's German messages: the type makes them as complete as en.ts.
export const de: Translation<typeof en> = {
  fields: {
    redirect_uris: 'Weiterleitungsadressen',
    grant_types: 'Grant-Typen',
    scopes: 'Berechtigungen',
    type: 'Typ',
  },
  oauthProvider: {
    requestGone: 'Diese Anmeldeanfrage ist abgelaufen oder wurde in einem anderen Browser begonnen. Beginne erneut in der App, die dich geschickt hat.',
    redirectUri: 'Eine Weiterleitungsadresse ist eine https-Adresse, eine http-Adresse auf localhost oder ein App-Schema wie com.example.app:/callback, ohne Fragment.',
    list: 'Dies muss eine Liste sein.',
    tooManyRedirectUris: 'Höchstens 10 Weiterleitungsadressen.',
    grantType: 'Ein Grant-Typ ist authorization_code, refresh_token, client_credentials oder urn:ietf:params:oauth:grant-type:device_code.',
    grantTypesRequired: 'Wähle mindestens einen Grant-Typ.',
    scope: 'Eine Berechtigung ist openid, offline_access, email, profile, read oder write.',
    scopesRequired: 'Wähle mindestens eine Berechtigung.',
    type: 'Der Typ ist public oder confidential.',
    redirectUrisRequired: 'Der Authorization-Code-Grant braucht mindestens eine Weiterleitungsadresse.',
    refreshNeedsCode: 'Refresh-Tokens gibt es nur mit dem Authorization-Code- oder dem Device-Code-Grant.',
    credentialsNeedSecret: 'Nur ein vertraulicher Client kann Client Credentials nutzen.',
    publicHasNoSecret: 'Ein öffentlicher Client hat kein Geheimnis.',
    device: {
      confirmTitle: 'Auf deinem Gerät anmelden?',
      confirmAsks: '{{client}} möchte sich mit deinem Konto anmelden.',
      confirmCode: 'Prüfe, ob dein Gerät diesen Code zeigt:',
      confirmWarning: 'Wenn du das nicht begonnen hast oder der Code abweicht, lehne ab: Jemand anderes versucht vielleicht, sich als du anzumelden.',
      continue: 'Weiter',
      abort: 'Ablehnen',
      doneTitle: 'Du bist auf deinem Gerät angemeldet',
      done: '{{client}} ist angemeldet. Du kannst diese Seite schließen und zu deinem Gerät zurückkehren.',
    },
  },
  oauthProviderNotices: {
    authorized: {
      subject: 'Eine App darf dein Konto nutzen',
      summary: 'Du hast einer App erlaubt, dein Konto (oder mehr davon) zu nutzen. Wenn du das nicht warst, entferne sie unter Einstellungen → Verbundene Apps und ändere dein Passwort.',
    },
  },
}
