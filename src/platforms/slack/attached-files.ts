import type { webApi } from '@slack/bolt';
import type { Attachment } from '../../core/input/types.js';
import { type DownloadLimits, downloadAttachment } from '../shared/download-attachment.js';
import { slackFilePolicy } from '../shared/download-policy.js';
import { classifyFile } from '../shared/file-kinds.js';

/** A file shared with a message, as events and `files.info` carry it. */
export interface SlackFile {
  id?: string | undefined;
  name?: string | undefined;
  title?: string | undefined;
  mimetype?: string | undefined;
  size?: number | undefined;
  url_private?: string | undefined;
  url_private_download?: string | undefined;
  /**
   * `check_file_info`: the event carries a stub (Slack Connect), the file itself is read with `files.info`
   * (docs.slack.dev/reference/events/message/file_share, "Slack Connect files").
   */
  file_access?: string | undefined;
}

/**
 * Downloads the files of a Slack message with the bot token, from Slack's file hosts only (see
 * {@link slackFilePolicy}); a stub is looked up with `files.info` first. Never throws: a file that cannot be
 * looked up or fetched is named and skipped.
 */
export function downloadSlackFiles(
  files: readonly SlackFile[],
  client: webApi.WebClient,
  limits: Omit<DownloadLimits, 'policy'>,
): Promise<Attachment[]> {
  const policy = slackFilePolicy(client.slackApiUrl);
  const headers = client.token ? { Authorization: `Bearer ${client.token}` } : undefined;
  return Promise.all(
    files.map(async (shared) => {
      const looked = await lookUp(shared, client);
      if ('note' in looked) return skipped(shared, looked.note);
      const file = looked.file;
      const url = file.url_private_download ?? file.url_private;
      if (!url) return skipped(file, 'Slack gave no address to download it from');
      return downloadAttachment(
        { name: nameOf(file), mediaType: file.mimetype, size: file.size ?? 0, url, headers },
        { ...limits, policy },
      );
    }),
  );
}

/** The file itself: the event's, or for a stub, what `files.info` says. */
async function lookUp(
  file: SlackFile,
  client: webApi.WebClient,
): Promise<{ file: SlackFile } | { note: string }> {
  if (file.file_access !== 'check_file_info') return { file };
  if (!file.id) return { note: 'could not be looked up (no file id)' };
  try {
    const info = await client.files.info({ file: file.id });
    return info.file ? { file: info.file as SlackFile } : { note: 'could not be looked up' };
  } catch (err) {
    // The Web API client's errors carry Slack's code in `data.error`; the token is never in them.
    const code = (err as { data?: { error?: unknown } }).data?.error;
    return { note: `could not be looked up${typeof code === 'string' ? ` (${code})` : ''}` };
  }
}

function nameOf(file: SlackFile): string {
  return file.name || file.title || file.id || 'file';
}

function skipped(file: SlackFile, note: string): Attachment {
  const { mediaType } = classifyFile(nameOf(file), file.mimetype);
  return { name: nameOf(file), mediaType, size: file.size ?? 0, kind: 'skipped', note };
}
