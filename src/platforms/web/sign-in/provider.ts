import type { SignedIn } from '../asker.js';
import { isLoopback } from '../loopback.js';
import type { Membership } from './membership.js';

/** What a sign-in keeps between sending the browser away and its return: sealed in a short-lived cookie. */
export interface Pending {
  state: string;
  /** OpenID Connect's nonce (Slack); the ID token must carry it. */
  nonce?: string | undefined;
  /** PKCE's code verifier: the token request must prove it. */
  verifier: string;
  /** Where the browser goes once signed in: one of RETURN_PATHS (else the chat). */
  returnTo?: string | undefined;
}

/**
 * A place people sign in with (Slack or Discord). The protocol work (state, nonce, PKCE, the token
 * request, ID token checks) is openid-client's: a maintained, OpenID-certified relying party built on
 * oauth4webapi, so none of it is written by hand here.
 */
export interface SignInProvider {
  readonly id: 'slack' | 'discord';
  /** The button's words: "Sign in with Slack". */
  readonly label: string;
  /** Where to send the browser, and what to keep until it returns. */
  begin(): Promise<{ url: URL; pending: Pending }>;
  /**
   * The person `callback` (the URL the browser came back to) proves, checked against `pending` and against
   * membership of the deployment's workspace or server, with the provider's token kept for re-checks
   * (`grant`); throws when it proves nothing, and an OutsideError for a person from elsewhere.
   */
  finish(callback: URL, pending: Pending): Promise<Proven>;
  /** Whether `user` still belongs to the workspace or server (`grant` is what `finish` returned). */
  recheck(user: SignedIn, grant: string | undefined): Promise<Membership>;
}

/** A finished sign-in: the person, and the provider's token for re-checking them (when one is needed). */
export interface Proven {
  user: SignedIn;
  grant?: string | undefined;
}

/** Plain HTTP to the sign-in service is allowed only to this machine (the tests' fakes), never beyond. */
export function insecureAllowed(url: string): boolean {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && isLoopback(parsed.hostname);
}
