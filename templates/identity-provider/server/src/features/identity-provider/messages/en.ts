// The OAuth provider layer's English messages, merged with base's (kernel/i18n/translate.ts).
export const en = {
  fields: {
    redirect_uris: 'redirect URIs',
    grant_types: 'grant types',
    scopes: 'scopes',
    type: 'type',
  },
  oauthProvider: {
    requestGone: 'This sign-in request has ended or was started in another browser. Start again from the app that sent you.',
    redirectUri: 'A redirect URI is an https address, an http address on localhost, or an app scheme such as com.example.app:/callback, without a fragment.',
    list: 'This must be a list.',
    tooManyRedirectUris: 'At most 10 redirect URIs.',
    grantType: 'A grant type is authorization_code, refresh_token, client_credentials or urn:ietf:params:oauth:grant-type:device_code.',
    grantTypesRequired: 'Choose at least one grant type.',
    scope: 'A scope is openid, offline_access, email, profile, read or write.',
    scopesRequired: 'Choose at least one scope.',
    type: 'The type is public or confidential.',
    redirectUrisRequired: 'The authorization code grant needs at least one redirect URI.',
    refreshNeedsCode: 'Refresh tokens come with the authorization code or the device code grant.',
    credentialsNeedSecret: 'Only a confidential client can use client credentials.',
    publicHasNoSecret: 'A public client has no secret.',
    device: {
      confirmTitle: 'Sign in on your device?',
      confirmAsks: '{{client}} asks to sign in with your account.',
      confirmCode: 'Check that your device shows this code:',
      confirmWarning: 'If you did not start this, or the code differs, turn it down: someone else may be trying to sign in as you.',
      continue: 'Continue',
      abort: 'Turn down',
      doneTitle: 'You are signed in on your device',
      done: '{{client}} is signed in. You can close this page and go back to your device.',
    },
  },
  oauthProviderNotices: {
    authorized: {
      subject: 'An app was allowed to use your account',
      summary: 'You allowed an app to use your account, or more of it. If this was not you, remove it under Settings → Connected apps and change your password.',
    },
  },
}
