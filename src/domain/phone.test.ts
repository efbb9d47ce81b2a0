import { describe, expect, it } from 'vitest';
import { PHONE_MESSAGE, phoneDigits } from './phone';
import { DemoRequest, ProfileUpdate, Referral } from './schemas/session';
import { fieldErrors } from './schemas/validate';

describe('phoneDigits (issue 33: phone numbers are 10 digits)', () => {
  it('keeps the 10 digits of a number written with the usual separators', () => {
    expect(phoneDigits('5512345678')).toBe('5512345678');
    expect(phoneDigits(' 55 1234 5678 ')).toBe('5512345678');
    expect(phoneDigits('(55) 1234-5678')).toBe('5512345678');
    expect(phoneDigits('55.1234.5678')).toBe('5512345678');
  });

  it('refuses letters, too few and too many digits', () => {
    for (const text of [
      '55-ABC',
      '123',
      '551234567',
      '55123456789',
      '+52 55 1234 5678',
      '',
      '５５１２３４５６７８',
    ]) {
      expect(phoneDigits(text), text).toBeNull();
    }
  });
});

describe('the phone fields of the shared structs (client forms and server routes)', () => {
  it('give the one Spanish message, and the required text when blank', () => {
    const profile = { first_name: 'a', last_name: 'b', company: 'c', receive_notification: false };
    expect(fieldErrors(ProfileUpdate, { ...profile, mobile_phone: '55-ABC' })).toEqual({
      mobile_phone: [PHONE_MESSAGE],
    });
    expect(fieldErrors(ProfileUpdate, { ...profile, mobile_phone: ' ' })).toEqual({
      mobile_phone: ['Este campo es obligatorio'],
    });
    expect(fieldErrors(Referral, { name: 'a', company: 'b', email: 'c@d.mx', phone: '123' })).toEqual({
      phone: [PHONE_MESSAGE],
    });
    const demo = { first_name: 'a', last_name: 'b', email: 'c@d.mx', company: 'e' };
    expect(fieldErrors(DemoRequest, { ...demo, phone: '55-ABC' })).toEqual({ phone: [PHONE_MESSAGE] });
    expect(fieldErrors(DemoRequest, { ...demo, phone: '55 1234 5678' })).toEqual({});
  });
});
