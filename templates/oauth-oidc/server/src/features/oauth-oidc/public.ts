// What the oauth slice's oidc provider reads of this one: its settings, typed by its own object.
export { config as oidcConfig } from './config.js'
