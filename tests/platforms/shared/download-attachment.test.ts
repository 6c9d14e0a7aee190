import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.js';
import {
  type DownloadLimits,
  downloadAttachment,
  MAX_REDIRECTS,
} from '../../../src/platforms/shared/download-attachment.js';
import {
  createDownloadPolicy,
  type DownloadPolicy,
  discordFilePolicy,
  isNonPublicAddress,
  type ResolveAll,
  refusal,
  slackFilePolicy,
} from '../../../src/platforms/shared/download-policy.js';
import { type HttpFake, startHttpFake } from '../../helpers/http-fake.js';

/** Limits allowing the fake as the configured API host (loopback allowed for it, as in the platform tests). */
const limitsFor = (server: HttpFake, extra: Partial<DownloadLimits> = {}): DownloadLimits => ({
  maxBytes: 1000,
  policy: createDownloadPolicy({ label: 'the test hosts', hosts: [], apiUrl: server.url }),
  ...extra,
});

describe('downloading an attached file', () => {
  let server: HttpFake | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('names a failed download and why, without throwing', async () => {
    server = await startHttpFake((_, res) => void res.writeHead(404).end());
    const file = { name: 'a.txt', mediaType: 'text/plain', size: 10, url: `${server.url}/a.txt` };
    expect(await downloadAttachment(file, limitsFor(server))).toMatchObject({
      kind: 'skipped',
      note: 'could not be downloaded (HTTP 404)',
    });
  });

  it('gives up after the timeout', async () => {
    server = await startHttpFake(() => new Promise(() => {}));
    const file = { name: 'slow.txt', size: 10, url: `${server.url}/slow.txt` };
    expect(await downloadAttachment(file, limitsFor(server, { timeoutMs: 200 }))).toMatchObject({
      kind: 'skipped',
      note: 'the download timed out',
    });
  });

  it('takes a sign-in page for a refusal', async () => {
    server = await startHttpFake((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>');
    });
    const file = { name: 'notes.md', size: 10, url: `${server.url}/notes.md` };
    expect(await downloadAttachment(file, limitsFor(server))).toMatchObject({
      kind: 'skipped',
      note: 'could not be downloaded (the bot may lack the permission to read files)',
    });
  });

  it('does not fetch an image said to be over 5 MB, nor a file of unknown type', async () => {
    server = await startHttpFake(() => ({}));
    const big = { name: 'photo.jpg', mediaType: 'image/jpeg', size: 6_000_000, url: `${server.url}/p` };
    expect(await downloadAttachment(big, limitsFor(server))).toMatchObject({
      kind: 'skipped',
      note: 'images over 5 MB are not read',
    });
    const binary = { name: 'app.exe', size: 10, url: `${server.url}/app.exe` };
    expect(await downloadAttachment(binary, limitsFor(server))).toMatchObject({
      kind: 'skipped',
      mediaType: 'unknown type',
      note: 'binary or unknown type, not read',
    });
    expect(server.requests).toEqual([]);
  });

  it('reads source code whatever type the platform guessed, and skips text with NUL bytes', async () => {
    server = await startHttpFake((req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp2t' });
      res.end(req.url.pathname === '/main.ts' ? 'export const x = 1;\n' : 'abc\0def');
    });
    const code = { name: 'main.ts', mediaType: 'video/mp2t', size: 20, url: `${server.url}/main.ts` };
    expect(await downloadAttachment(code, limitsFor(server))).toMatchObject({
      kind: 'text',
      mediaType: 'text/plain',
      text: 'export const x = 1;\n',
    });
    const odd = { name: 'data.log', size: 7, url: `${server.url}/data.log` };
    expect(await downloadAttachment(odd, limitsFor(server))).toMatchObject({
      kind: 'skipped',
      note: 'binary content, not read',
    });
  });
});

const TOKEN = 'xoxb-secret-bot-token';
const text = (res: import('node:http').ServerResponse, body: string) =>
  void res.writeHead(200, { 'content-type': 'text/plain' }).end(body);

describe('where an attachment may be downloaded from', () => {
  const servers: HttpFake[] = [];
  const serve = async (...args: Parameters<typeof startHttpFake>) => {
    const server = await startHttpFake(...args);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('skips a file on any other host without asking it anything, its header included', async () => {
    const home = await serve((_, res) => text(res, 'home'));
    const elsewhere = await serve((_, res) => text(res, 'elsewhere'));
    const file = {
      name: 'a.txt',
      size: 4,
      url: `${elsewhere.url}/a.txt`,
      headers: { Authorization: `Bearer ${TOKEN}` },
    };
    expect(await downloadAttachment(file, limitsFor(home))).toMatchObject({
      kind: 'skipped',
      note: 'not on the test hosts, not downloaded',
    });
    expect(elsewhere.requests).toEqual([]);
    expect(home.requests).toEqual([]);
  });

  it('follows redirects within the allowed hosts, with the header, and at most MAX_REDIRECTS of them', async () => {
    const home = await serve((req, res) => {
      const hop = Number(req.url.pathname.slice(1));
      if (req.url.pathname === '/file') return text(res, 'the file');
      if (hop === 2) return void res.writeHead(302, { location: '/file' }).end();
      res.writeHead(302, { location: `/${hop + 1}` }).end();
    });
    const file = {
      name: 'a.txt',
      size: 8,
      url: `${home.url}/1`,
      headers: { Authorization: `Bearer ${TOKEN}` },
    };
    expect(await downloadAttachment(file, limitsFor(home))).toMatchObject({ kind: 'text', text: 'the file' });
    expect(home.requests.map((r) => [r.url.pathname, r.headers.authorization])).toEqual([
      ['/1', `Bearer ${TOKEN}`],
      ['/2', `Bearer ${TOKEN}`],
      ['/file', `Bearer ${TOKEN}`],
    ]);

    const loop = { ...file, url: `${home.url}/10` };
    home.requests.length = 0;
    expect(await downloadAttachment(loop, limitsFor(home))).toMatchObject({
      kind: 'skipped',
      note: 'too many redirects, not downloaded',
    });
    expect(home.requests).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('refuses a redirect to another host: it gets no request, and the token is in no note or log line', async () => {
    const elsewhere = await serve((_, res) => text(res, 'elsewhere'));
    const home = await serve(
      (_, res) => void res.writeHead(307, { location: `${elsewhere.url}/steal` }).end(),
    );
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', secrets: [], write: (line) => lines.push(line) });
    const file = {
      name: 'a.txt',
      size: 4,
      url: `${home.url}/a`,
      headers: { Authorization: `Bearer ${TOKEN}` },
    };
    const result = await downloadAttachment(file, limitsFor(home, { logger }));
    expect(result).toMatchObject({
      kind: 'skipped',
      note: 'redirected away from the test hosts, not followed',
    });
    expect(elsewhere.requests).toEqual([]);
    expect(lines.join('\n')).toContain('redirected off the file hosts');
    expect(JSON.stringify(result) + lines.join('\n')).not.toContain(TOKEN);
  });

  it('never connects to a loopback address the configured API host is not, by name or by address', async () => {
    const local = await serve((_, res) => text(res, 'internal'));
    const port = new URL(local.url).port;
    const apiUrl = 'https://api.example.test/';
    for (const origin of [
      `http://localhost:${port}`,
      `http://127.0.0.1:${port}`,
      `http://[::ffff:127.0.0.1]:${port}`,
    ]) {
      const policy = createDownloadPolicy({ label: 'the test hosts', hosts: [origin], apiUrl });
      const file = { name: 'a.txt', size: 8, url: `${origin}/a.txt` };
      expect(await downloadAttachment(file, { maxBytes: 1000, policy })).toMatchObject({
        kind: 'skipped',
        note: 'its host has a private network address, not downloaded',
      });
    }
    expect(local.requests).toEqual([]);
  });

  it('checks the addresses a name resolves to when it connects, so a rebound name is refused', async () => {
    const local = await serve((_, res) => text(res, 'internal'));
    const port = new URL(local.url).port;
    const asked: string[] = [];
    const answers: LookupAddress[][] = [
      [{ address: '127.0.0.1', family: 4 }],
      [
        { address: '93.184.216.34', family: 4 },
        { address: '10.1.2.3', family: 4 },
      ],
    ];
    const resolve: ResolveAll = (hostname, _options, callback) => {
      asked.push(hostname);
      callback(null, answers[asked.length - 1] ?? []);
    };
    const origin = `http://files.example.test:${port}`;
    const policy = createDownloadPolicy({
      label: 'the test hosts',
      hosts: [origin],
      apiUrl: 'https://api.example.test/',
      resolve,
    });
    for (const _ of answers) {
      expect(
        await downloadAttachment(
          { name: 'a.txt', size: 8, url: `${origin}/a.txt` },
          { maxBytes: 1000, policy },
        ),
      ).toMatchObject({ kind: 'skipped', note: 'its host has a private network address, not downloaded' });
    }
    expect(asked).toEqual(['files.example.test', 'files.example.test']);
    expect(local.requests).toEqual([]);
  });

  it('allows Slack files only from files.slack.com and SLACK_API_URL, over HTTPS', () => {
    const slack = slackFilePolicy('https://slack.com/api/');
    const allowed = (url: string, policy: DownloadPolicy = slack) => refusal(policy, url) === undefined;
    expect(allowed('https://files.slack.com/files-pri/T1-F1/download/a.txt')).toBe(true);
    expect(allowed('https://FILES.slack.com/files-pri/T1-F1/a.txt')).toBe(true);
    expect(allowed('https://slack.com/files-pri/T1-F1/a.txt')).toBe(true);
    for (const url of [
      'http://files.slack.com/files-pri/T1-F1/a.txt',
      'https://files.slack.com:8443/a.txt',
      'https://files.slack.com.evil.example/a.txt',
      'https://evil.example/?https://files.slack.com/',
      'https://user:pass@files.slack.com/a.txt',
      'https://docs.google.com/document/d/1',
      'http://127.0.0.1:8080/a.txt',
    ])
      expect([url, refusal(slack, url)]).toEqual([url, "not on Slack's file hosts"]);
    expect(refusal(slack, 'not a url')).toBe('its address is not valid');
    expect(allowed('http://127.0.0.1:3000/files/F1', slackFilePolicy('http://127.0.0.1:3000/api/'))).toBe(
      true,
    );
  });

  it("allows Discord attachments only from Discord's CDN and DISCORD_API_URL", () => {
    const discord = discordFilePolicy('https://discord.com/api');
    expect(
      refusal(discord, 'https://cdn.discordapp.com/attachments/1/2/a.txt?ex=1&is=2&hm=3'),
    ).toBeUndefined();
    expect(refusal(discord, 'https://media.discordapp.net/attachments/1/2/a.png')).toBeUndefined();
    expect(refusal(discord, 'https://cdn.discordapp.com.evil.example/a.txt')).toBe("not on Discord's CDN");
    expect(refusal(discord, 'http://cdn.discordapp.com/a.txt')).toBe("not on Discord's CDN");
    expect(refusal(discord, 'https://evil.example/a.txt')).toBe("not on Discord's CDN");
  });

  it('knows private, loopback and link-local addresses, IPv4 inside IPv6 included', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.8',
      '172.20.1.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::1',
      'not an address',
    ])
      expect([address, isNonPublicAddress(address)]).toEqual([address, true]);
    for (const address of ['93.184.216.34', '2606:4700::1111', '::ffff:93.184.216.34', '64:ff9b::8.8.8.8'])
      expect([address, isNonPublicAddress(address)]).toEqual([address, false]);
  });
});
