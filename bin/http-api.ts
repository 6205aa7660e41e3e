/**
 * What the CLIs that talk to the HTTP API (export, import) share: where the API is, the
 * dev keys of `npm start`, and one call with retries.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Failure } from './cli';

export const DEFAULT_URL = 'http://localhost:3000/v0';

export interface ApiTarget {
  /** The API, ending in /v0. */
  url: string;
  key: string;
}

/** A key `npm start` wrote for the local dev account: the one asked for, else the other. */
export function devKey(level: 'viewer' | 'admin'): string | undefined {
  const file = join(resolve(process.env.DATA_DIR ?? '.data'), 'dev-keys.json');
  if (!existsSync(file)) return undefined;
  const keys = JSON.parse(readFileSync(file, 'utf8')) as { viewer?: string; admin?: string };
  return level === 'viewer' ? (keys.viewer ?? keys.admin) : keys.admin;
}

const RETRIES = 5;

/** One API call; retried on network failures, throttling (429) and 5xx answers, with backoff. */
export async function callApi<T>(target: ApiTarget, operation: string, args: unknown[]): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${target.url}/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `API-KEY ${target.key}` },
        body: JSON.stringify(args),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (attempt >= RETRIES)
        throw new Failure(`Cannot reach ${target.url}: ${(error as Error).message}${target.url === DEFAULT_URL ? ' (is "npm start" running?)' : ''}`);
      await new Promise((wait) => setTimeout(wait, 200 * 2 ** attempt));
      continue;
    }
    if (status === 200) return JSON.parse(text) as T;
    if ((status === 429 || status >= 500) && attempt < RETRIES) {
      await new Promise((wait) => setTimeout(wait, 200 * 2 ** attempt));
      continue;
    }
    let message = text.slice(0, 500);
    try {
      const body = JSON.parse(text) as { error?: string; message?: string; data?: { fields?: { path: string; message: string }[] } };
      const fields = body.data?.fields?.map((field) => `${field.path}: ${field.message}`).join('; ');
      message = `${body.error}: ${body.message}${fields ? ` (${fields})` : ''}`;
    } catch {
      // not an API error body
    }
    throw new Failure(`${operation} answered ${status}: ${message}`);
  }
}
