import { Struct } from 'superstruct';
import {
  COLLECTION_ACTIONS,
  MAX_COLLECTION_NOTE_LENGTH,
  MAX_GRACE_DAYS,
  MORATORY_RATE_TEXT,
} from '../../src/domain/delinquency';
import { INVOICE_STATUS_CODES } from '../../src/domain/invoice-status';
import { EXACT_COUNT_LIMIT } from '../../src/domain/list-count';
import { formatCurrency, MAX_MONEY_INPUT } from '../../src/domain/money';
import { PHONE_DIGITS, PHONE_PATTERN } from '../../src/domain/phone';
import { SAT_STATUS_CODES } from '../../src/domain/sat-status';
import {
  MAX_LENGTH,
  MAX_SERIAL_ID,
  MONEY_INPUT,
  PASSWORD_MIN_LENGTH,
  QUOTED_MONEY,
  USERNAME_PATTERN,
} from '../../src/domain/schemas/fields';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

// biome-ignore lint/suspicious/noExplicitAny: any struct, whatever it validates to.
export type AnyStruct = Struct<any, any>;

/**
 * The JSON Schema of each superstruct type name in use: superstruct's own types, and the names the field checks
 * of src/domain/schemas give their `define` (fields.ts, common.ts). A name missing here comes out as `{}` (any),
 * which the OpenAPI test refuses for request bodies: add it when a new kind of field appears.
 */
const SCHEMA_BY_TYPE: Readonly<Record<string, JsonSchema>> = {
  string: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  requiredText: { type: 'string', minLength: 1 },
  requiredSecret: { type: 'string', minLength: 1 },
  username: { type: 'string', maxLength: MAX_LENGTH.username, pattern: USERNAME_PATTERN.source },
  email: { type: 'string', format: 'email' },
  phone: {
    type: 'string',
    pattern: PHONE_PATTERN.source,
    description: `Teléfono de ${PHONE_DIGITS} dígitos; se leen espacios, guiones, puntos y paréntesis, y se guardan solo los dígitos`,
  },
  password: { type: 'string', minLength: PASSWORD_MIN_LENGTH },
  flag: { type: 'boolean', default: false },
  rfc: { type: 'string', description: 'RFC del contribuyente (12 o 13 caracteres)' },
  paymentDate: { type: 'string', format: 'date' },
  bulkPaymentDate: { type: 'string', format: 'date' },
  requiredDate: { type: 'string', format: 'date' },
  integerBetween: { type: 'integer' },
  queryInteger: { type: 'integer' },
  pathId: { type: 'integer', minimum: 1, maximum: MAX_SERIAL_ID },
  queryChoice: { type: 'string' },
  queryText: { type: 'string' },
  positiveMoney: {
    type: 'string',
    pattern: MONEY_INPUT.source,
    description: `Pesos, mayor a cero y hasta ${formatCurrency(MAX_MONEY_INPUT)}`,
  },
  quotedMoney: {
    type: 'string',
    pattern: QUOTED_MONEY.source,
    description: `Pesos con dos decimales, como los escribió la cotización, hasta ${formatCurrency(MAX_MONEY_INPUT)}`,
  },
  patternText: { type: 'string', minLength: 1 },
  IsoDate: { type: 'string', format: 'date' },
  MoneyAmount: { type: 'string', pattern: '^-?\\d{1,16}\\.\\d{2}$' },
  CountIsEstimate: {
    type: 'boolean',
    description: `true: la búsqueda encontró más de ${EXACT_COUNT_LIMIT.toLocaleString('en-US')} facturas y no es una sola palabra (dos palabras, un folio, o una búsqueda con estatus o periodo); count es ese límite (hay más) y los indicadores omiten total, total_usd, suppliers_customers y providers. Una búsqueda de una sola palabra (letras y dígitos, al menos 3 caracteres) se cuenta exacta a cualquier tamaño, con sus sumas. Las filas de la página son exactas.`,
  },
  InvoiceStatusCode: { type: 'integer', enum: [...INVOICE_STATUS_CODES] },
  SatStatusCode: { type: 'integer', enum: [...SAT_STATUS_CODES] },
  record: { type: 'object' },
  // Delinquency (decision 0068): a programme's grace days and moratory rate, a collection log entry.
  graceDays: { type: 'integer', minimum: 0, maximum: MAX_GRACE_DAYS },
  moratoryRate: {
    type: 'string',
    pattern: MORATORY_RATE_TEXT.source,
    description: 'Tasa moratoria anual en %',
  },
  collectionAction: { type: 'string', enum: [...COLLECTION_ACTIONS] },
  collectionNote: { type: 'string', maxLength: MAX_COLLECTION_NOTE_LENGTH },
};

export function isStruct(value: unknown): value is AnyStruct {
  return value instanceof Struct;
}

/** True when the struct accepts a missing value (optional, or defaulted as the form checkboxes are). */
function acceptsMissing(struct: AnyStruct): boolean {
  return struct.validate(undefined, { coerce: true })[0] === undefined;
}

function withNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * The JSON Schema of a superstruct struct, for the OpenAPI document: object keys (required unless the struct
 * accepts them missing), arrays, enums, literals and the named field checks. Refinements (lengths, cross-field
 * rules) stay in the struct; the document names the fields and their types.
 */
export function structToJsonSchema(struct: AnyStruct): JsonSchema {
  const schema = ((): JsonSchema => {
    switch (struct.type) {
      case 'object':
      case 'type': {
        const fields = (struct.schema ?? {}) as Record<string, AnyStruct>;
        const properties = Object.fromEntries(
          Object.entries(fields).map(([key, field]) => [key, structToJsonSchema(field)]),
        );
        const required = Object.entries(fields)
          .filter(([, field]) => !acceptsMissing(field))
          .map(([key]) => key);
        return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
      }
      case 'array':
        return { type: 'array', items: isStruct(struct.schema) ? structToJsonSchema(struct.schema) : {} };
      case 'enums':
        return { enum: Object.values(struct.schema as Record<string, unknown>) };
      case 'literal':
        return { const: struct.schema };
      default:
        return { ...(SCHEMA_BY_TYPE[struct.type] ?? {}) };
    }
  })();
  // nullable() keeps the inner type name and only widens the validator.
  return struct.validate(null)[0] === undefined ? withNull(schema) : schema;
}
