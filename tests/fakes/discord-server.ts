import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type RESTPutAPIApplicationCommandsJSONBody,
} from 'discord.js';
import { type WebSocket, WebSocketServer } from 'ws';
import { componentsV2Errors } from './discord-components-v2.js';
import {
  type CommandPlace,
  INSTALL_RULES,
  installErrors,
  placeFields,
  unusableIn,
} from './discord-installs.js';

// biome-ignore lint/suspicious/noExplicitAny: Discord payloads are loose JSON; tests read the fields they need.
type Json = any;

/** A REST call the fake received, with the status it answered. */
export interface DiscordCall {
  method: string;
  /** Path after `/api/v10`, percent-decoded (e.g. `/webhooks/APP/TOKEN/messages/@original`). */
  path: string;
  /** The query string, e.g. `?before=1&limit=50` (empty when none). */
  query: string;
  body: Json;
  status: number;
  at: number;
}

/** A Discord user as payloads carry it. */
export interface FakeUser {
  id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  bot?: boolean;
}

/** A stored message; the bot's edits are applied in place. */
export type FakeMessage = { id: string; channel_id: string; content: string; author: FakeUser } & Json;

/** An answer the bot gave to an interaction (`POST /interactions/I/TOKEN/callback`). */
export interface InteractionCallback {
  /** The interaction's id and token. */
  id: string;
  token: string;
  /** 4 reply, 5 deferred reply, 6 deferred update (a button acknowledged silently), 7 update. */
  type: number;
  data: Json;
  /** Files uploaded with it (`files[n]` of a multipart body), in order. */
  files?: FakeUpload[];
}

/** A file a multipart request uploaded as one of its `files[n]` parts. */
export interface FakeUpload {
  /** The part's name, `files[n]`. */
  field: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A canned answer for matching calls. */
export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A file attached to a message, served by the fake's own CDN route, and how each download of it went. */
export interface FakeDownload {
  attachmentId: string;
  /** Bytes handed to the socket before the download ended. */
  bytesSent: number;
  /** The client hung up before the whole file was sent. */
  aborted: boolean;
  done: boolean;
}

/** Selects calls by method and path. */
export type CallMatcher = (call: { method: string; path: string }) => boolean;

/** A local Discord for the real discord.js client: REST under `/api/v10`, a JSON gateway at `/gateway`. */
export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;

const EPOCH = 1_420_070_400_000n;
let increment = 0n;
/** A real-looking snowflake: discord.js reads creation times out of ids. */
const idAt = (at: number) => (((BigInt(at) - EPOCH) << 22n) | (increment++ & 0xfffn)).toString();
const now = () => new Date().toISOString();
const ALL_PERMISSIONS = '2248473465835073';
/** Guild roles members can be given: `manager` grants Manage Server, `helper` grants nothing more. */
export const FAKE_ROLES = { manager: '111111111111111111', helper: '222222222222222222' } as const;
/** Everything above plus Manage Server (1 << 5). */
const MANAGER_PERMISSIONS = (BigInt(ALL_PERMISSIONS) | 32n).toString();
const MESSAGE_DEFAULTS = {
  edited_timestamp: null,
  tts: false,
  mention_everyone: false,
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: [],
  pinned: false,
  type: 0,
  flags: 0,
};
const threadMetadata = () => ({
  archived: false,
  locked: false,
  auto_archive_duration: 1440,
  archive_timestamp: now(),
});

/**
 * What real Discord refuses, each limit once, with where Discord says so. The fake and its tests
 * (tests/platforms/discord/fake-discord.test.ts) both read this table.
 */
export const DISCORD_LIMITS = {
  /**
   * "you must send an initial response within 3 seconds of receiving the event. If the 3 second deadline is
   * exceeded, the token will be invalidated." Later: 404, 10062 Unknown interaction.
   * https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction
   */
  initialResponseMs: 3_000,
  /**
   * "Interaction tokens are valid for 15 minutes". Webhook calls with an expired token: 401, 50027 Invalid
   * Webhook Token (discord-api-docs PR #2461 documents 50027; issue #6851 shows 401 past the 15 minutes).
   * https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages
   */
  interactionTokenMs: 15 * 60_000,
  /** Message `content`: "Message contents (up to 2000 characters)". https://discord.com/developers/docs/resources/message#create-message */
  messageContent: 2_000,
  /** A component's `custom_id`: "max 100 characters". https://discord.com/developers/docs/components/reference#button */
  customId: 100,
  /**
   * A modal (callback type 9): "title … Max 45 characters", 1-5 components; a text input's label "max 45
   * characters", `max_length` "max 4000". Only for an interaction that is not itself a modal submission
   * ("Not available for MODAL_SUBMIT and PING interactions").
   * https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type
   * https://discord.com/developers/docs/components/reference#text-input
   */
  modal: { title: 45, components: 5, label: 45, maxLength: 4_000 },
  /**
   * Uploads (https://discord.com/developers/docs/reference#uploading-files): a `multipart/form-data` body
   * whose JSON is the `payload_json` part; every file part uniquely named `files[n]` with a `filename` in its
   * Content-Disposition; "The default limit is 10 MiB" per file, else 413 40005. At most 10 files
   * ("files[n] … Contents of the file being sent. See Uploading Files",
   * https://discord.com/developers/docs/resources/message#create-message: "up to 10"). An interaction
   * response takes files too, for callback types 4 and 7
   * (https://discord.com/developers/docs/interactions/receiving-and-responding#create-interaction-response).
   */
  upload: { fileBytes: 10 * 1024 * 1024, files: 10, field: /^files\[\d+\]$/ },
  /** Thread `name`: "1-100 character channel name". https://discord.com/developers/docs/resources/channel#start-thread-from-message */
  threadName: 100,
  /** `auto_archive_duration`: "60, 1440, 4320, 10080". Same page. */
  autoArchiveDurations: [60, 1_440, 4_320, 10_080],
  /**
   * Application commands (https://discord.com/developers/docs/interactions/application-commands#application-command-object):
   * names 1-32 characters matching the regex below, lowercase for slash commands; descriptions 1-100;
   * at most 25 options and 25 choices; choice names 1-100, string choice values ≤ 100; min_length 0-6000,
   * max_length 1-6000; required options before optional ones; subcommands not mixed with other options;
   * at most 100 global slash commands; a command's names, descriptions and choices ≤ 4,000 characters.
   */
  command: {
    name: /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u,
    description: 100,
    options: 25,
    choices: 25,
    choiceName: 100,
    choiceValue: 100,
    stringLength: 6_000,
    perApplication: 100,
    totalChars: 4_000,
  },
} as const;

/** The JSON errors real Discord answers with: HTTP status, code, message. https://discord.com/developers/docs/topics/opcodes-and-status-codes#json */
export const DISCORD_ERRORS = {
  unknownInteraction: { status: 404, code: 10062, message: 'Unknown interaction' },
  alreadyAcknowledged: { status: 400, code: 40060, message: 'Interaction has already been acknowledged.' },
  invalidWebhookToken: { status: 401, code: 50027, message: 'Invalid Webhook Token' },
  emptyMessage: { status: 400, code: 50006, message: 'Cannot send an empty message' },
  invalidFormBody: { status: 400, code: 50035, message: 'Invalid Form Body' },
  invalidJson: { status: 400, code: 50109, message: 'The request body contains invalid JSON.' },
  entityTooLarge: { status: 413, code: 40005, message: 'Request entity too large' },
  /** https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes */
  unknownGuild: { status: 404, code: 10004, message: 'Unknown Guild' },
  unknownMember: { status: 404, code: 10007, message: 'Unknown Member' },
  unknownMessage: { status: 404, code: 10008, message: 'Unknown Message' },
  unknownEmoji: { status: 400, code: 10014, message: 'Unknown Emoji' },
  /** The bot's token on a channel it cannot see (a server it is not in, a group DM it is not in). */
  missingAccess: { status: 403, code: 50001, message: 'Missing Access' },
  /** See INSTALL_RULES.userInstallFollowUps. */
  maxFollowUps: {
    status: 400,
    code: 40094,
    message: 'This interaction has hit the maximum number of follow up messages',
  },
} as const;

type FieldErrors = Record<string, string>;

/** Discord's 50035 body: `errors` nests each field path, ending in `_errors: [{ code, message }]`. */
function invalidFormBody(fields: FieldErrors): [number, unknown] {
  const errors: Json = {};
  for (const [path, message] of Object.entries(fields)) {
    let node = errors;
    for (const part of path.split('.')) node = node[part] ??= {};
    node._errors = [{ code: 'BASE_TYPE_INVALID', message }];
  }
  const { status, code, message } = DISCORD_ERRORS.invalidFormBody;
  return [status, { message, code, errors }];
}

/** The answer for one of {@link DISCORD_ERRORS}. */
const refuse = (error: (typeof DISCORD_ERRORS)[keyof typeof DISCORD_ERRORS]): [number, unknown] => [
  error.status,
  { message: error.message, code: error.code },
];

/**
 * What a message body breaks: content over 2,000 characters, the component rules (custom ids, components v2)
 * for the `flags` it is sent with (an edit: the flags the message has).
 */
function messageErrors(body: Json, prefix = '', flags = Number(body?.flags ?? 0)): FieldErrors {
  const errors: FieldErrors = componentsV2Errors(body, flags, prefix);
  const { messageContent } = DISCORD_LIMITS;
  if (typeof body?.content === 'string' && body.content.length > messageContent)
    errors[`${prefix}content`] = `Must be ${messageContent} or fewer in length.`;
  return errors;
}

/** What a modal breaks (see DISCORD_LIMITS.modal). */
function modalErrors(data: Json): FieldErrors {
  const errors: FieldErrors = {};
  const { modal, customId } = DISCORD_LIMITS;
  if (typeof data?.custom_id !== 'string' || data.custom_id.length === 0 || data.custom_id.length > customId)
    errors['data.custom_id'] = `Must be between 1 and ${customId} in length.`;
  if (typeof data?.title !== 'string' || data.title.length === 0 || data.title.length > modal.title)
    errors['data.title'] = `Must be between 1 and ${modal.title} in length.`;
  const rows: Json[] = Array.isArray(data?.components) ? data.components : [];
  if (rows.length === 0 || rows.length > modal.components)
    errors['data.components'] = `Must be between 1 and ${modal.components} in length.`;
  rows.forEach((row, i) => {
    const inputs: Json[] = Array.isArray(row?.components) ? row.components : [];
    inputs.forEach((input, j) => {
      const at = `data.components.${i}.components.${j}`;
      if (typeof input?.label === 'string' && input.label.length > modal.label)
        errors[`${at}.label`] = `Must be ${modal.label} or fewer in length.`;
      if (typeof input?.max_length === 'number' && input.max_length > modal.maxLength)
        errors[`${at}.max_length`] = `Must be ${modal.maxLength} or less.`;
    });
  });
  return errors;
}

/** Whether a new message would be empty: no content, embeds, components, files, sticker or poll. */
const isEmptyMessage = (body: Json) =>
  !body?.content &&
  !(body?.embeds?.length > 0) &&
  !(body?.components?.length > 0) &&
  !(body?.attachments?.length > 0) &&
  !(body?.sticker_ids?.length > 0) &&
  !body?.poll;

/** What a bulk overwrite of application commands breaks, as Discord's field paths. */
export function commandErrors(body: RESTPutAPIApplicationCommandsJSONBody): FieldErrors {
  const errors: FieldErrors = {};
  const rules = DISCORD_LIMITS.command;
  if (!Array.isArray(body)) return { _: 'Expected an array of commands.' };
  const slash = body.filter(
    (c) => (c.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput,
  );
  if (slash.length > rules.perApplication) errors._ = `Must be ${rules.perApplication} or fewer in length.`;
  const seen = new Set<string>();
  body.forEach((command, i) => {
    const chatInput = (command.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput;
    const key = `${command.type ?? 1}:${command.name}`;
    if (seen.has(key)) errors[`${i}.name`] = 'Application command names must be unique';
    seen.add(key);
    checkName(command.name, `${i}.name`, chatInput, errors);
    if (chatInput) {
      checkDescription((command as { description?: string }).description, `${i}.description`, errors);
      const options = (command as { options?: APIApplicationCommandOption[] }).options ?? [];
      checkOptions(options, `${i}.options`, 'command', errors);
      if (commandChars(command) > rules.totalChars)
        errors[`${i}`] = `Command exceeds maximum size (${rules.totalChars})`;
    }
  });
  return errors;
}

function checkName(name: unknown, path: string, lowercase: boolean, errors: FieldErrors): void {
  const { command } = DISCORD_LIMITS;
  if (typeof name !== 'string' || !command.name.test(name))
    errors[path] = `String value did not match validation regex.`;
  else if (lowercase && name !== name.toLowerCase()) errors[path] = 'Command name is invalid';
}

function checkDescription(description: unknown, path: string, errors: FieldErrors): void {
  const max = DISCORD_LIMITS.command.description;
  if (typeof description !== 'string' || description.length < 1 || description.length > max)
    errors[path] = `Must be between 1 and ${max} in length.`;
}

/** The options under a command, a subcommand group, or a subcommand. */
function checkOptions(
  options: APIApplicationCommandOption[],
  path: string,
  parent: 'command' | 'group' | 'subcommand',
  errors: FieldErrors,
): void {
  const rules = DISCORD_LIMITS.command;
  if (options.length > rules.options) errors[path] = `Must be ${rules.options} or fewer in length.`;
  const {
    Subcommand,
    SubcommandGroup,
    String: Text,
    Integer,
    Number: Decimal,
  } = ApplicationCommandOptionType;
  const nested = options.filter((o) => o.type === Subcommand || o.type === SubcommandGroup);
  if (nested.length > 0 && nested.length < options.length)
    errors[path] = 'Sub-command and sub-command group option types are mutually exclusive to all other types';
  if (parent === 'group' && nested.length < options.length)
    errors[path] = 'A sub-command group holds only sub-commands';
  const names = new Set<string>();
  let optionalSeen = false;
  options.forEach((option, i) => {
    const at = `${path}.${i}`;
    checkName(option.name, `${at}.name`, true, errors);
    checkDescription(option.description, `${at}.description`, errors);
    if (names.has(option.name)) errors[`${at}.name`] = 'Option names must be unique';
    names.add(option.name);
    if (option.type === SubcommandGroup || option.type === Subcommand) {
      const allowed = option.type === Subcommand ? parent !== 'subcommand' : parent === 'command';
      if (!allowed) errors[`${at}.type`] = 'Sub-commands and groups cannot be nested this deep';
      const inner = (option.options ?? []) as APIApplicationCommandOption[];
      checkOptions(inner, `${at}.options`, option.type === Subcommand ? 'subcommand' : 'group', errors);
      return;
    }
    const value = option as Json;
    if (value.required) {
      if (optionalSeen)
        errors[`${at}.required`] = 'Required options must be placed before non-required options';
    } else optionalSeen = true;
    if (value.choices !== undefined) {
      if (![Text, Integer, Decimal].includes(option.type))
        errors[`${at}.choices`] = 'Choices are not allowed here';
      const choices: Json[] = value.choices;
      if (choices.length > rules.choices)
        errors[`${at}.choices`] = `Must be ${rules.choices} or fewer in length.`;
      choices.forEach((choice, j) => {
        if (
          typeof choice.name !== 'string' ||
          choice.name.length < 1 ||
          choice.name.length > rules.choiceName
        )
          errors[`${at}.choices.${j}.name`] = `Must be between 1 and ${rules.choiceName} in length.`;
        if (
          option.type === Text &&
          (typeof choice.value !== 'string' || choice.value.length > rules.choiceValue)
        )
          errors[`${at}.choices.${j}.value`] = `Must be ${rules.choiceValue} or fewer in length.`;
      });
    }
    if (value.min_length !== undefined && !(value.min_length >= 0 && value.min_length <= rules.stringLength))
      errors[`${at}.min_length`] = `Must be between 0 and ${rules.stringLength}.`;
    if (value.max_length !== undefined && !(value.max_length >= 1 && value.max_length <= rules.stringLength))
      errors[`${at}.max_length`] = `Must be between 1 and ${rules.stringLength}.`;
  });
}

/** The characters counted toward a command's size: its and its options' names, descriptions and choices. */
function commandChars(node: Json): number {
  let total = String(node.name ?? '').length + String(node.description ?? '').length;
  for (const choice of node.choices ?? []) total += String(choice.name).length + String(choice.value).length;
  for (const option of node.options ?? []) total += commandChars(option);
  return total;
}

/**
 * A request body: JSON, or multipart with its JSON in `payload_json` and files in `files[n]` (see
 * DISCORD_LIMITS.upload); what Discord refuses comes back as `refused`.
 */
async function parseBody(
  contentType: string | undefined,
  raw: Buffer,
): Promise<{ body: Json; uploads: FakeUpload[] } | { refused: [number, unknown] }> {
  const invalidJson = { refused: refuse(DISCORD_ERRORS.invalidJson) };
  if (!contentType?.startsWith('multipart/form-data')) {
    if (raw.length === 0) return { body: {}, uploads: [] };
    try {
      return { body: JSON.parse(raw.toString('utf8')), uploads: [] };
    } catch {
      return invalidJson;
    }
  }
  const rules = DISCORD_LIMITS.upload;
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  const uploads: FakeUpload[] = [];
  const errors: FieldErrors = {};
  const seen = new Set<string>();
  let body: Json = {};
  for (const [field, value] of form.entries()) {
    if (seen.has(field)) errors[field] = 'Each part must be uniquely named.';
    seen.add(field);
    if (field === 'payload_json') {
      try {
        body = JSON.parse(typeof value === 'string' ? value : await value.text());
      } catch {
        return invalidJson;
      }
      continue;
    }
    if (!rules.field.test(field)) errors[field] = 'File parts must be named files[n].';
    else if (typeof value === 'string' || !value.name) errors[field] = 'A file part needs a filename.';
    else {
      const content = Buffer.from(await value.arrayBuffer());
      if (content.length > rules.fileBytes) return { refused: refuse(DISCORD_ERRORS.entityTooLarge) };
      uploads.push({ field, filename: value.name, contentType: value.type, content });
    }
  }
  if (uploads.length > rules.files) errors.files = `Must be ${rules.files} or fewer in length.`;
  return Object.keys(errors).length > 0 ? { refused: invalidFormBody(errors) } : { body, uploads };
}

/** Options of {@link startFakeDiscord}. */
export interface FakeDiscordOptions {
  /**
   * Enforces a per-channel limit on message routes like Discord's (about 5 per 5 s): `X-RateLimit-*`
   * headers on every answer, and 429 with `retry-after` past the limit. Off by default.
   */
  channelLimit?: { requests: number; perMs: number };
  /**
   * The fake's clock (ms since the epoch), for the interaction deadlines: ids, `calls[].at` and the 3-second
   * and 15-minute rules read it. Default `Date.now`; tests move it forward instead of waiting.
   */
  now?: () => number;
  /**
   * The installation contexts the app allows (developer portal → Installation): `[0, 1]` (servers and users) by
   * default; commands registered for another are refused (see INSTALL_RULES).
   */
  installTypes?: number[];
}

/** Starts the fake on a free loopback port: one guild with one text channel. */
export async function startFakeDiscord(options: FakeDiscordOptions = {}) {
  const clock = options.now ?? Date.now;
  const snowflake = () => idAt(clock());
  const bot: FakeUser = {
    id: snowflake(),
    username: 'thinkbot',
    discriminator: '0',
    global_name: null,
    bot: true,
  };
  const applicationId = snowflake();
  const guildId = snowflake();
  const roleIds = FAKE_ROLES;
  const channels = new Map<string, Json>();
  const messages = new Map<string, FakeMessage>();
  /** Reactions the bot added, in order. */
  const reactions: { channelId: string; messageId: string; emoji: string }[] = [];
  const interactions = new Map<
    string,
    {
      id: string;
      command: boolean;
      channelId: string;
      user: FakeUser;
      original?: string;
      /** When it was dispatched, by the fake's clock. */
      createdAt: number;
      /** Refused from now on, whatever its age (see `revokeToken`). */
      revoked?: boolean;
      acknowledged: boolean;
      /** A modal's submission, which cannot be answered with another modal. */
      modalSubmit?: boolean;
      /** The message a component was pressed on (or a modal opened from): what UPDATE_MESSAGE (7) edits. */
      messageId?: string;
      /** Authorized by a person's install only: follow-ups are counted (INSTALL_RULES.userInstallFollowUps). */
      userInstallOnly?: boolean;
      followUps?: number;
    }
  >(); // by token
  /** Channels the bot cannot see: in a server it is not in, or a group DM (see `addUserInstallPlace`). */
  const hidden = new Set<string>();
  /** Where a person runs something in `channelId`, as the interaction says. */
  const placeOf = (channelId: string): CommandPlace => {
    const channel = channels.get(channelId);
    if (hidden.has(channelId)) return channel?.guild_id ? 'foreign-guild' : 'group-dm';
    return channel?.guild_id ? 'guild' : 'bot-dm';
  };
  /** Slash commands as last registered (PUT), by name: what Discord would let people send. */
  const registered = new Map<string, Json>();
  const callbacks: InteractionCallback[] = [];
  const calls: DiscordCall[] = [];
  const overrides: { match: CallMatcher; response: FakeResponse; times: number }[] = [];
  const waiters = new Set<() => void>();
  const files = new Map<string, { contentType: string; content: Buffer }>();
  const downloads: FakeDownload[] = [];
  let baseUrl = '';
  const sockets = new Set<WebSocket>();
  /** Every IDENTIFY received (a new gateway session), with the shard it asked for. */
  const identifies: { shard: [number, number] | undefined }[] = [];
  /** The connection of each IDENTIFY, in the same order. */
  const identified: WebSocket[] = [];
  let seq = 0;
  let wsUrl = '';

  const addChannel = (fields: Json) => {
    const channel = { id: snowflake(), guild_id: guildId, permission_overwrites: [], position: 0, ...fields };
    channels.set(channel.id, channel);
    return channel;
  };
  const general = addChannel({ type: 0, name: 'general' });
  const dispatch = (t: string, d: unknown) => {
    const frame = JSON.stringify({ op: 0, t, s: ++seq, d });
    for (const ws of sockets) ws.send(frame);
  };
  // discord.js needs `channel_type` to build a DM channel it has not seen (Partials.Channel).
  const dispatchMessage = (message: FakeMessage) =>
    dispatch('MESSAGE_CREATE', { ...message, channel_type: channels.get(message.channel_id)?.type });
  const store = (channelId: string, author: FakeUser, fields: Json): FakeMessage => {
    const guild = channels.get(channelId)?.guild_id;
    const message: FakeMessage = {
      id: snowflake(),
      channel_id: channelId,
      ...(guild ? { guild_id: guild } : {}),
      author,
      content: '',
      timestamp: now(),
      ...MESSAGE_DEFAULTS,
      ...fields,
    };
    messages.set(message.id, message);
    return message;
  };
  /** An uploaded file as a message attachment, served by the fake's CDN route. */
  const attach = (channelId: string, file: FakeUpload) => {
    const id = snowflake();
    // Discord names the type from the file's name when the part gives none.
    const contentType = file.contentType || 'application/octet-stream';
    files.set(id, { contentType, content: file.content });
    const url = `${baseUrl}/attachments/${channelId}/${id}/${encodeURIComponent(file.filename)}`;
    return {
      id,
      filename: file.filename,
      size: file.content.length,
      url,
      proxy_url: url,
      content_type: contentType,
    };
  };
  const edit = (message: FakeMessage | undefined, body: Json): [number, unknown] => {
    if (!message) return [404, { message: 'Unknown Message', code: 10008 }];
    if (typeof body.content === 'string') message.content = body.content;
    if (Array.isArray(body.components)) message.components = body.components;
    message.flags &= ~128; // an edited interaction response is no longer "thinking…"
    message.edited_timestamp = now();
    return [200, message];
  };
  const fetch = (message: FakeMessage | undefined): [number, unknown] =>
    message ? [200, message] : [404, { message: 'Unknown Message', code: 10008 }];
  /** The guild's members as last seen (their latest message or interaction) or as a test set them. */
  const members = new Map<
    string,
    { user: FakeUser; nick: string | null; roles: string[]; joined_at: string }
  >();
  const member = (user: FakeUser, nick?: string, roles: readonly string[] = []) => {
    const record = { user, nick: nick ?? null, roles: [...roles], joined_at: now() };
    members.set(user.id, record);
    return {
      ...record,
      permissions: roles.includes(roleIds.manager) ? MANAGER_PERMISSIONS : ALL_PERMISSIONS,
    };
  };

  /** A channel's messages as Discord lists them: newest first, within `before`/`after`, at most `limit`. */
  const listMessages = (channelId: string, query: URLSearchParams): [number, unknown] => {
    const limit = Number(query.get('limit') ?? 50);
    const before = query.get('before');
    const after = query.get('after');
    const inChannel = [...messages.values()]
      .filter((m) => m.channel_id === channelId)
      .filter((m) => !before || BigInt(m.id) < BigInt(before))
      .filter((m) => !after || BigInt(m.id) > BigInt(after))
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1));
    // With `after`, Discord returns the messages right after it (still newest first).
    const page = after ? inChannel.slice(-limit) : inChannel.slice(0, limit);
    return [200, page];
  };

  type Handler = (
    params: string[],
    body: Json,
    query: URLSearchParams,
    uploads: FakeUpload[],
  ) => [number, unknown?];
  /** The REST routes the bot uses; ids are captured as params. */
  const routes: [string, RegExp, Handler][] = [
    [
      'GET',
      /^\/gateway\/bot$/,
      () => [
        200,
        {
          url: wsUrl,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
        },
      ],
    ],
    [
      'PUT',
      /^\/applications\/\d+(?:\/guilds\/\d+)?\/commands$/,
      (_, body) => {
        const errors = commandErrors(body);
        if (Array.isArray(body))
          Object.assign(errors, installErrors(body, options.installTypes ?? INSTALL_RULES.integrationTypes));
        if (Object.keys(errors).length > 0) return invalidFormBody(errors);
        registered.clear();
        for (const command of body) registered.set(command.name, command);
        return [
          200,
          body.map((c: Json) => ({ ...c, id: snowflake(), application_id: applicationId, version: '1' })),
        ];
      },
    ],
    ['POST', /^\/channels\/(\d+)\/typing$/, () => [204]],
    [
      // Create Reaction: 204; the emoji a unicode emoji or a custom one as name:id, else 10014 Unknown Emoji (the
      // path arrives here decoded); the message must exist in the channel (10008). Adding one the bot already
      // added changes nothing (https://discord.com/developers/docs/resources/message#create-reaction).
      'PUT',
      /^\/channels\/(\d+)\/messages\/(\d+)\/reactions\/([^/]+)\/@me$/,
      ([channelId, id, emoji]) => {
        const message = messages.get(id!);
        if (!message || message.channel_id !== channelId) return refuse(DISCORD_ERRORS.unknownMessage);
        if (!/^\p{Extended_Pictographic}/u.test(emoji!) && !/^\w+:\d+$/.test(emoji!))
          return refuse(DISCORD_ERRORS.unknownEmoji);
        if (!reactions.some((r) => r.messageId === id && r.emoji === emoji))
          reactions.push({ channelId: channelId!, messageId: id!, emoji: emoji! });
        return [204];
      },
    ],
    [
      // Get Guild Member: the member object, without `permissions` (only interactions carry those);
      // 10004 for another guild, 10007 for someone not in it (https://discord.com/developers/docs/resources/guild#get-guild-member).
      'GET',
      /^\/guilds\/(\d+)\/members\/(\d+)$/,
      ([guild, user]) => {
        if (guild !== guildId) return refuse(DISCORD_ERRORS.unknownGuild);
        const found = members.get(user!);
        if (!found) return refuse(DISCORD_ERRORS.unknownMember);
        return [200, { ...found, deaf: false, mute: false, flags: 0 }];
      },
    ],
    [
      'POST',
      /^\/channels\/(\d+)\/messages$/,
      ([channelId], body) => {
        if (isEmptyMessage(body)) return refuse(DISCORD_ERRORS.emptyMessage);
        const ref = body.message_reference;
        const fields = ref ? { type: 19, message_reference: { ...ref, channel_id: channelId } } : {};
        const message = store(channelId!, bot, {
          content: body.content ?? '',
          components: body.components ?? [],
          flags: Number(body.flags ?? 0),
          ...fields,
        });
        dispatchMessage(message); // Discord echoes the bot's own messages to it
        return [200, message];
      },
    ],
    ['PATCH', /^\/channels\/\d+\/messages\/(\d+)$/, ([id], body) => edit(messages.get(id!), body)],
    ['GET', /^\/channels\/(\d+)\/messages$/, ([channelId], _, query) => listMessages(channelId!, query)],
    ['GET', /^\/channels\/\d+\/messages\/(\d+)$/, ([id]) => fetch(messages.get(id!))],
    [
      'POST',
      /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/,
      ([parent, id], body) => {
        const { threadName, autoArchiveDurations } = DISCORD_LIMITS;
        const name = String(body.name ?? '');
        if (name.length < 1 || name.length > threadName)
          return invalidFormBody({ name: `Must be between 1 and ${threadName} in length.` });
        const archive = body.auto_archive_duration;
        if (archive !== undefined && !(autoArchiveDurations as readonly number[]).includes(archive))
          return invalidFormBody({ auto_archive_duration: `Value must be one of ${autoArchiveDurations}.` });
        // A thread started from a message shares the message's id.
        const thread = addChannel({ id, type: 11, name: body.name, parent_id: parent, owner_id: bot.id });
        Object.assign(thread, { thread_metadata: threadMetadata(), message_count: 0, member_count: 1 });
        dispatch('THREAD_CREATE', { ...thread, newly_created: true });
        return [201, thread];
      },
    ],
    [
      'POST',
      /^\/interactions\/(\d+)\/([^/]+)\/callback$/,
      ([id, token], body, _, uploads) => {
        const interaction = interactions.get(token!);
        if (!interaction || interaction.id !== id) return refuse(DISCORD_ERRORS.unknownInteraction);
        if (clock() - interaction.createdAt > DISCORD_LIMITS.initialResponseMs)
          return refuse(DISCORD_ERRORS.unknownInteraction);
        if (interaction.acknowledged) return refuse(DISCORD_ERRORS.alreadyAcknowledged);
        const data = body.data ?? {};
        if (body.type === 9) {
          if (interaction.modalSubmit)
            return invalidFormBody({ type: 'Cannot respond to a modal with a modal.' });
          const problems = modalErrors(data);
          if (Object.keys(problems).length > 0) return invalidFormBody(problems);
          interaction.acknowledged = true;
          callbacks.push({ id: id!, token: token!, type: body.type, data });
          return [204];
        }
        // UPDATE_MESSAGE edits the message the press was on: its flags (IS_COMPONENTS_V2) stay.
        const onFlags = body.type === 7 ? Number(messages.get(interaction.messageId ?? '')?.flags ?? 0) : 0;
        const errors = messageErrors(data, 'data.', Number(data.flags ?? 0) | onFlags);
        if (Object.keys(errors).length > 0) return invalidFormBody(errors);
        if (body.type === 4 && isEmptyMessage(data)) return refuse(DISCORD_ERRORS.emptyMessage);
        if (uploads.length > 0 && body.type !== 4 && body.type !== 7)
          return invalidFormBody({ type: 'Files are only accepted with a message response.' });
        interaction.acknowledged = true;
        callbacks.push({
          id: id!,
          token: token!,
          type: body.type,
          data,
          ...(uploads.length > 0 ? { files: uploads } : {}),
        });
        if (body.type === 6) return [204]; // a button acknowledged: the message it is on stays as it is
        // UPDATE_MESSAGE: "for components, edit the message the component was attached to"; only for
        // interactions made on a message (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type).
        if (body.type === 7) {
          if (!interaction.messageId)
            return invalidFormBody({
              type: 'UPDATE_MESSAGE is only valid for component-based interactions.',
            });
          const edited = edit(messages.get(interaction.messageId), data);
          return edited[0] === 200 ? [204] : edited;
        }
        const flags = Number(data.flags ?? 0) | (body.type === 5 ? 128 : 0); // 128: loading ("thinking…")
        const original = store(interaction.channelId, bot, {
          content: data.content ?? '',
          components: data.components ?? [],
          attachments: uploads.map((file) => attach(interaction.channelId, file)),
          flags,
          ...fromInteraction(interaction),
        });
        interaction.original = original.id;
        return [204];
      },
    ],
    [
      'POST',
      /^\/webhooks\/\d+\/([^/]+)$/,
      ([token], body) => {
        if (isEmptyMessage(body)) return refuse(DISCORD_ERRORS.emptyMessage);
        // The first follow-up to a deferred response that was never edited becomes that response, keeping
        // its visibility; `flags` are ignored (Create Followup Message; discord-api-docs #2866, #3466).
        const loading = byWebhook(token!, '@original');
        if (loading && loading.flags & 128) return edit(loading, body);
        const interaction = interactions.get(token!)!;
        if (interaction.userInstallOnly) {
          interaction.followUps = (interaction.followUps ?? 0) + 1;
          if (interaction.followUps > INSTALL_RULES.userInstallFollowUps)
            return refuse(DISCORD_ERRORS.maxFollowUps);
        }
        const channelId = interaction.channelId;
        return [
          200,
          store(channelId, bot, {
            content: body.content ?? '',
            components: body.components ?? [],
            flags: Number(body.flags ?? 0),
            ...fromInteraction(interactions.get(token!)!),
          }),
        ];
      },
    ],
    [
      'PATCH',
      /^\/webhooks\/\d+\/([^/]+)\/messages\/([^/]+)$/,
      ([token, id], body) => edit(byWebhook(token!, id!), body),
    ],
    ['GET', /^\/webhooks\/\d+\/([^/]+)\/messages\/([^/]+)$/, ([token, id]) => fetch(byWebhook(token!, id!))],
    [
      'DELETE',
      /^\/webhooks\/\d+\/([^/]+)\/messages\/([^/]+)$/,
      ([token, id]) => {
        const message = byWebhook(token!, id!);
        if (!message) return [404, { message: 'Unknown Message', code: 10008 }];
        messages.delete(message.id);
        dispatch('MESSAGE_DELETE', {
          id: message.id,
          channel_id: message.channel_id,
          guild_id: message.guild_id,
        });
        return [204];
      },
    ],
  ];
  /**
   * Real Discord sends only what a registered command declares: a command run with an option (or
   * subcommand, or choice) its registration lacks is a broken test. Unregistered names pass (probes).
   */
  const checkRegistered = (name: string, subcommand: string | undefined, values: Record<string, string>) => {
    const command = registered.get(name);
    if (!command) return;
    let declared: Json[] = command.options ?? [];
    if (subcommand !== undefined) {
      const sub = declared.find(
        (o) => o.name === subcommand && o.type === ApplicationCommandOptionType.Subcommand,
      );
      if (!sub) throw new Error(`/${name} registers no subcommand ${subcommand}`);
      declared = sub.options ?? [];
    }
    for (const [key, value] of Object.entries(values)) {
      const option = declared.find((o) => o.name === key);
      if (!option)
        throw new Error(`/${name}${subcommand ? ` ${subcommand}` : ''} registers no option ${key}`);
      if (option.choices && !option.choices.some((c: Json) => c.value === value))
        throw new Error(`/${name} option ${key} has no choice ${value}`);
      if (value.length > (option.max_length ?? DISCORD_LIMITS.command.stringLength))
        throw new Error(`/${name} option ${key} is longer than its max_length`);
      if (value.length < (option.min_length ?? 0))
        throw new Error(`/${name} option ${key} is shorter than its min_length`);
    }
    for (const option of declared)
      if (option.required && !(option.name in values))
        throw new Error(`/${name} needs option ${option.name}`);
  };
  /** What Discord puts on an interaction's response and follow-ups: by webhook; type 20 for a slash command's. */
  const fromInteraction = (interaction: { id: string; command: boolean; user: FakeUser }) => ({
    type: interaction.command ? 20 : 0,
    webhook_id: applicationId,
    interaction_metadata: {
      id: interaction.id,
      type: interaction.command ? 2 : 3,
      user: interaction.user,
      authorizing_integration_owners: {},
    },
  });
  const byWebhook = (token: string, id: string) =>
    messages.get(id === '@original' ? (interactions.get(token)?.original ?? '') : id);

  const handle = (
    method: string,
    path: string,
    body: Json,
    query: URLSearchParams,
    uploads: FakeUpload[] = [],
  ): [number, unknown?, Record<string, string>?] => {
    const override = overrides.find((o) => o.times > 0 && o.match({ method, path }));
    if (override) {
      override.times--;
      return [override.response.status, override.response.body, override.response.headers];
    }
    const refused = contractBreach(method, path, body);
    if (refused) return refused;
    const limit = rateLimitHeaders(path);
    if (limit?.['retry-after']) {
      return [
        429,
        { message: 'You are being rate limited.', retry_after: Number(limit['retry-after']) },
        limit,
      ];
    }
    for (const [verb, pattern, handler] of routes) {
      const match = verb === method ? pattern.exec(path) : null;
      if (!match) continue;
      const [status, payload] = handler(match.slice(1), body, query, uploads);
      return [status, payload, limit];
    }
    return [404, { message: `the fake Discord has no route ${method} ${path}`, code: 0 }];
  };

  /** What Discord refuses whatever the route: an expired interaction token, a message over the limits. */
  const contractBreach = (method: string, path: string, body: Json): [number, unknown] | undefined => {
    const webhook = /^\/webhooks\/\d+\/([^/]+)/.exec(path);
    const interaction = webhook ? interactions.get(webhook[1]!) : undefined;
    // A token past its 15 minutes, or one Discord no longer takes sooner (revoked, or a clock ahead of
    // the bot's): 401 with JSON code 50027 Invalid Webhook Token.
    // https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
    const expired = interaction && clock() - interaction.createdAt > DISCORD_LIMITS.interactionTokenMs;
    if (interaction && (expired || interaction.revoked)) return refuse(DISCORD_ERRORS.invalidWebhookToken);
    // The bot's own token reaches no channel it is not in.
    const channelRoute = /^\/channels\/(\d+)/.exec(path);
    if (channelRoute && hidden.has(channelRoute[1]!)) return refuse(DISCORD_ERRORS.missingAccess);
    const writesMessage =
      (method === 'POST' || method === 'PATCH') &&
      (/^\/channels\/\d+\/messages(\/\d+)?$/.test(path) || webhook !== null);
    if (!writesMessage) return undefined;
    const errors = messageErrors(body, '', Number(body?.flags ?? 0) | editedFlags(method, path));
    return Object.keys(errors).length > 0 ? invalidFormBody(errors) : undefined;
  };

  /** The flags of the message an edit is for (IS_COMPONENTS_V2 cannot be removed once set); 0 for a new one. */
  const editedFlags = (method: string, path: string): number => {
    if (method !== 'PATCH') return 0;
    const inChannel = /^\/channels\/\d+\/messages\/(\d+)$/.exec(path);
    const byToken = /^\/webhooks\/\d+\/([^/]+)\/messages\/([^/]+)$/.exec(path);
    const message = inChannel
      ? messages.get(inChannel[1]!)
      : byToken
        ? byWebhook(byToken[1]!, byToken[2]!)
        : undefined;
    return Number(message?.flags ?? 0);
  };

  const windows = new Map<string, number[]>(); // channel id → times of its recent message calls
  /** Counts a message call against its channel's window; the headers, with `retry-after` once over. */
  const rateLimitHeaders = (path: string): Record<string, string> | undefined => {
    const channelId = /^\/channels\/(\d+)\/messages/.exec(path)?.[1];
    if (!options.channelLimit || !channelId) return undefined;
    const { requests, perMs } = options.channelLimit;
    const at = Date.now();
    const recent = (windows.get(channelId) ?? []).filter((t) => t > at - perMs);
    const over = recent.length >= requests;
    if (!over) recent.push(at);
    windows.set(channelId, recent);
    const resetAfter = ((recent[0]! + perMs - at) / 1000).toFixed(3);
    return {
      'x-ratelimit-limit': String(requests),
      'x-ratelimit-remaining': String(requests - recent.length),
      'x-ratelimit-reset-after': resetAfter,
      'x-ratelimit-bucket': `messages-${channelId}`,
      ...(over ? { 'retry-after': resetAfter, 'x-ratelimit-scope': 'user' } : {}),
    };
  };

  /** Streams an attachment in chunks, as a CDN does, noting how far each download got. */
  const serveFile = (id: string, res: ServerResponse) => {
    const file = files.get(id);
    const download: FakeDownload = { attachmentId: id, bytesSent: 0, aborted: false, done: false };
    downloads.push(download);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.content.length) });
    res.on('close', () => {
      download.aborted = !download.done;
      for (const wake of waiters) wake();
    });
    const pump = () => {
      while (download.bytesSent < file.content.length && !res.destroyed) {
        const chunk = file.content.subarray(download.bytesSent, download.bytesSent + 64 * 1024);
        download.bytesSent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (res.destroyed) return;
      download.done = true;
      res.end();
    };
    pump();
  };

  const server = createServer((req, res) => {
    const cdn = /^\/attachments\/\d+\/(\d+)\//.exec(req.url ?? '');
    if (cdn) return serveFile(cdn[1]!, res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const method = req.method ?? 'GET';
      const url = new URL(req.url ?? '/', 'http://x');
      const path = decodeURIComponent(url.pathname.replace(/^\/api\/v\d+/, ''));
      const parsed = await parseBody(req.headers['content-type'], Buffer.concat(chunks));
      const body = 'refused' in parsed ? {} : parsed.body;
      const [status, payload, headers = {}] =
        'refused' in parsed ? parsed.refused : handle(method, path, body, url.searchParams, parsed.uploads);
      calls.push({ method, path, query: url.search, body, status, at: clock() });
      for (const wake of waiters) wake();
      if (payload === undefined) res.writeHead(status, headers).end();
      else
        res
          .writeHead(status, { 'content-type': 'application/json', ...headers })
          .end(JSON.stringify(payload));
    });
  });

  const gateway = new WebSocketServer({ server, path: '/gateway' });
  gateway.on('connection', (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 41_250 } }));
    ws.on('message', (data) => {
      const { op } = JSON.parse(String(data)) as { op: number };
      if (op === 1) ws.send(JSON.stringify({ op: 11 }));
      if (op !== 2) return;
      const { d } = JSON.parse(String(data)) as { d?: { shard?: [number, number] } };
      identifies.push({ shard: d?.shard });
      identified.push(ws);
      const application = { id: applicationId, flags: 0 };
      const guilds = [{ id: guildId, unavailable: true }];
      dispatch('READY', {
        v: 10,
        user: bot,
        guilds,
        session_id: 'fake',
        resume_gateway_url: wsUrl,
        application,
      });
      const all = [...channels.values()];
      // Without `channels`, discord.js waits 15 s before it calls itself ready.
      dispatch('GUILD_CREATE', {
        id: guildId,
        name: 'Fake Guild',
        unavailable: false,
        joined_at: now(),
        channels: all.filter((c) => c.type === 0),
        threads: all.filter((c) => c.type === 11),
        roles: [
          { id: guildId, name: '@everyone', permissions: ALL_PERMISSIONS, position: 0 },
          { id: roleIds.manager, name: 'Managers', permissions: MANAGER_PERMISSIONS, position: 1 },
          { id: roleIds.helper, name: 'Helpers', permissions: '0', position: 2 },
        ],
        members: [],
        features: [],
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  wsUrl = `ws://127.0.0.1:${port}/gateway`;
  baseUrl = `http://127.0.0.1:${port}`;

  /**
   * Dispatches an interaction a person made on `message` (3: a button press, 5: a modal submitted from it)
   * and records it for its callbacks; returns its id and token.
   */
  function dispatchOnMessage(
    type: 3 | 5,
    data: Record<string, unknown>,
    on: { message: FakeMessage; user: FakeUser; roles?: readonly string[] },
  ) {
    const { message, user } = on;
    const id = snowflake();
    const token = `token-${id}`;
    const channelId = message.channel_id;
    const place = placeOf(channelId);
    interactions.set(token, {
      id,
      command: false,
      channelId,
      user,
      createdAt: clock(),
      acknowledged: false,
      ...(type === 5 ? { modalSubmit: true } : {}),
      messageId: message.id,
      userInstallOnly: place === 'foreign-guild' || place === 'group-dm',
    });
    const channel = channels.get(channelId);
    const guild = channel?.guild_id;
    dispatch('INTERACTION_CREATE', {
      id,
      application_id: applicationId,
      type,
      token,
      version: 1,
      locale: 'en-US',
      data,
      message,
      channel_id: channelId,
      channel: { id: channelId, type: channel?.type ?? 1, ...(guild ? { guild_id: guild } : {}) },
      ...(guild ? { guild_id: guild, member: memberIn(place, user, undefined, on.roles) } : { user }),
      app_permissions: ALL_PERMISSIONS,
      entitlements: [],
      ...placeFields(place, guild, user.id),
    });
    return { id, token };
  }

  /** The member object an interaction carries: recorded in the bot's guild; elsewhere only described. */
  function memberIn(place: CommandPlace, user: FakeUser, nick?: string, roles: readonly string[] = []) {
    if (place === 'guild') return member(user, nick, roles);
    return { user, nick: nick ?? null, roles: [...roles], joined_at: now(), permissions: ALL_PERMISSIONS };
  }

  return {
    /** The REST base to give discord.js (`rest.api`), i.e. DISCORD_API_URL. */
    apiUrl: `http://127.0.0.1:${port}/api`,
    bot,
    applicationId,
    /** Guild roles to give members: `manager` (Manage Server) and `helper`. */
    roleIds,
    guildId,
    /** A text channel of the guild. */
    channelId: general.id as string,
    /** Every REST call, in arrival order. */
    calls,
    /** The slash commands as last registered, by name. */
    registered,
    /** The fake's clock. */
    now: clock,
    /** Every attachment download from the fake's CDN, in order. */
    downloads,
    /** Every IDENTIFY (new gateway session), in arrival order, with the shard each asked for. */
    identifies,
    /** Gateway connections open right now. */
    sessions: () => sockets.size,
    /**
     * Closes the gateway session of IDENTIFY number `index` with a close `code`; with one the client may
     * not reconnect after (e.g. 4011 Sharding required) that session gets no more events, while the bot's
     * REST calls still work.
     * https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes
     */
    closeSession(index: number, code: number, reason = ''): Promise<void> {
      const ws = identified[index];
      if (!ws) throw new Error(`no gateway session ${index}`);
      if (ws.readyState === ws.CLOSED) return Promise.resolve();
      return new Promise((resolve) => {
        ws.once('close', () => resolve());
        ws.close(code, reason);
      });
    },
    /** The messages of a channel, oldest first, as they look now. */
    messages: (channelId: string) => [...messages.values()].filter((m) => m.channel_id === channelId),
    /** An interaction's original response, by interaction token. */
    original: (token: string) => byWebhook(token, '@original'),
    /** Makes a user (a person unless `bot`). */
    user(name: string, options: { bot?: boolean } = {}): FakeUser {
      const user: FakeUser = { id: snowflake(), username: name, discriminator: '0', global_name: name };
      return options.bot ? { ...user, bot: true } : user;
    },
    /** Sets a member's roles as Discord would now report them (`manager`: Manage Server); null: they left. */
    setMember(user: FakeUser, roles: readonly string[] | null): void {
      if (roles === null) members.delete(user.id);
      else
        members.set(user.id, {
          ...(members.get(user.id) ?? { nick: null, joined_at: now() }),
          user,
          roles: [...roles],
        });
    },
    /** Adds a text channel to the guild, announced with CHANNEL_CREATE. */
    addChannel(name = 'other'): string {
      const channel = addChannel({ type: 0, name });
      dispatch('CHANNEL_CREATE', channel);
      return channel.id;
    },
    /** Reactions the bot added (Create Reaction), in order. */
    reactions,
    /** Adds a public thread under `parentId`, announced with THREAD_CREATE. */
    addThread(parentId: string, name = 'a thread'): string {
      const thread = addChannel({ type: 11, name, parent_id: parentId, thread_metadata: threadMetadata() });
      dispatch('THREAD_CREATE', { ...thread, newly_created: true });
      return thread.id;
    },
    /** A DM channel with `user`; discord.js learns of it from its first message (Partials.Channel). */
    addDm(user: FakeUser): string {
      const id = snowflake();
      channels.set(id, { id, type: 1, recipients: [user] });
      return id;
    },
    /** Dispatches MESSAGE_CREATE; `mentions` lists the users mentioned (include `bot` to mention the bot). */
    sendMessage(options: {
      channelId: string;
      author: FakeUser;
      content: string;
      mentions?: FakeUser[];
      nick?: string;
      /** Role IDs the author has in the guild (see `roleIds`). */
      roles?: readonly string[];
      /** The message this one replies to (Discord's message_reference). */
      replyTo?: FakeMessage;
      /** Files attached, served by the fake's own CDN URL (or said to be at `url`, which the fake does not serve). */
      attachments?: { filename: string; contentType?: string; content: Buffer | string; url?: string }[];
      /** Stores the message (for history) without dispatching it to the bot. */
      silent?: boolean;
      /**
       * Makes it a forward of a message elsewhere (`content` is then ignored: a forward's own is empty): its
       * `message_reference` has type 1 and the forwarded message is in `message_snapshots`, without its author
       * (https://discord.com/developers/docs/resources/message#message-reference-content-attribution-forwards;
       * the snapshot's fields: #message-snapshot-object). A comment added in Discord's forward dialog is not
       * part of it: the app sends it as a message of its own right after the forward (it is refused in a
       * slowmode channel, discord-api-docs issue #7667), so a test sends it with a second `sendMessage`.
       */
      forward?: {
        content?: string;
        embeds?: Json[];
        attachments?: { filename: string; contentType?: string; content: Buffer | string }[];
      };
    }) {
      const { channelId, author, mentions = [], replyTo } = options;
      const content = options.forward ? '' : options.content;
      const guild = channels.get(channelId)?.guild_id;
      const toAttachment = (file: {
        filename: string;
        contentType?: string;
        content: Buffer | string;
        url?: string;
      }) => {
        const id = snowflake();
        const bytes = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
        const contentType = file.contentType ?? 'application/octet-stream';
        files.set(id, { contentType, content: bytes });
        const url =
          file.url ?? `${baseUrl}/attachments/${channelId}/${id}/${encodeURIComponent(file.filename)}`;
        return {
          id,
          filename: file.filename,
          size: bytes.length,
          url,
          proxy_url: url,
          ...(file.contentType ? { content_type: file.contentType } : {}),
        };
      };
      const attachments = (options.attachments ?? []).map(toAttachment);
      const forward = options.forward;
      const forwarded = forward
        ? {
            message_reference: { type: 1, message_id: snowflake(), channel_id: snowflake() },
            message_snapshots: [
              {
                message: {
                  type: 0,
                  content: forward.content ?? '',
                  embeds: forward.embeds ?? [],
                  attachments: (forward.attachments ?? []).map(toAttachment),
                  timestamp: now(),
                  edited_timestamp: null,
                  flags: 0,
                  mentions: [],
                  mention_roles: [],
                  components: [],
                },
              },
            ],
            flags: 1 << 14, // HAS_SNAPSHOT
          }
        : {};
      const reference = replyTo
        ? {
            type: 19,
            message_reference: { message_id: replyTo.id, channel_id: replyTo.channel_id, guild_id: guild },
            referenced_message: replyTo,
          }
        : {};
      const message = store(channelId, author, {
        content,
        mentions,
        attachments,
        ...reference,
        ...forwarded,
      });
      if (guild) message.member = member(author, options.nick, options.roles);
      if (!options.silent) dispatchMessage(message);
      return message;
    },
    /**
     * Dispatches INTERACTION_CREATE for a slash command with string options (under `subcommand`, when
     * given); returns its id and token.
     */
    runCommand(options: {
      name: string;
      channelId: string;
      user: FakeUser;
      subcommand?: string;
      options?: Record<string, string>;
      nick?: string;
      roles?: readonly string[];
    }) {
      const { name, channelId, user } = options;
      const id = snowflake();
      const token = `token-${id}`;
      checkRegistered(name, options.subcommand, options.options ?? {});
      const place = placeOf(channelId);
      const unusable = registered.has(name) ? unusableIn(registered.get(name), place) : undefined;
      if (unusable) throw new Error(unusable);
      interactions.set(token, {
        id,
        command: true,
        channelId,
        user,
        createdAt: clock(),
        acknowledged: false,
        userInstallOnly: place === 'foreign-guild' || place === 'group-dm',
      });
      const channel = channels.get(channelId);
      const guild = channel?.guild_id;
      const values = Object.entries(options.options ?? {}).map(([key, value]) => ({
        name: key,
        type: 3,
        value,
      }));
      dispatch('INTERACTION_CREATE', {
        id,
        application_id: applicationId,
        type: 2,
        token,
        version: 1,
        locale: 'en-US',
        data: {
          id: snowflake(),
          name,
          type: 1,
          options: options.subcommand ? [{ name: options.subcommand, type: 1, options: values }] : values,
        },
        channel_id: channelId,
        channel: { id: channelId, type: channel?.type ?? 1, ...(guild ? { guild_id: guild } : {}) },
        ...(guild
          ? { guild_id: guild, member: memberIn(place, user, options.nick, options.roles) }
          : { user }),
        app_permissions: ALL_PERMISSIONS,
        entitlements: [],
        ...placeFields(place, guild, user.id),
      });
      return { id, token };
    },
    /**
     * A place only a person's own install of the app reaches (nothing is dispatched: the bot is not there): a
     * text channel of a server the bot is not in, or a group DM. The bot's token gets 403 50001 Missing Access
     * on it; a command run there is authorized for `USER_INSTALL` only (see INSTALL_RULES). Returns its id.
     */
    addUserInstallPlace(kind: 'guild' | 'group-dm', people: FakeUser[] = []): string {
      const id = snowflake();
      const fields =
        kind === 'guild'
          ? { type: 0, name: 'elsewhere', guild_id: snowflake(), permission_overwrites: [], position: 0 }
          : { type: 3, name: null, recipients: people, owner_id: people[0]?.id };
      channels.set(id, { id, ...fields });
      hidden.add(id);
      return id;
    },
    /** Every answer the bot gave to an interaction, in order. */
    callbacks,
    /**
     * Makes Discord refuse an interaction's token from now on, before its 15 minutes: every webhook call
     * with it (edit the response, follow up, edit a follow-up) answers 401, 50027 Invalid Webhook Token.
     */
    revokeToken(token: string) {
      const interaction = interactions.get(token);
      if (!interaction) throw new Error(`no interaction has the token ${token}`);
      interaction.revoked = true;
    },
    /**
     * Dispatches INTERACTION_CREATE for a press on the button `customId` of `message` (type 3, a message
     * component); returns its id and token. `roles` are the presser's guild roles.
     */
    pressButton(options: {
      message: FakeMessage;
      customId: string;
      user: FakeUser;
      roles?: readonly string[];
    }) {
      return dispatchOnMessage(3, { custom_id: options.customId, component_type: 2 }, options);
    },
    /**
     * Dispatches INTERACTION_CREATE for the submission of the modal `customId` opened from a button on
     * `message` (type 5), with the text inputs' `values` by custom_id; returns its id and token.
     */
    submitModal(options: {
      message: FakeMessage;
      customId: string;
      user: FakeUser;
      values: Record<string, string>;
      roles?: readonly string[];
    }) {
      const components = Object.entries(options.values).map(([field, value]) => ({
        type: 1,
        components: [{ type: 4, custom_id: field, value }],
      }));
      return dispatchOnMessage(5, { custom_id: options.customId, components }, options);
    },
    /** Answers the next `times` matching calls with `response` instead of handling them. */
    respond(match: CallMatcher, response: FakeResponse, times = 1) {
      overrides.push({ match, response, times });
    },
    /** Answers the next `times` matching calls with 429 and `retry-after: seconds`. */
    rateLimit(match: CallMatcher, seconds: number, times = 1) {
      const body = { message: 'You are being rate limited.', retry_after: seconds, global: false };
      const headers = { 'retry-after': String(seconds), 'x-ratelimit-scope': 'user' };
      overrides.push({ match, times, response: { status: 429, body, headers } });
    },
    /** Resolves with the first call from index `from` on that satisfies `predicate`. */
    waitForCall(predicate: (call: DiscordCall) => boolean, from = 0): Promise<DiscordCall> {
      return new Promise((resolve) => {
        const check = () => {
          const found = calls.slice(from).find(predicate);
          if (!found) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of sockets) ws.terminate();
        gateway.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
