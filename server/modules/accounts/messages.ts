import { SERVER_MESSAGES } from '../../../src/domain/schemas/session';

// Spanish texts of the user service that the shared structs (src/domain/schemas) do not already hold.

export const ACCOUNT_MESSAGES = {
  registered: 'Tu cuenta se creó correctamente. Ya puedes iniciar sesión.',
  usernameTaken: 'Ya existe un usuario con este nombre de usuario.',
  emailTaken: 'Ya existe un usuario con este correo electrónico.',
  wrongCurrentPassword: 'La contraseña actual es incorrecta.',
  passwordChanged: 'Tu contraseña se actualizó correctamente',
  companyLockedBySat: 'La razón social no se puede cambiar después de la vinculación con el SAT.',
  resetRequested: 'Te enviamos un correo con las instrucciones para restablecer tu contraseña.',
  resetUnknownEmail: SERVER_MESSAGES.unknownResetEmail,
  resetLinkInvalid: 'El enlace para restablecer la contraseña no es válido o expiró.',
  passwordReset: 'Tu contraseña se restableció correctamente.',
} as const;
