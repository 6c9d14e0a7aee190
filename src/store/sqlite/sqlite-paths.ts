/** The path that keeps a SQLite database in memory only (tests, throwaway runs). */
export const SQLITE_MEMORY_PATH = ':memory:';
