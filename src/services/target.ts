/** The service and account a front-end runs on (the app layer chooses it: app/target.ts, app/connection.ts). */
export interface Target {
  /** Stable across starts: the sandbox's database, or the base URL and a fingerprint of the key (one
   *  id per account: jobs, notes and settings are kept by it). */
  readonly id: string;
  /** 'sandbox': the embedded service; 'remote': a configured one. */
  readonly kind: 'sandbox' | 'remote';
  /** SANDBOX, or the host. */
  readonly label: string;
  readonly baseUrl: string;
}
