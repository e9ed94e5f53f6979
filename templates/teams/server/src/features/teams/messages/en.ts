// The teams layer's English messages, merged with base's (kernel/i18n/translate.ts).
export const en = {
  teams: {
    invitationRole: 'The role must be admin or member.',
    memberRole: 'The role must be one of {{roles}}.',
    personalHasNoMembers: 'A personal team has no other members: create a team to invite people.',
    invitationSent: 'If that address can join the team, an invitation is on its way to it.',
    onlyOwner: 'The only owner of a team with other members cannot be deleted: transfer the team to another member first.',
    lastOwner: 'A team must keep at least one owner: make another member an owner first.',
    chooseAnother: 'Choose another member of the team.',
    invitationInvalid: 'This invitation is invalid or has expired.',
    personalUndeletable: 'A personal team cannot be deleted.',
  },
  teamMail: {
    subject: 'You are invited to join a team',
    bodyAdmin: 'An invitation to join a team on {{site}} as an admin is waiting for you. The link expires in {{days}} days.',
    bodyMember: 'An invitation to join a team on {{site}} as a member is waiting for you. The link expires in {{days}} days.',
    accept: 'Follow the link and sign in, or create an account, with this e-mail address: the page then shows which team it is and who invited you, and lets you accept.',
    ignore: 'If you did not expect this invitation, ignore this message: nothing changes.',
    action: 'Accept invitation',
  },
}
