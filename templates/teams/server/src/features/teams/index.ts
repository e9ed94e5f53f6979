import type { AppFeature } from '../../context.js'

/** Teams: a personal team per user, shared teams with roles, invitations by mail. */
export const feature: AppFeature = {
  name: 'teams',
}
