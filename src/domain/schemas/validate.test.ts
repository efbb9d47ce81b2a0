import { is } from 'superstruct';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PHONE_MESSAGE } from '../phone';
import { AuthorizeRequestsBody, BulkAuthorizationForm, RejectRequestsBody } from './quotations';
import {
  DemoRequest,
  PasswordChange,
  PasswordReset,
  ProfileUpdate,
  Referral,
  SignUpForm,
  SignUpRequest,
  TaxLink,
} from './session';
import { FieldErrorsResponse, FORM_ERROR_KEY, fieldErrors, validateForm } from './validate';

const demo = {
  first_name: 'Ana',
  last_name: 'Pérez',
  phone: '5512345678',
  email: 'ana@empresa.mx',
  company: 'Tornillos del Norte',
};

describe('fieldErrors(DemoRequest)', () => {
  it('infers the plain payload type', () => {
    expectTypeOf<DemoRequest>().toEqualTypeOf<{
      first_name: string;
      last_name: string;
      phone: string;
      email: string;
      company: string;
    }>();
    expectTypeOf<SignUpRequest['receive_notification']>().toEqualTypeOf<boolean>();
  });

  it('is empty for a valid body', () => {
    expect(fieldErrors(DemoRequest, demo)).toEqual({});
  });

  it('maps failures to the spec messages', () => {
    expect(fieldErrors(DemoRequest, { ...demo, email: 'ana@', company: '   ' })).toEqual({
      email: ['Debe ser un correo valido'],
      company: ['Este campo es obligatorio'],
    });
  });

  it('bounds the company at 150 characters and the names at 150, at the field', () => {
    expect(fieldErrors(DemoRequest, { ...demo, company: 'A'.repeat(150) })).toEqual({});
    expect(
      fieldErrors(DemoRequest, { ...demo, company: 'A'.repeat(151), first_name: 'B'.repeat(151) }),
    ).toEqual({
      first_name: ['Asegúrate de que este campo no tenga más de 150 caracteres.'],
      company: ['Asegúrate de que este campo no tenga más de 150 caracteres.'],
    });
  });

  it('reports missing and non-string fields as required', () => {
    expect(fieldErrors(DemoRequest, { first_name: 42, email: '' })).toEqual({
      first_name: ['Este campo es obligatorio'],
      last_name: ['Este campo es obligatorio'],
      phone: ['Este campo es obligatorio'],
      email: ['Este campo es obligatorio'],
      company: ['Este campo es obligatorio'],
    });
  });

  it.each([null, undefined, [], [demo], 7, 'texto', true])('never throws on garbage: %j', (garbage) => {
    const errors = fieldErrors(DemoRequest, garbage);
    expect(errors[FORM_ERROR_KEY]).toEqual(['Los datos enviados no son válidos']);
    expect(errors.email).toEqual(['Este campo es obligatorio']);
    expect(is({ errors }, FieldErrorsResponse)).toBe(true);
  });

  it('strips unknown fields and trims on the way in', () => {
    const result = validateForm(DemoRequest, { ...demo, company: '  Tornillos  ', admin: true });
    expect(result).toEqual({ ok: true, value: { ...demo, company: 'Tornillos' } });
    expect(DemoRequest.create({ ...demo, admin: true })).toEqual(demo);
    // Without coercion extras are still refused.
    expect(is({ ...demo, admin: true }, DemoRequest)).toBe(false);
    expect(is(demo, DemoRequest)).toBe(true);
  });
});

describe('bodies superstruct cannot word a refusal for', () => {
  it('refuses, as a whole form, a field whose object carries its own toString or valueOf', () => {
    // The RFC's refinement prints the value it refuses: superstruct itself threw a TypeError here.
    for (const hostile of [{ toString: 1 }, { valueOf: {} }, [{ toString: 'x' }]]) {
      expect(validateForm(TaxLink, { rfc: hostile, ciec: 'secreta' })).toEqual({
        ok: false,
        errors: { [FORM_ERROR_KEY]: [expect.any(String)] },
      });
    }
  });

  it('refuses arrays nested deeper than any form', () => {
    let deep: unknown = 'x';
    for (let level = 0; level < 5000; level += 1) deep = [deep];
    expect(validateForm(DemoRequest, { ...demo, email: deep }).ok).toBe(false);
  });
});

describe('password forms', () => {
  const signUp = {
    company: 'ACME',
    email: 'a@b.mx',
    last_name: 'López',
    mobile_phone: '5512345678',
    name: 'Luis',
    password1: 'secreto123',
    password2: 'secreto123',
    username: 'luis',
    receive_notification: true,
    recaptcha_token: 'tok',
  };

  it('accepts a valid sign-up and defaults the notification flag', () => {
    const { receive_notification: _, ...withoutFlag } = signUp;
    expect(validateForm(SignUpRequest, withoutFlag)).toEqual({
      ok: true,
      value: { ...withoutFlag, receive_notification: false },
    });
  });

  it('shows field errors and the mismatch together', () => {
    expect(
      fieldErrors(SignUpRequest, { ...signUp, name: '', password1: 'corta', password2: 'otra' }),
    ).toEqual({
      name: ['Este campo es obligatorio'],
      password1: ['La contraseña debe tener al menos 8 caracteres'],
      password2: ['Las contraseñas deben coincidir'],
    });
    expect(fieldErrors(SignUpRequest, { ...signUp, password1: '', password2: '' })).toEqual({
      password1: ['La contraseña es obligatoria'],
      password2: ['Por favor, confirma tu contraseña'],
    });
  });

  it('reports every broken password rule', () => {
    expect(
      fieldErrors(PasswordChange, { old_password: 'x', new_password1: '1234', new_password2: '1234' }),
    ).toEqual({
      new_password1: [
        'Su contraseña es muy corta. Debe contener al menos 8 caracteres.',
        'Su contraseña no puede ser completamente numérica.',
      ],
    });
    expect(fieldErrors(PasswordReset, { new_password: '12345678', token: 't' })).toEqual({
      new_password: ['Su contraseña no puede ser completamente numérica.'],
    });
  });
});

describe('other forms', () => {
  it('referral phone must be a 10-digit number (issue 33)', () => {
    expect(fieldErrors(Referral, { name: 'a', company: 'b', email: 'c@d.mx', phone: '55-12' })).toEqual({
      phone: [PHONE_MESSAGE],
    });
  });

  it('tax link requires both fields and checks the RFC', () => {
    expect(fieldErrors(TaxLink, {})).toEqual({
      rfc: ['Este campo es obligatorio'],
      ciec: ['Este campo es obligatorio'],
    });
    expect(fieldErrors(TaxLink, { rfc: 'XAXX010101000', ciec: 'x' })).toEqual({
      rfc: ['El RFC genérico no es válido para una empresa'],
    });
    expect(validateForm(TaxLink, { rfc: ' sat970701nn3 ', ciec: ' clave ' })).toEqual({
      ok: true,
      value: { rfc: 'SAT970701NN3', ciec: ' clave ' },
    });
  });

  it('bulk authorization date', () => {
    expect(fieldErrors(BulkAuthorizationForm, {})).toEqual({ payment_date: ['Requerido'] });
    expect(fieldErrors(BulkAuthorizationForm, { payment_date: '2026-02-30' })).toEqual({
      payment_date: ['Debe ser una fecha válida'],
    });
    expect(fieldErrors(BulkAuthorizationForm, { payment_date: '2026-03-02' })).toEqual({});
  });

  it('built-in failures come out in Spanish', () => {
    expect(fieldErrors(FieldErrorsResponse, { errors: { a: [1] } })).toEqual({
      'errors.a.0': ['Valor no válido'],
    });
  });
});

describe('the rules the server shares with the browser', () => {
  const signUp = {
    company: 'Tornillos del Norte',
    email: 'ana@empresa.mx',
    last_name: 'Pérez',
    mobile_phone: '5512345678',
    name: 'Ana',
    password1: 'Tamarindo-Azul-58',
    password2: 'Tamarindo-Azul-58',
    username: 'ana.perez',
  };

  it('sign-up: username rule, column bounds and all-digits password, in the server’s words', () => {
    expect(fieldErrors(SignUpForm, signUp)).toEqual({});
    expect(
      fieldErrors(SignUpForm, {
        ...signUp,
        username: 'ana perez',
        company: 'c'.repeat(256),
        email: `${'m'.repeat(250)}@e.mx`,
        password1: '83920417',
        password2: '83920417',
      }),
    ).toEqual({
      username: [
        'Ingresa un nombre de usuario válido: solo letras, números y los caracteres @ . + - _ (sin espacios).',
      ],
      company: ['Asegúrate de que este campo no tenga más de 255 caracteres.'],
      email: ['Asegúrate de que este campo no tenga más de 254 caracteres.'],
      password1: ['La contraseña no puede ser completamente numérica.'],
    });
    expect(fieldErrors(SignUpForm, { ...signUp, username: 'a'.repeat(151) })).toEqual({
      username: ['Asegúrate de que este campo no tenga más de 150 caracteres.'],
    });
  });

  it('profile: the phone is 10 digits, separators and spaces around aside (issue 33)', () => {
    const profile = {
      first_name: 'Ana',
      last_name: 'Pérez',
      mobile_phone: '5512345678',
      company: 'Tornillos',
    };
    expect(fieldErrors(ProfileUpdate, { ...profile, mobile_phone: ' 55 1234 5678 ' })).toEqual({});
    expect(fieldErrors(ProfileUpdate, { ...profile, mobile_phone: '5'.repeat(11) })).toEqual({
      mobile_phone: [PHONE_MESSAGE],
    });
  });

  it('corporate batches: 1 to 500 invoices, reported on the whole body', () => {
    const item = { invoice_id: 7, payment_date: '2026-05-01' };
    expect(validateForm(AuthorizeRequestsBody, [item])).toEqual({ ok: true, value: [item] });
    expect(fieldErrors(AuthorizeRequestsBody, [])).toEqual({
      [FORM_ERROR_KEY]: ['Selecciona al menos una factura.'],
    });
    expect(
      fieldErrors(
        RejectRequestsBody,
        Array.from({ length: 501 }, (_, i) => ({ invoice_id: i + 1 })),
      ),
    ).toEqual({
      [FORM_ERROR_KEY]: ['Puedes enviar como máximo 500 facturas por solicitud.'],
    });
  });
});
