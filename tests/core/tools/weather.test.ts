import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Tool } from '../../../src/core/tools/define-tool.js';
import { weatherTool } from '../../../src/core/tools/weather.js';
import { BERLIN, PARIS_FRANCE, PARIS_TEXAS, startOpenMeteoFake } from '../../fakes/open-meteo.js';
import { testConfig } from '../../helpers/config.js';
import { type HttpFake, startHttpFake } from '../../helpers/http-fake.js';

let fake: HttpFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function toolFor(server: HttpFake): Tool<{ city: string }> {
  const config = testConfig({ OPEN_METEO_GEOCODING_URL: server.url, OPEN_METEO_API_URL: server.url });
  return weatherTool(config) as Tool<{ city: string }>;
}
const weather = (tool: Tool<{ city: string }>, city: string, signal = new AbortController().signal) =>
  tool.execute({ city }, { signal });

describe('weather', () => {
  it('describes current conditions in one sentence', async () => {
    fake = await startOpenMeteoFake({ places: [BERLIN] });
    expect(await weather(toolFor(fake), 'Berlin')).toBe(
      'Berlin, State of Berlin, Germany: 21.4 °C (feels like 20.9 °C), overcast, humidity 58%, ' +
        'wind 12.3 km/h (local time 2024-06-01 14:15).',
    );
  });

  it('geocodes the city, then asks for current conditions at its coordinates', async () => {
    fake = await startOpenMeteoFake({ places: [BERLIN] });
    await weather(toolFor(fake), 'Berlin');
    const [search, forecast] = fake.requests;
    expect(search?.url.pathname).toBe('/v1/search');
    expect(Object.fromEntries(search!.url.searchParams)).toEqual({
      name: 'Berlin',
      count: '1',
      language: 'en',
      format: 'json',
    });
    expect(search?.headers['user-agent']).toMatch(/^thinkthread\//);
    expect(forecast?.url.pathname).toBe('/v1/forecast');
    expect(Object.fromEntries(forecast!.url.searchParams)).toEqual({
      latitude: '52.52437',
      longitude: '13.41053',
      current: 'temperature_2m,relative_humidity_2m,apparent_temperature,weather_code,wind_speed_10m',
      timezone: 'auto',
    });
  });

  it('translates the WMO weather code into words', async () => {
    fake = await startOpenMeteoFake({ current: { weather_code: 95 } });
    expect(await weather(toolFor(fake), 'Berlin')).toContain('thunderstorm');
  });

  it('uses a country after a comma to pick among places of the same name', async () => {
    fake = await startOpenMeteoFake({ places: [PARIS_TEXAS, PARIS_FRANCE] });
    const tool = toolFor(fake);
    expect(await weather(tool, 'Paris, France')).toMatch(/^Paris, Île-de-France, France: /);
    expect(fake.requests[0]?.url.searchParams.get('name')).toBe('Paris');
    expect(fake.requests[0]?.url.searchParams.get('count')).toBe('10');
    expect(await weather(tool, 'Paris')).toMatch(/^Paris, Texas, United States: /);
  });

  it('says so when no place matches, without asking for a forecast', async () => {
    fake = await startOpenMeteoFake({ places: [BERLIN] });
    expect(await weather(toolFor(fake), 'Atlantis')).toMatch(/^No place called "Atlantis" was found/);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a service error briefly', async () => {
    fake = await startHttpFake((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: true, reason: 'Internal Server Error' }));
    });
    await expect(weather(toolFor(fake), 'Berlin')).rejects.toThrow(
      'Open-Meteo geocoding answered HTTP 500: {"error":true,"reason":"Internal Server Error"}',
    );
  });

  it('reports a malformed answer', async () => {
    fake = await startHttpFake((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"results": [');
    });
    await expect(weather(toolFor(fake), 'Berlin')).rejects.toThrow(
      'Open-Meteo geocoding sent a response that is not valid JSON.',
    );
  });

  it('reports a forecast without the expected fields', async () => {
    fake = await startHttpFake((req) =>
      req.url.pathname === '/v1/search' ? { results: [BERLIN] } : { current: { time: 'now' } },
    );
    await expect(weather(toolFor(fake), 'Berlin')).rejects.toThrow(/Open-Meteo sent an unexpected response/);
  });

  it('gives up as soon as the signal aborts', async () => {
    fake = await startHttpFake(() => new Promise(() => {}));
    const controller = new AbortController();
    const pending = weather(toolFor(fake), 'Berlin', controller.signal);
    await vi.waitFor(() => expect(fake?.requests).toHaveLength(1));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});
