import { z } from 'zod';
import { defineTool, type ToolFactory } from './define-tool.js';
import { fetchJson, joinUrl } from './http.js';
import { describeWeatherCode } from './weather-codes.js';

const place = z.object({
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  country: z.string().optional(),
  country_code: z.string().optional(),
  admin1: z.string().optional(),
});
type Place = z.output<typeof place>;

const geocoding = z.object({ results: z.array(place).optional() });

const forecast = z.object({
  current_units: z.record(z.string(), z.string()).optional(),
  current: z.object({
    time: z.string(),
    temperature_2m: z.number(),
    relative_humidity_2m: z.number(),
    apparent_temperature: z.number(),
    weather_code: z.number(),
    wind_speed_10m: z.number(),
  }),
});

/** What `weather` reads from the configuration. */
export interface WeatherSettings {
  OPEN_METEO_GEOCODING_URL: string;
  OPEN_METEO_API_URL: string;
}

/** `weather`: current conditions for a city from Open-Meteo (no API key needed). */
export const weatherTool: ToolFactory<WeatherSettings> = (settings) =>
  defineTool({
    name: 'weather',
    description:
      'Current weather for a city: temperature, conditions, humidity and wind, from Open-Meteo. ' +
      'Add the country after a comma when the name is ambiguous, e.g. "Paris, France".',
    input: z.object({
      city: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .describe(
          'City name, optionally followed by a comma and a country or region, e.g. "Springfield, Illinois"',
        ),
    }),
    async execute({ city }, { signal }) {
      const [name = city, ...rest] = city.split(',').map((part) => part.trim());
      const qualifier = rest.join(', ');
      // The geocoder matches names only, so a qualifier is applied to a handful of candidates here.
      const found = await fetchJson(
        joinUrl(settings.OPEN_METEO_GEOCODING_URL, '/v1/search', {
          name,
          count: qualifier ? 10 : 1,
          language: 'en',
          format: 'json',
        }),
        geocoding,
        { service: 'Open-Meteo geocoding', signal },
      );
      const candidates = found.results ?? [];
      const match = candidates.find((p) => matches(p, qualifier)) ?? candidates[0];
      if (!match)
        return `No place called "${city}" was found. Check the spelling or try a nearby larger city.`;

      const { current, current_units: units = {} } = await fetchJson(
        joinUrl(settings.OPEN_METEO_API_URL, '/v1/forecast', {
          latitude: match.latitude,
          longitude: match.longitude,
          current: 'temperature_2m,relative_humidity_2m,apparent_temperature,weather_code,wind_speed_10m',
          timezone: 'auto',
        }),
        forecast,
        { service: 'Open-Meteo', signal },
      );
      const temperatureUnit = units.temperature_2m ?? '°C';
      return (
        `${placeName(match)}: ${current.temperature_2m} ${temperatureUnit} ` +
        `(feels like ${current.apparent_temperature} ${units.apparent_temperature ?? temperatureUnit}), ` +
        `${describeWeatherCode(current.weather_code)}, humidity ${current.relative_humidity_2m}` +
        `${units.relative_humidity_2m ?? '%'}, wind ${current.wind_speed_10m} ${units.wind_speed_10m ?? 'km/h'} ` +
        `(local time ${current.time.replace('T', ' ')}).`
      );
    },
  });

function matches(p: Place, qualifier: string): boolean {
  if (!qualifier) return true;
  const wanted = qualifier.toLowerCase();
  return [p.country, p.country_code, p.admin1].some((v) => v?.toLowerCase() === wanted);
}

function placeName(p: Place): string {
  const parts = [p.name];
  if (p.admin1 && p.admin1 !== p.name) parts.push(p.admin1);
  if (p.country) parts.push(p.country);
  return parts.join(', ');
}
