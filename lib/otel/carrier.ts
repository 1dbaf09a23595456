import type { TextMapGetter } from '@opentelemetry/api';

/**
 * Reads W3C trace context fields (`traceparent`, `tracestate`, `baggage`) from a plain object such as an MCP request's
 * `params._meta`: string values only, anything else is absent.
 */
export const carrierGetter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  },
};

