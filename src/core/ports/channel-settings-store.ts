/** The saved settings of one settings key (a channel or DM; threads use their parent's): name → value. */
export type StoredSettings = Readonly<Record<string, string>>;

/** One saved setting with its key, as `npm run migrate` copies it. */
export interface StoredSetting {
  key: string;
  name: string;
  value: string;
  /** Milliseconds since the epoch. */
  updatedAt: number;
}

/**
 * Where per-channel settings persist. The store keeps names and values as given; the core validates them
 * before saving and again when it applies them. Every method is atomic on its own.
 */
export interface ChannelSettingsStore {
  /** The key's saved settings; none for a key never set. */
  getSettings(key: string): Promise<StoredSettings>;
  /** Saves the given settings of the key at once, replacing their earlier values and leaving the others. */
  setSettings(key: string, values: StoredSettings): Promise<void>;
  /** Forgets the named settings of the key, or all of them when no names are given. */
  resetSettings(key: string, names?: readonly string[]): Promise<void>;
}
