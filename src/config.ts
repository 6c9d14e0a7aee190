// The configuration: one zod schema over the environment (src/config/schema*.ts), parsed once at start-up.
export { parseConfig } from './config/parse.js';
export { CONFIG_KEYS, type Config, MIN_WEB_TOKEN_CHARS, SECRET_KEYS, type WebAuth } from './config/schema.js';
