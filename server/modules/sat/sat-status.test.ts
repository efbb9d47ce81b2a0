import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CFDI_QR_URL,
  cfdiStatusExpression,
  formatStatusTotal,
  type StatusExpressionFields,
} from '../../cfdi/cfdi-expression';
import { answerStatusRequest, SANDBOX_STATUS_ANSWERS } from './sandbox-sat-status';
import {
  createSatStatusClient,
  SAT_STATUS_MAX_RESPONSE_BYTES,
  SatStatusUnavailableError,
} from './sat-status-client';
import {
  parseStatusRequest,
  parseStatusResponse,
  SAT_STATUS_SOAP_ACTION,
  type SatDocumentState,
  SatStatusProtocolError,
  statusRequestEnvelope,
  statusResponseEnvelope,
} from './sat-status-soap';

// A seal is 344 base64 characters; only its last 8 travel. These end like phpcfdi's examples.
const SEAL_ENDING = (tail: string): string => `${'A'.repeat(336)}${tail}`;
const VIGENTE_UUID = 'CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC';
const CANCELADO_UUID = '3BE40815-916C-4C91-84E2-6070D4BC3949';
const UNKNOWN_UUID = '66933DFF-5507-5460-9EF0-9D0BB068A54A';

function expressionFor(uuid: string, overrides: Partial<Parameters<typeof cfdiStatusExpression>[0]> = {}) {
  return cfdiStatusExpression({
    uuid,
    issuerRfc: 'POT9207213D6',
    receiverRfc: 'DIM8701081LA',
    total: '2010.01',
    seal: SEAL_ENDING('/OAgdg=='),
    ...overrides,
  });
}

describe('the expression (phpcfdi/cfdi-expresiones)', () => {
  it.each([
    ['1160.00', '1160.0'],
    ['14500.000000', '14500.0'],
    ['2010.01', '2010.01'],
    ['123.45', '123.45'],
    ['0.123456', '0.123456'],
    ['0.1234561', '0.123456'],
    ['0.1234565', '0.123457'],
    ['1000.00000', '1000.0'],
    ['0', '0.0'],
    ['0.00', '0.0'],
    ['0099.9999995', '100.0'],
  ])('formats total %s as %s', (total, expected) => {
    expect(formatStatusTotal(total)).toBe(expected);
  });

  it('refuses a total that is not a decimal', () => {
    expect(() => formatStatusTotal('1,160.00')).toThrow(RangeError);
    expect(() => formatStatusTotal('')).toThrow(RangeError);
  });

  it("is the QR code's URL, as in phpcfdi's CFDI 3.3 example", () => {
    expect(expressionFor(VIGENTE_UUID)).toBe(
      `${CFDI_QR_URL}?id=CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC&re=POT9207213D6&rr=DIM8701081LA&tt=2010.01&fe=/OAgdg==`,
    );
  });

  it('writes an RFC with & as &amp; and keeps Ñ, as phpcfdi does', () => {
    const expression = cfdiStatusExpression({
      uuid: VIGENTE_UUID,
      issuerRfc: 'Ñ&A010101AAA',
      receiverRfc: 'Ñ&A991231AA0',
      total: '1234.5678',
      seal: SEAL_ENDING('23456789'),
    });
    expect(expression).toBe(
      `${CFDI_QR_URL}?id=CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC&re=Ñ&amp;A010101AAA&rr=Ñ&amp;A991231AA0&tt=1234.5678&fe=23456789`,
    );
  });

  it('refuses values no stamped CFDI has', () => {
    expect(() => expressionFor('not-a-uuid')).toThrow(RangeError);
    expect(() => expressionFor(VIGENTE_UUID, { issuerRfc: 'POT9207213D6&rr=X' })).toThrow(RangeError);
    expect(() => expressionFor(VIGENTE_UUID, { seal: 'short' })).toThrow(RangeError);
  });
});

describe('the SOAP messages', () => {
  it('puts the expression in a Consulta request the sandbox reads back, in either form SAT takes', () => {
    const expression = expressionFor(VIGENTE_UUID, { issuerRfc: 'A&A050908GT0' });
    const envelope = statusRequestEnvelope(expression);
    expect(envelope).toContain('re=A&amp;amp;A050908GT0');
    expect(parseStatusRequest(envelope)).toEqual({
      expression,
      fields: { id: VIGENTE_UUID, re: 'A&A050908GT0', rr: 'DIM8701081LA', tt: '2010.01', fe: '/OAgdg==' },
    });
    const curlForm = `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tem="http://tempuri.org/">
      <soapenv:Header/><soapenv:Body><tem:Consulta><tem:expresionImpresa>
        <![CDATA[?re=CAU180123GEA&rr=GACM650215GH9&tt=398.39&id=699628be-2f06-4bc9-adc2-860b51eecbca&fe=uDu8/g==]]>
      </tem:expresionImpresa></tem:Consulta></soapenv:Body></soapenv:Envelope>`;
    expect(parseStatusRequest(curlForm)?.fields).toEqual({
      re: 'CAU180123GEA',
      rr: 'GACM650215GH9',
      tt: '398.39',
      id: '699628be-2f06-4bc9-adc2-860b51eecbca',
      fe: 'uDu8/g==',
    });
  });

  it.each([
    ['not XML', 'hello'],
    ['a DTD', `<!DOCTYPE x [<!ENTITY a "b">]>${statusRequestEnvelope(expressionFor(VIGENTE_UUID))}`],
    ['another operation', statusRequestEnvelope(expressionFor(VIGENTE_UUID)).replaceAll('Consulta', 'Otra')],
    ['no fe', statusRequestEnvelope(expressionFor(VIGENTE_UUID).replace(/&fe=.*$/, ''))],
    ['a repeated key', statusRequestEnvelope(`${expressionFor(VIGENTE_UUID)}&re=POT9207213D6`)],
    ['an unknown key', statusRequestEnvelope(`${expressionFor(VIGENTE_UUID)}&xx=1`)],
    ['a bare & in an RFC', statusRequestEnvelope(expressionFor(VIGENTE_UUID).replace('POT', 'P&T'))],
    ['another URL', statusRequestEnvelope(expressionFor(VIGENTE_UUID).replace('verificacfdi', 'evil'))],
  ])('refuses a request with %s', (_label, body) => {
    expect(parseStatusRequest(body)).toBeNull();
  });

  it("reads phpcfdi's recorded response, which predates ValidacionEFOS", () => {
    const recorded = `<?xml version="1.0" encoding="UTF-8"?>
<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">
    <s:Body>
        <ConsultaResponse xmlns="http://tempuri.org/">
            <ConsultaResult xmlns:a="http://schemas.datacontract.org/2004/07/Sat.Cfdi.Negocio.ConsultaCfdi.Servicio">
                <a:CodigoEstatus>S - Comprobante obtenido satisfactoriamente.</a:CodigoEstatus>
                <a:EsCancelable>Cancelable con aceptación</a:EsCancelable>
                <a:Estado>Vigente</a:Estado>
                <a:EstatusCancelacion>Solicitud rechazada</a:EstatusCancelacion>
            </ConsultaResult>
        </ConsultaResponse>
    </s:Body>
</s:Envelope>`;
    expect(parseStatusResponse(recorded)).toEqual({
      codigoEstatus: 'S - Comprobante obtenido satisfactoriamente.',
      estado: 'Vigente',
      esCancelable: 'Cancelable con aceptación',
      estatusCancelacion: 'Solicitud rechazada',
      validacionEfos: '',
    });
  });

  it('round-trips every sandbox answer, empty fields sent as i:nil', () => {
    for (const answer of Object.values(SANDBOX_STATUS_ANSWERS)) {
      expect(parseStatusResponse(statusResponseEnvelope(answer))).toEqual(answer);
    }
    expect(statusResponseEnvelope(SANDBOX_STATUS_ANSWERS.Vigente)).toContain(
      '<a:EstatusCancelacion i:nil="true"/>',
    );
  });

  it('maps an invalid-expression answer to No Encontrado, never to a pass', () => {
    const invalid = statusResponseEnvelope({
      codigoEstatus: 'N - 601: La expresión impresa proporcionada no es válida.',
      estado: 'No Encontrado',
      esCancelable: '',
      estatusCancelacion: '',
      validacionEfos: '',
    });
    expect(parseStatusResponse(invalid).estado).toBe('No Encontrado');
  });

  it.each([
    ['HTML', '<html><body>Service Unavailable</body></html>'],
    ['not XML', 'garbage'],
    [
      'a SOAP fault',
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>x</faultstring></s:Fault></s:Body></s:Envelope>',
    ],
    [
      'no CodigoEstatus',
      statusResponseEnvelope(SANDBOX_STATUS_ANSWERS.Vigente).replace(
        /<a:CodigoEstatus>.*?<\/a:CodigoEstatus>/,
        '',
      ),
    ],
    [
      'Vigente with a failure code',
      statusResponseEnvelope({
        ...SANDBOX_STATUS_ANSWERS.Vigente,
        codigoEstatus: 'N - 602: Comprobante no encontrado.',
      }),
    ],
    [
      'an unknown Estado',
      statusResponseEnvelope(SANDBOX_STATUS_ANSWERS.Vigente).replace('>Vigente<', '>Suspendido<'),
    ],
    [
      'fields in another namespace',
      statusResponseEnvelope(SANDBOX_STATUS_ANSWERS.Vigente).replace('Sat.Cfdi.Negocio', 'Otro'),
    ],
  ])('throws SatStatusProtocolError on %s', (_label, body) => {
    expect(() => parseStatusResponse(body)).toThrow(SatStatusProtocolError);
  });
});

describe('the client against the sandbox over TCP', () => {
  const states = new Map<string, SatDocumentState>([
    [VIGENTE_UUID, 'Vigente'],
    [CANCELADO_UUID, 'Cancelado'],
  ]);
  const seen: { fields: StatusExpressionFields; headers: IncomingHttpHeaders }[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/hang') return; // holds the request until afterAll closes the connection
      if (request.url === '/500') {
        response.writeHead(500, { 'Content-Type': 'text/html' }).end('<html>Error</html>');
        return;
      }
      if (request.url === '/garbage') {
        response.writeHead(200, { 'Content-Type': 'text/xml' }).end('<<<not a soap answer');
        return;
      }
      if (request.url === '/huge') {
        response
          .writeHead(200, { 'Content-Type': 'text/xml' })
          .end(' '.repeat(SAT_STATUS_MAX_RESPONSE_BYTES + 1));
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const decide = async (fields: StatusExpressionFields): Promise<SatDocumentState> => {
          seen.push({ fields, headers: request.headers });
          return states.get(fields.id.toUpperCase()) ?? 'No Encontrado';
        };
        answerStatusRequest(Buffer.concat(chunks).toString('utf8'), decide).then(
          (answer) =>
            response.writeHead(answer.status, { 'Content-Type': 'text/xml; charset=utf-8' }).end(answer.body),
          () => response.writeHead(500).end(),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const client = (path = '/ConsultaCFDIService.svc', timeoutMs = 5_000) =>
    createSatStatusClient({ url: `${base}${path}`, timeoutMs });

  async function failureOf(promise: Promise<unknown>): Promise<SatStatusUnavailableError> {
    const error = await promise.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(SatStatusUnavailableError);
    expect((error as Error).message).toBe('El SAT no respondió.');
    return error as SatStatusUnavailableError;
  }

  it.each([
    [VIGENTE_UUID, 'Vigente'],
    [CANCELADO_UUID, 'Cancelado'],
    [UNKNOWN_UUID, 'No Encontrado'],
  ] as const)('%s comes back %s', async (uuid, state) => {
    const answer = await client().consult(expressionFor(uuid));
    expect(answer).toEqual(SANDBOX_STATUS_ANSWERS[state]);
  });

  it('sends the headers SAT expects', async () => {
    seen.length = 0;
    await client().consult(expressionFor(VIGENTE_UUID));
    expect(seen[0]?.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(seen[0]?.headers.soapaction).toBe(`"${SAT_STATUS_SOAP_ACTION}"`);
  });

  it('carries RFCs with & and Ñ intact', async () => {
    seen.length = 0;
    const expression = expressionFor(VIGENTE_UUID, {
      issuerRfc: 'A&A050908GT0',
      receiverRfc: 'CAÑA360510556',
    });
    expect((await client().consult(expression)).estado).toBe('Vigente');
    expect(seen[0]?.fields).toMatchObject({ re: 'A&A050908GT0', rr: 'CAÑA360510556' });
  });

  it('gets a SOAP fault (HTTP 500) for a malformed expression, which the client reports as http', async () => {
    const fault = await answerStatusRequest(statusRequestEnvelope('?re=nada'), async () => 'Vigente');
    expect(fault.status).toBe(500);
    expect(fault.body).toContain('<s:Fault>');
    expect((await failureOf(client().consult('?re=nada'))).cause).toBe('http');
  });

  it('gives up after timeoutMs on a server that never answers', async () => {
    const error = await failureOf(client('/hang', 200).consult(expressionFor(VIGENTE_UUID)));
    expect(error.cause).toBe('timeout');
  });

  it('reports HTTP 500 as http', async () => {
    expect((await failureOf(client('/500').consult(expressionFor(VIGENTE_UUID)))).cause).toBe('http');
  });

  it('reports a garbage body as protocol', async () => {
    expect((await failureOf(client('/garbage').consult(expressionFor(VIGENTE_UUID)))).cause).toBe('protocol');
  });

  it('does not read an oversized body', async () => {
    expect((await failureOf(client('/huge').consult(expressionFor(VIGENTE_UUID)))).cause).toBe('protocol');
  });

  it('reports a refused connection as network', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = createSatStatusClient({ url: `http://127.0.0.1:${port}/`, timeoutMs: 5_000 });
    expect((await failureOf(refused.consult(expressionFor(VIGENTE_UUID)))).cause).toBe('network');
  });
});
