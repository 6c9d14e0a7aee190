import type { ChatInputCommandInteraction } from 'discord.js';
import type { Assistant } from '../../core/assistant.js';
import { discordPrincipal } from '../../core/governance/principal.js';
import { formatMemoryReport } from '../shared/format-step.js';
import { interactionAsker } from './asker.js';
import { MEMORY_OPTIONS } from './commands.js';

/** An option's raw value, whatever its type: Discord sends integers, booleans and user ids as their types. */
function raw(interaction: ChatInputCommandInteraction, name: string): string | number | boolean | undefined {
  return interaction.options.get(name)?.value;
}

/**
 * The words `Assistant.memoryCommand` takes for `/memory action:…` (`notes`, `remember <text>`,
 * `forget <n>`, `forget-me [--everywhere] [principal]`), or a usage line when an option it needs is missing;
 * undefined for plain `/memory`.
 */
export function memoryArgs(
  interaction: ChatInputCommandInteraction,
): { args: string } | { usage: string } | undefined {
  const action = raw(interaction, MEMORY_OPTIONS.action);
  if (action === undefined || action === '') return undefined;
  switch (action) {
    case 'remember': {
      const text = String(raw(interaction, MEMORY_OPTIONS.text) ?? '').trim();
      if (!text)
        return { usage: 'Usage: /memory action:remember text:<the note> ("me: …" for a note about you).' };
      const flag = raw(interaction, MEMORY_OPTIONS.everywhere);
      return { args: `remember ${flag === true || flag === 'true' ? '--everywhere ' : ''}${text}` };
    }
    case 'forget':
    case 'promote':
    case 'demote': {
      const n = String(raw(interaction, MEMORY_OPTIONS.number) ?? '').trim();
      if (!/^\d+$/.test(n))
        return {
          usage: `Usage: /memory action:${action} number:<n> (the number /memory action:notes shows).`,
        };
      return { args: `${action} ${n}` };
    }
    case 'forget-me': {
      const flag = raw(interaction, MEMORY_OPTIONS.everywhere);
      const everywhere = flag === true || flag === 'true';
      const person = raw(interaction, MEMORY_OPTIONS.person);
      const parts = ['forget-me'];
      if (everywhere) parts.push('--everywhere');
      if (typeof person === 'string' && /^\d+$/.test(person)) parts.push(discordPrincipal(person));
      return { args: parts.join(' ') };
    }
    default:
      return { args: String(action) };
  }
}

/** The reply to `/memory`: the memory report when bare, else what the memory command answers. */
export async function memoryReply(
  interaction: ChatInputCommandInteraction,
  assistant: Assistant,
  key: string,
  settingsKey: string,
): Promise<string> {
  const wanted = memoryArgs(interaction);
  if (wanted === undefined) return formatMemoryReport(await assistant.memory(key, settingsKey));
  if ('usage' in wanted) return wanted.usage;
  const run = assistant.memoryCommand(interactionAsker(interaction), key, wanted.args);
  return run ? await run : 'Notes and forgetting are not available here: the bot keeps no archive.';
}
