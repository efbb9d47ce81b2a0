import type { FastifyPluginAsync } from 'fastify';
import { MAX_LENGTH, tooLongMessage } from '../../../src/domain/schemas/fields';
import {
  MfaChallengeResponse,
  MfaLoginRequest,
  OPERATOR_LOGIN_MESSAGES,
  OperatorSessionResponse,
} from '../../../src/domain/schemas/operator-session';
import {
  DemoRequest,
  LoginCaptchaRequired,
  LoginRequest,
  LoginResponse,
  PasswordChange,
  PlainMessageResponse,
  Profile,
  ProfileUpdate,
  SERVER_MESSAGES,
  SignUpRequest,
  TokenRefreshRequest,
  TokenRefreshResponse,
} from '../../../src/domain/schemas/session';
import { captchaRoutes } from '../../captcha/captcha.routes';
import { FieldErrors } from '../../http/errors';
import type { RouteDoc } from '../../http/openapi';
import type { RequestGuardConfig } from '../../http/request-guards';
import { structToJsonSchema } from '../../http/struct-schema';
import { currentUser } from '../auth/authenticate';
import { publicWriteLimitDoc } from '../auth/public-write-limits';
import {
  changePassword,
  getProfile,
  login,
  loginWithCode,
  logout,
  passwordChangeRefusal,
  refresh,
  register,
  signUpRefusal,
  throttleSignUp,
  updateProfile,
} from './accounts.service';
import type { AccountsDeps } from './accounts-deps';
import { insertDemoRequest } from './demo-request.repository';
import { dummyPasswordHash } from './password';

export const DEMO_REQUEST_SOURCES = ['solicitar-demo', 'alianzas-corporativas'] as const;

const TOO_MANY = 'Demasiados intentos (cabecera Retry-After con los segundos de espera).';

const DOCS = {
  login: {
    summary: 'Log in',
    description:
      'Inicia sesión: tokens de acceso y de renovación, y los indicadores de la cuenta (estado SAT, corporativo). ' +
      'Un operador de Flujo recibe en su lugar {mfa_required: true, mfa_token} y termina en /login/mfa/. ' +
      'Tras 3 intentos fallidos para el usuario (desde cualquier dirección, 15 minutos) se pide captcha_token ' +
      '(CAPTCHA de la acción login) y cada contraseña incorrecta tarda más en responderse (de 250 ms a 4 s); ' +
      'el bloqueo (429) es solo por dirección y por usuario desde esa dirección, así que nadie bloquea a otro.',
    body: LoginRequest,
    response: { oneOf: [structToJsonSchema(LoginResponse), structToJsonSchema(MfaChallengeResponse)] },
    responses: {
      400: {
        description:
          `Falta el CAPTCHA o no es válido: {captcha_token: ['${SERVER_MESSAGES.loginCaptchaRequired}'], ` +
          'captcha_required: true}; el navegador resuelve el CAPTCHA login y vuelve a enviar.',
        schema: structToJsonSchema(LoginCaptchaRequired),
      },
      401: 'Usuario o contraseña incorrectos (el mismo mensaje para ambos).',
      429:
        `${TOO_MANY} Límites: 5 fallos por usuario desde una dirección y 20 por dirección en 15 minutos. ` +
        'También: operador bloqueado por códigos incorrectos.',
    },
  },
  logout: {
    summary: 'Log out',
    description:
      'Cierra la sesión de quien llama: revoca su token de renovación y todos los rotados desde ese ingreso; ' +
      'el token de acceso deja de servir en ese momento. Responde 204 sin cuerpo. Las demás sesiones del usuario ' +
      'siguen.',
    status: 204,
    // Operators end their sessions here too.
    roles: ['provider', 'corporate', 'operator'],
  },
  loginMfa: {
    summary: "Log in, an operator's second step",
    description:
      'Segundo paso del operador: el mfa_token de /login/ (vive 5 minutos, sirve una vez) y el código de 6 dígitos ' +
      'de su aplicación (RFC 6238, ±30 s, cada código una vez) o uno de sus códigos de recuperación (cada uno una ' +
      'vez). Cinco códigos incorrectos seguidos bloquean al operador 15 minutos.',
    body: MfaLoginRequest,
    response: OperatorSessionResponse,
    responses: {
      400: {
        description: `Código incorrecto: {code: ['${OPERATOR_LOGIN_MESSAGES.wrongCode}']}; el mfa_token sigue vivo.`,
        schema: { type: 'object', properties: { code: { type: 'array', items: { type: 'string' } } } },
      },
      401: OPERATOR_LOGIN_MESSAGES.challengeExpired,
      429: `${OPERATOR_LOGIN_MESSAGES.locked} (o demasiados intentos desde la dirección; cabecera Retry-After).`,
    },
  },
  refresh: {
    summary: 'Rotate the refresh token',
    description: 'Renueva la sesión: un token de renovación sirve una vez; reusarlo termina toda la sesión.',
    body: TokenRefreshRequest,
    response: TokenRefreshResponse,
    responses: { 401: 'Token de renovación inválido, usado o vencido.' },
  },
  register: {
    summary: 'Sign up (user and company)',
    description:
      'Crea el usuario y su empresa (sin vincular al SAT) tras el CAPTCHA de la acción register; reglas de ' +
      'contraseña de Django.',
    body: SignUpRequest,
    status: 201,
    response: PlainMessageResponse,
    responses: { 429: publicWriteLimitDoc('signUp') },
  },
  profile: {
    summary: "The caller's profile",
    description: 'Perfil del usuario; las CLABE solo aparecen si existen y no se editan.',
    response: Profile,
  },
  updateProfile: {
    summary: "Update the caller's profile",
    description:
      'Actualiza nombre, apellidos, teléfono, razón social (no después de vincular el SAT) y avisos.',
    body: ProfileUpdate,
    response: Profile,
  },
  updatePassword: {
    summary: 'Change the password',
    description:
      'Cambia la contraseña; las demás sesiones terminan y esta sigue. Los errores se listan en old_password.',
    body: PasswordChange,
    response: PlainMessageResponse,
    responses: { 429: TOO_MANY },
  },
  requestDemo: {
    summary: 'Request a demo (public form)',
    description:
      'Solicitud de demostración desde el sitio público; source dice qué página la envió. Límites por campo ' +
      `(errors.campo: '${tooLongMessage(MAX_LENGTH.demoCompany)}'): company hasta ${MAX_LENGTH.demoCompany} ` +
      `caracteres, first_name y last_name hasta ${MAX_LENGTH.personName}, email hasta ${MAX_LENGTH.email}.`,
    body: DemoRequest,
    query: {
      source: {
        description: 'Página de origen; cualquier otro valor cuenta como solicitar-demo.',
        schema: { enum: [...DEMO_REQUEST_SOURCES], default: 'solicitar-demo' },
      },
    },
    status: 201,
    response: PlainMessageResponse,
    responses: {
      400: {
        description: 'Datos inválidos, dentro de errors: {errors: {campo: [mensaje]}}.',
        schema: { type: 'object', properties: { errors: { $ref: '#/components/schemas/FieldErrors' } } },
      },
      429: publicWriteLimitDoc('demoRequest'),
    },
  },
} satisfies Record<string, RouteDoc>;

/** The user service (mounted at /api/accounts/): session, sign-up, profile, password change, demo request. */
export const accountsService: FastifyPluginAsync<AccountsDeps> = async (app, deps) => {
  const { db } = deps;
  // Computed now, so the first login of an unknown username is not slower than the others.
  await dummyPasswordHash();

  app.post<{ Body: LoginRequest }>('/login/', { config: { openapi: DOCS.login } }, async (request) =>
    login(deps, request.body, request.ip),
  );
  app.post<{ Body: MfaLoginRequest }>(
    '/login/mfa/',
    { config: { openapi: DOCS.loginMfa } },
    async (request) => loginWithCode(deps, request.body, request.ip),
  );
  app.post(
    '/logout/',
    { preHandler: app.requireUser, config: { openapi: DOCS.logout } },
    async (request, reply) => {
      await logout(deps, currentUser(request));
      return reply.status(204).send();
    },
  );
  app.post<{ Body: TokenRefreshRequest }>(
    '/token/refresh/',
    { config: { openapi: DOCS.refresh } },
    async (request) => refresh(deps, request.body),
  );
  app.post<{ Body: SignUpRequest }>(
    '/register/',
    {
      preHandler: async (request) => throttleSignUp(deps, request.ip),
      config: {
        openapi: DOCS.register,
        invalidBody: (errors, request) => {
          throw signUpRefusal(errors, request.body);
        },
      },
    },
    async (request, reply) => reply.status(201).send(await register(deps, request.body, request.ip)),
  );

  app.get('/profile/', { preHandler: app.requireUser, config: { openapi: DOCS.profile } }, async (request) =>
    getProfile(deps, currentUser(request)),
  );
  app.put<{ Body: ProfileUpdate }>(
    '/profile/',
    { preHandler: app.requireUser, config: { openapi: DOCS.updateProfile } },
    async (request) => updateProfile(deps, currentUser(request), request.body),
  );
  app.post<{ Body: PasswordChange }>(
    '/update-password/',
    {
      preHandler: app.requireUser,
      config: {
        openapi: DOCS.updatePassword,
        invalidBody: (errors) => {
          throw passwordChangeRefusal(errors);
        },
      },
    },
    async (request) => changePassword(deps, currentUser(request), request.body),
  );

  await app.register(captchaRoutes, { prefix: '/captcha', captcha: deps.captcha });

  // Every field goes through the shared text checks, which refuse NUL under `errors` like any other mistake.
  const ownTextChecks: RequestGuardConfig = { checksOwnText: true };
  app.post<{ Body: DemoRequest; Querystring: { source?: string } }>(
    '/request-demo/',
    {
      // Before the body is read, so refused forms count too: a script gains nothing by sending garbage.
      preHandler: async (request) => deps.publicWrites.take('demoRequest', { address: request.ip }),
      config: {
        ...ownTextChecks,
        openapi: DOCS.requestDemo,
        // The spec's client reads the first message of each entry of `errors`.
        invalidBody: (errors) => {
          throw new FieldErrors(errors, 'errors');
        },
      },
    },
    async (request, reply) => {
      const source = request.query.source ?? 'solicitar-demo';
      await insertDemoRequest(
        db,
        request.body,
        (DEMO_REQUEST_SOURCES as readonly string[]).includes(source) ? source : 'solicitar-demo',
      );
      return reply.status(201).send({ message: SERVER_MESSAGES.demoRequestSent });
    },
  );
};
