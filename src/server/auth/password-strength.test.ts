import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors';
import { temporaryPassword } from './crypto';
import { assertStrongPassword } from './password-strength';

async function refusal(password: string, inputs: string[] = []) {
  try {
    await assertStrongPassword(password, 'password', inputs);
    return null;
  } catch (error) {
    return error instanceof AppError ? error : Promise.reject(error);
  }
}

describe('password strength', () => {
  it.each([
    'password1',
    'password123',
    'qwertyuiop',
    'iloveyou2024',
    'abcd1234efgh',
    'juan12345678',
    'xxxxxxxxxxxx',
    'Summer2024',
    'P@ssw0rd',
    'jeepney8',
  ])('refuses the common or patterned %s on the field, with the catalogue message', async (password) => {
    const error = await refusal(password);
    expect(error?.code).toBe('PASSWORD_TOO_WEAK');
    expect(error?.fields.password).toEqual({
      code: 'PASSWORD_TOO_WEAK',
      message: 'This password is too easy to guess. Add more words or characters.',
    });
  });

  it('counts the account phone and username as guessable', async () => {
    expect(await refusal('09178823456!x')).toBeNull();
    expect((await refusal('09178823456!x', ['09178823456']))?.code).toBe('PASSWORD_TOO_WEAK');
    expect(await refusal('bautista.ramon7')).toBeNull();
    expect((await refusal('bautista.ramon7', ['bautista.ramon']))?.code).toBe('PASSWORD_TOO_WEAK');
  });

  it.each([
    'correct horse 42',
    'borrower-password-1',
    'mangga-kalamansi',
    'a brand new admin pass',
    'kq7!mZ2p', // 8 characters are enough when they follow no pattern
  ])('accepts %s', async (password) => {
    expect(await refusal(password)).toBeNull();
  });

  it('accepts every generated temporary and one-time password (bootstrap admin, staff resets)', async () => {
    for (let i = 0; i < 200; i++) expect(await refusal(temporaryPassword())).toBeNull();
  });
});
