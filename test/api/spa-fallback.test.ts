import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { DatabaseHandle } from '../../server/db/database';
import { createTestDatabase } from '../support/test-database';

// A stand-in for the vite build: the SPA shell and one prerendered public page (decision 0007).
const SPA_INDEX = '<!doctype html><html><body><div id="root"></div><!-- spa shell --></body></html>';
const PRERENDERED_HOME = '<!doctype html><html><body><h1>Inicio prerenderizado</h1></body></html>';

describe('SPA history fallback', () => {
  let spaDir: string;
  let database: DatabaseHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    spaDir = mkdtempSync(join(tmpdir(), 'flujo-spa-'));
    writeFileSync(join(spaDir, 'index.html'), SPA_INDEX);
    mkdirSync(join(spaDir, 'inicio'));
    writeFileSync(join(spaDir, 'inicio', 'index.html'), PRERENDERED_HOME);
    database = await createTestDatabase();
    app = await buildApp({ database, spaDir });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(spaDir, { recursive: true, force: true });
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it.each(['/auth/ingresar/', '/dashboard/x/', '/dashboard/pronto-pago/?status=60'])(
    '%s gets the SPA index, not cached',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(SPA_INDEX);
    },
  );

  it('/inicio/ gets its prerendered page, not the SPA shell', async () => {
    const res = await get('/inicio/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toBe(PRERENDERED_HOME);
  });

  it('an unknown /api/ path is a JSON 404, never the HTML shell', async () => {
    const res = await get('/api/no-existe/');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ detail: 'No existe GET /api/no-existe/' });
    expect(res.body).not.toContain('<html');
  });

  it('a real API route still answers from its service', async () => {
    const res = await get('/api/health/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
  });
});
