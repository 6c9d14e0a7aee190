import { isIP } from 'node:net';
import { z } from 'zod';
import { entriesOf, httpUrl } from './fields.js';

/** Comma-separated platform IDs (channels, roles). */
export const idList = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const ids = entriesOf(text);
    for (const id of ids) {
      if (!/^[A-Za-z0-9_-]+$/.test(id)) {
        ctx.addIssue({ code: 'custom', message: `"${id}" is not a platform ID; use comma-separated IDs` });
      }
    }
    return ids;
  });

/** Principals as `platform:id` (`slack:U…`, `slack:T…:U…`, `discord:…`, `web:…`, `console:…`); a bare ID means Slack or Discord. */
export const principalList = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const entries = entriesOf(text);
    for (const entry of entries) {
      if (entry.startsWith('addr:')) {
        if (!isAddressOrNetwork(entry.slice('addr:'.length))) {
          ctx.addIssue({
            code: 'custom',
            message: `"${entry}" is not addr:<IP address> or addr:<IP>/<prefix>`,
          });
        }
        continue;
      }
      if (!/^((slack|discord|web|console):)?[A-Za-z0-9_-]+(:[A-Za-z0-9_-]+)?$/.test(entry)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not a person; use comma-separated platform:id entries (slack:U…, discord:…, web:…)`,
        });
      }
    }
    return entries;
  });

/** `203.0.113.7`, `203.0.113.0/24`, `2001:db8::/48`. */
function isAddressOrNetwork(text: string): boolean {
  const [address = '', prefix, extra] = text.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** `title|message;title|message`: at most 4 prompts, each with a title and a message. */
export const suggestedPrompts = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const entries = entriesOf(text, ';');
    if (entries.length > 4) {
      ctx.addIssue({ code: 'custom', message: `at most 4 prompts (got ${entries.length})` });
      return z.NEVER;
    }
    const prompts: { title: string; message: string }[] = [];
    for (const entry of entries) {
      const at = entry.indexOf('|');
      const title = at < 0 ? '' : entry.slice(0, at).trim();
      const message = at < 0 ? '' : entry.slice(at + 1).trim();
      if (!title || !message) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not title|message; separate prompts with ;` });
        return z.NEVER;
      }
      prompts.push({ title, message });
    }
    return prompts;
  });

/** `model@base_url` entries: further endpoints tried in order when the one before is unavailable. */
export const fallbackList = z
  .string()
  .default('')
  .transform((text, ctx) => {
    const entries = entriesOf(text);
    const endpoints: { model: string; baseURL: string }[] = [];
    for (const entry of entries) {
      const at = entry.indexOf('@');
      const model = at < 0 ? '' : entry.slice(0, at).trim();
      const baseURL = at < 0 ? '' : entry.slice(at + 1).trim();
      if (!model || !httpUrl().safeParse(baseURL).success) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not model@base_url (e.g. qwen2.5@http://localhost:11434/v1)`,
        });
        return z.NEVER;
      }
      endpoints.push({ model, baseURL });
    }
    return endpoints;
  });
