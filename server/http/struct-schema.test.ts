import { array, define, enums, integer, literal, nullable, optional, string, type } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { emailAddress, flag, payload, requiredText } from '../../src/domain/schemas/fields';
import { structToJsonSchema } from './struct-schema';

describe('structToJsonSchema', () => {
  it('lists a payload’s fields, required unless optional or defaulted (the form checkboxes)', () => {
    const schema = structToJsonSchema(
      payload({ name: requiredText(), email: emailAddress(), news: flag(), note: optional(string()) }),
    );
    expect(schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1 },
        email: { type: 'string', format: 'email' },
        news: { type: 'boolean', default: false },
        note: { type: 'string' },
      },
      required: ['name', 'email'],
    });
  });

  it('describes arrays, enums, literals and nullable fields', () => {
    expect(
      structToJsonSchema(
        array(type({ id: integer(), kind: enums(['a', 'b']), v: literal(2), at: nullable(string()) })),
      ),
    ).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          kind: { enum: ['a', 'b'] },
          v: { const: 2 },
          at: { type: ['string', 'null'] },
        },
        required: ['id', 'kind', 'v', 'at'],
      },
    });
  });

  it('leaves a check it does not know untyped, so the OpenAPI test can point at it', () => {
    expect(structToJsonSchema(define('somethingNew', (value) => typeof value === 'string'))).toEqual({});
  });
});
