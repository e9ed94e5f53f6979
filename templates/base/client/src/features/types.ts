import type { Component } from 'vue'
import type { LocationQuery, RouteLocationRaw, RouteRecordRaw } from 'vue-router'
import type { Catalogue, LazyLocale } from '@/lib/i18n'

/** What a feature adds to the login page. */
export interface LoginExtension {
  /**
   * Another way to sign in, shown under the form. It gets the form's "Remember me" as the prop
   * `remember` and finishes a sign-in itself.
   */
  component?: Component<{ remember: boolean }>
  /** Tokens after `username` in the e-mail field's `autocomplete` (the browser's autofill hints). */
  autocomplete?: string
}

/** What a feature adds to the register page. */
export interface RegisterExtension {
  /** Another way to sign up, shown under the form; it finishes the sign-up itself. */
  component?: Component
}

/**
 * A challenge a person answers when the API asks for one (a CAPTCHA): the login, register and
 * forgot-password pages show it once a refusal names `field` among its errors, then send the form
 * again with the answer in that field.
 */
export interface ChallengeExtension {
  /** The request field the API reads the answer from, and names in its 422 when one is missing. */
  field: string
  /** Shown under the form while asked; emits `solved` with the answer once it has one. */
  component: Component
}

/**
 * A way to confirm it's you, offered by the "Confirm it's you" dialog that a sensitive request
 * refused for want of a fresh confirmation opens (the password is base's own).
 */
export interface ConfirmExtension {
  /**
   * The method, as `GET /api/account/confirm` lists the account's: a name, which also stands for
   * its family of `<name>:<which>` methods, if it has one.
   */
  method: string
  /**
   * Shown in the dialog when the account has the method, with the matching `methods` as a prop
   * (and the dialog's class on its one root element). It confirms through the API itself and then
   * emits `confirmed`.
   */
  component: Component<{ methods: string[] }>
  /**
   * For a method that leaves the page and comes back to it with its outcome in the query (a
   * provider's round trip): what to tell the user, and the query keys to drop so it is told once.
   */
  returned?(query: LocationQuery): { message: string; kind: 'success' | 'error'; keys: string[] } | undefined
}

/**
 * A layer's texts (its `locales/<locale>.json`), merged into base's: English as the catalogue
 * itself, since it ships in the first load; every other language as its dynamic import, loaded
 * when someone chooses it.
 */
export type FeatureMessages = { en: Catalogue } & { [L in LazyLocale]: () => Promise<{ default: Catalogue }> }

/**
 * What a feature layer adds to the client: it ships the folder `features/<layer>/`, whose
 * `index.ts` exports `feature: ClientFeature`, and base reads the list in `features/index.ts`,
 * never a feature by name.
 */
export interface ClientFeature {
  /** Top-level pages (a second sign-in step, say). */
  routes?: RouteRecordRaw[]
  /**
   * Shown in the top navigation while someone is signed in, between the app's links and the
   * user's name, each rendered without props (a switcher, a menu of the feature's own).
   */
  nav?: Component[]
  /**
   * Pages under /settings, each in the settings nav under its `meta.title` (a catalogue key, as
   * every route's title is), before "Delete account".
   */
  settings?: (RouteRecordRaw & { meta: { title: string } })[]
  /**
   * A login answer the feature takes over: where to go instead of signing in (a page
   * asking for a second factor), or undefined to let the sign-in finish.
   */
  afterLogin?(data: unknown, redirect: LocationQuery[string] | undefined): RouteLocationRaw | undefined
  login?: LoginExtension
  register?: RegisterExtension
  confirm?: ConfirmExtension
  challenge?: ChallengeExtension
  messages?: FeatureMessages
}
