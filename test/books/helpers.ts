// Shared set-up of the book library suites: a runtime with the small catalog, users made through the admin API.
import assert from 'node:assert/strict';
import { google } from 'googleapis';
import { call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

export { DEV_API_KEY, DEV_TOKEN } from '../helpers/runtime.ts';

export const BOOKS_SCOPE = 'https://www.googleapis.com/auth/books';

export function startBooks(database: 'sqlite' | 'postgres', catalog: 'sample' | 'shipped' | 'none' = 'sample', clockStart = Date.parse('2026-02-01T09:00:00Z')): Promise<TestRuntime> {
  return startTestRuntime({ services: ['books'], database, clock: 'manual', clockStart, settings: { books: { catalog } } });
}

export interface TestUser {
  id: string;
  token: string;
  apiKey: string;
}

/** A user principal with a books-scoped token and an API key, made through the admin API. */
export async function createUser(t: TestRuntime, id: string, scopes = [BOOKS_SCOPE]): Promise<TestUser> {
  let res = await call(`${t.adminUrl}/principals`, { body: { id, kind: 'user', name: `Reader ${id}` } });
  assert.equal(res.status, 201, res.text);
  res = await call(`${t.adminUrl}/principals/${id}/credentials`, { body: { type: 'bearer', scopes } });
  assert.equal(res.status, 201, res.text);
  const token = res.body.value as string;
  res = await call(`${t.adminUrl}/principals/${id}/credentials`, { body: { type: 'api_key' } });
  assert.equal(res.status, 201, res.text);
  return { id, token, apiKey: res.body.value as string };
}

/** The googleapis Books client with an API key or a bearer token. */
export function booksClient(t: TestRuntime, credential: { apiKey?: string; token?: string }) {
  if (credential.token) {
    const auth = new google.auth.OAuth2();
    auth.setCredentials({ access_token: credential.token });
    return google.books({ version: 'v1', rootUrl: t.url('books') + '/', auth });
  }
  return google.books({ version: 'v1', rootUrl: t.url('books') + '/', auth: credential.apiKey });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The id of a volume found by a search (the first hit). */
export async function findVolumeId(t: TestRuntime, key: string, q: string): Promise<string> {
  const res = await call(`${t.url('books')}/books/v1/volumes?key=${key}&q=${encodeURIComponent(q)}`);
  assert.equal(res.status, 200, res.text);
  assert.ok(res.body.items?.length, `no volume for ${q}`);
  return res.body.items[0].id;
}
