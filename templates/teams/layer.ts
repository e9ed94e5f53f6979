// The teams layer's row of the options table (src/options.ts assembles it). Read by the
// generator only: never copied into an app.
import { defineOption } from '../../src/option-row.js'

declare module '../../src/option-row.js' {
  interface LayerAnswers {
    teams: boolean
  }
}

export default defineOption({
  key: 'teams',
  flag: '--teams',
  description: 'teams: a personal team per user, shared teams with roles and invitations',
  negated: 'no teams: accounts stand alone',
  prompt: 'Add teams (shared workspaces with roles and invitations)?',
  default: () => false,
  contractDefault: 'no',
  layer: 'teams',
  matrix: { tag: 'teams' },
  readme:
    'the teams layer (`templates/teams/`): a personal team per user, shared teams with owner, admin and member roles, invitations by mail, a team switcher, `/teams/:id` to manage members, `req.team` and `requireTeamRole()` to scope your own routes',
})
