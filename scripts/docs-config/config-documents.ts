import { SETTING_GROUPS } from '../../src/config/schema.js';
import { renderEnvExample } from './render-env-example.js';
import { renderConfigurationMd } from './render-markdown.js';
import { settingsReference } from './settings-reference.js';

/** The files written from the config schema, by path from the repository's root. */
export function configDocuments(): Record<string, string> {
  const reference = settingsReference(SETTING_GROUPS);
  return {
    'docs/configuration.md': renderConfigurationMd(reference),
    '.env.example': renderEnvExample(reference),
  };
}
