// The passwordless layer's English messages, merged with base's (kernel/i18n/translate.ts).
export const en = {
  fields: {
    code: 'code',
    email_code: 'code',
  },
  passwordless: {
    sent: 'Check your inbox: if this address can sign in here, a link and a code are on their way. Both work for 10 minutes.',
    codeDigits: 'The code must be 6 digits.',
    codeInvalid: 'The code is wrong or has expired. Ask for a new one if it keeps failing.',
    requestExpired: 'This sign-in request has expired. Please ask for a new link.',
    approved: 'Done: the device that asked is signing in now. You can close this page.',
    confirmSent: 'A code is on its way to your e-mail address.',
  },
  passwordlessMail: {
    subject: 'Your sign-in link',
    subjectSignUp: 'Finish signing up',
    body: 'Someone asked to sign in to your account with this address. Use the button below on the device that asked, or type the code on the page that asked. Both work once, for {{minutes}} minutes.',
    bodySignUp: 'Someone asked to sign up with this address. Use the button below on the device that asked, or type the code on the page that asked, and the account is made. Both work once, for {{minutes}} minutes.',
    code: 'Your code: {{code}}',
    ignore: 'If you did not ask for it, ignore this mail: nobody can sign in without it.',
    action: 'Sign in',
    actionSignUp: 'Sign up',
    confirmSubject: 'Your confirmation code',
    confirmBody: 'Type this code where the app asked you to confirm it is you. It works once, for {{minutes}} minutes.',
    confirmIgnore: 'If you did not ask for it, someone may be using your account: sign out everywhere from its sessions page.',
  },
}
