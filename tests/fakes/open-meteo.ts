import { type HttpFake, startHttpFake } from '../helpers/http-fake.js';

/** A geocoding result as Open-Meteo returns it (fields the tool ignores included, for realism). */
export interface GeoPlace {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  elevation?: number;
  feature_code?: string;
  country_code?: string;
  timezone?: string;
  population?: number;
  country?: string;
  admin1?: string;
}

/** Current conditions as in the `current` block of /v1/forecast. */
export interface CurrentWeather {
  time: string;
  interval: number;
  temperature_2m: number;
  relative_humidity_2m: number;
  apparent_temperature: number;
  weather_code: number;
  wind_speed_10m: number;
}

export const BERLIN: GeoPlace = {
  id: 2950159,
  name: 'Berlin',
  latitude: 52.52437,
  longitude: 13.41053,
  elevation: 74,
  feature_code: 'PPLC',
  country_code: 'DE',
  timezone: 'Europe/Berlin',
  population: 3426354,
  country: 'Germany',
  admin1: 'State of Berlin',
};

export const PARIS_TEXAS: GeoPlace = {
  id: 4717560,
  name: 'Paris',
  latitude: 33.66094,
  longitude: -95.55551,
  feature_code: 'PPLA2',
  country_code: 'US',
  timezone: 'America/Chicago',
  country: 'United States',
  admin1: 'Texas',
};

export const PARIS_FRANCE: GeoPlace = {
  id: 2988507,
  name: 'Paris',
  latitude: 48.85341,
  longitude: 2.3488,
  feature_code: 'PPLC',
  country_code: 'FR',
  timezone: 'Europe/Paris',
  country: 'France',
  admin1: 'Île-de-France',
};

const DEFAULT_CURRENT: CurrentWeather = {
  time: '2024-06-01T14:15',
  interval: 900,
  temperature_2m: 21.4,
  relative_humidity_2m: 58,
  apparent_temperature: 20.9,
  weather_code: 3,
  wind_speed_10m: 12.3,
};

/** Options for {@link startOpenMeteoFake}. */
export interface OpenMeteoFakeOptions {
  /** Places the geocoder knows, in ranking order. */
  places?: GeoPlace[];
  current?: Partial<CurrentWeather>;
}

/** A fake serving both Open-Meteo APIs (geocoding and forecast) on one loopback server. */
export function startOpenMeteoFake(options: OpenMeteoFakeOptions = {}): Promise<HttpFake> {
  const places = options.places ?? [BERLIN];
  return startHttpFake((req, res) => {
    const q = req.url.searchParams;
    if (req.url.pathname === '/v1/search') {
      const name = (q.get('name') ?? '').toLowerCase();
      const count = Number(q.get('count') ?? 10);
      const results = places.filter((p) => p.name.toLowerCase().startsWith(name)).slice(0, count);
      // Like the real API, an empty search has no `results` key at all.
      return results.length > 0 ? { results, generationtime_ms: 0.92 } : { generationtime_ms: 0.31 };
    }
    if (req.url.pathname === '/v1/forecast') {
      return {
        latitude: Number(q.get('latitude')),
        longitude: Number(q.get('longitude')),
        generationtime_ms: 0.05,
        utc_offset_seconds: 7200,
        timezone: 'Europe/Berlin',
        timezone_abbreviation: 'CEST',
        elevation: 38,
        current_units: {
          time: 'iso8601',
          interval: 'seconds',
          temperature_2m: '°C',
          relative_humidity_2m: '%',
          apparent_temperature: '°C',
          weather_code: 'wmo code',
          wind_speed_10m: 'km/h',
        },
        current: { ...DEFAULT_CURRENT, ...options.current },
      };
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: true, reason: 'Not Found' }));
  });
}
