// What the oauth slice's google provider reads of this one: its settings, typed by its own object.
export { config as googleConfig } from './config.js'
