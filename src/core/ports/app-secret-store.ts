/** Secrets the bot makes for itself and keeps, so every start and every replica uses the same ones. */
export interface AppSecretStore {
  /**
   * The secret kept under `name`; the first caller's `create()` is stored when there is none (atomic: replicas
   * starting together all get the one that was stored).
   */
  appSecret(name: string, create: () => string): Promise<string>;
}
