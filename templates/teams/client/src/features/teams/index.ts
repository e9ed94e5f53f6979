import type { ClientFeature } from '../types'
import TeamSwitcher from '@/features/teams/components/TeamSwitcher.vue'
import AcceptInvitationPage from '@/features/teams/pages/AcceptInvitationPage.vue'
import CreateTeamPage from '@/features/teams/pages/CreateTeamPage.vue'
import TeamPage from '@/features/teams/pages/TeamPage.vue'
import './teams.css'

export const feature: ClientFeature = {
  routes: [
    { path: '/teams/new', name: 'team-new', component: CreateTeamPage, meta: { auth: true, title: 'Create a team' } },
    { path: '/teams/:id', name: 'team', component: TeamPage, meta: { auth: true, title: 'Team' } },
    // Open to everyone: a signed-out visitor is sent through login or registration and back.
    { path: '/invitations/accept', name: 'invitation-accept', component: AcceptInvitationPage, meta: { title: 'Join a team' } },
  ],
  nav: [TeamSwitcher],
}
