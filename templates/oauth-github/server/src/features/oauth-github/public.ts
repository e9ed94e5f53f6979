// What the oauth slice's github provider reads of this one: its settings, typed by its own object.
export { config as githubConfig } from './config.js'
