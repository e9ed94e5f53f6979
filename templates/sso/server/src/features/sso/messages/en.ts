// The SSO layer's English messages, merged with base's (kernel/i18n/translate.ts).
export const en = {
  sso: {
    domainInvalid: 'Enter a domain name such as example.com.',
    domainTaken: 'Another team has verified this domain.',
    domainClaimed: 'This team has added this domain already.',
    domainUnknown: 'This team has not added this domain.',
    domainUnproved: 'The TXT record was not found yet: publish it, wait for DNS to update, and try again.',
    typeUnsupported: 'The connection type must be saml or oidc.',
    metadataInvalid: "Paste the IdP's SAML metadata: one EntityDescriptor with an IDPSSODescriptor, a sign-in URL for the HTTP-Redirect binding (https) and a signing certificate.",
    issuerInvalid: 'Enter the issuer URL of your OpenID provider, starting with https://.',
    issuerUnreachable: 'No OpenID provider answered at this issuer with this client: check the issuer URL (its /.well-known/openid-configuration must name this issuer).',
    clientIdRequired: 'Enter the client ID your OpenID provider gave the app.',
    clientSecretRequired: 'Enter the client secret your OpenID provider gave the app.',
    defaultRole: 'The default role must be member or admin.',
    noConnection: 'No single sign-on is set up for this address: sign in with your password instead.',
    required: "Your organisation signs you in through its single sign-on: use \"Continue with SSO\" on the login page.",
    personalTeam: 'A personal team has no single sign-on: create a team for your organisation.',
  },
}
