import {
  array,
  boolean,
  enums,
  type Infer,
  integer,
  nullable,
  number,
  optional,
  string,
  type,
} from 'superstruct';
import { CAP_KINDS, CAP_SCOPES, LADDER_BUCKETS } from '../concentration';
import { OperatorRole } from '../operator-roles';
import {
  crossFieldRule,
  integerBetween,
  MAX_SERIAL_ID,
  MESSAGES,
  payload,
  positiveMoney,
  requiredText,
} from './fields';

// Exposure and concentration (issue 34, decision 0069): GET operator/exposure/, the caps' calls and the
// economic group on a corporate's file.

export const EXPOSURE_MESSAGES = {
  valueInvalid: 'Escribe un número mayor a cero, sin comas y con hasta dos decimales.',
  percentTooLarge: 'Un porcentaje no puede pasar de 100.',
  companyRequired: 'Indica el comprador o proveedor del tope.',
  groupRequired: 'Indica el grupo económico del tope.',
  groupTooLong: 'El nombre del grupo tiene a lo más 120 caracteres.',
} as const;

export const MAX_GROUP_NAME_LENGTH = 120;

/** POST operator/exposure/caps/: a cap on a buyer or supplier (company_id) or on a group (group). */
export const ProposeCapBody = crossFieldRule(
  crossFieldRule(
    payload({
      scope: enums([...CAP_SCOPES]),
      kind: enums([...CAP_KINDS]),
      value: positiveMoney({ required: MESSAGES.required, invalid: EXPOSURE_MESSAGES.valueInvalid }),
      company_id: optional(integerBetween(1, MAX_SERIAL_ID)),
      group: optional(requiredText({ maxLength: MAX_GROUP_NAME_LENGTH })),
    }),
    (value) =>
      value.scope === 'group'
        ? value.group === undefined
          ? { field: 'group' as const, message: EXPOSURE_MESSAGES.groupRequired }
          : null
        : value.company_id === undefined
          ? { field: 'company_id' as const, message: EXPOSURE_MESSAGES.companyRequired }
          : null,
  ),
  (value) =>
    value.kind === 'percent' && Number(value.value) > 100
      ? { field: 'value', message: EXPOSURE_MESSAGES.percentTooLarge }
      : null,
);
export type ProposeCapBody = Infer<typeof ProposeCapBody>;

/** POST operator/corporates/{id}/economic-group/: the group's name, or null (or blank) to clear it. */
export const EconomicGroupBody = crossFieldRule(
  payload({
    economic_group: nullable(string()),
  }),
  (value) =>
    value.economic_group !== null && value.economic_group.trim().length > MAX_GROUP_NAME_LENGTH
      ? { field: 'economic_group' as const, message: EXPOSURE_MESSAGES.groupTooLong }
      : null,
);
export type EconomicGroupBody = Infer<typeof EconomicGroupBody>;

export const EconomicGroupAnswer = type({ id: integer(), economic_group: nullable(string()) });
export type EconomicGroupAnswer = Infer<typeof EconomicGroupAnswer>;

/** One cap as the API sends it (value: MXN for 'amount', percent for 'percent'). */
export const CapView = type({
  id: integer(),
  scope: enums([...CAP_SCOPES]),
  company_id: nullable(integer()),
  group: nullable(string()),
  subject: string(),
  kind: enums([...CAP_KINDS]),
  value: string(),
  limit_text: string(),
  status: enums(['propuesto', 'vigente', 'rechazado', 'reemplazado']),
  status_label: string(),
  proposed_by: integer(),
  proposed_by_username: string(),
  proposed_at: string(),
  decided_by: nullable(integer()),
  decided_by_username: nullable(string()),
  decided_at: nullable(string()),
});
export type CapView = Infer<typeof CapView>;

export const CapList = type({
  results: array(CapView),
  viewer: type({ id: integer(), roles: array(OperatorRole) }),
});
export type CapList = Infer<typeof CapList>;

/** A buyer's, group's or supplier's exposure, with the cap in force on it (null when none). */
export const ExposureRow = type({
  /** The company's id; null for a group. */
  company_id: nullable(integer()),
  name: string(),
  /** The buyer's economic group (buyers only). */
  group: optional(nullable(string())),
  outstanding: string(),
  reserved: string(),
  exposure: string(),
  /** Share of Flujo's total exposure, percent with two decimals. */
  share_percentage: number(),
  cap: nullable(
    type({
      id: integer(),
      kind: enums([...CAP_KINDS]),
      value: string(),
      limit_text: string(),
      utilisation_percentage: number(),
      room: string(),
      exceeded: boolean(),
    }),
  ),
});
export type ExposureRow = Infer<typeof ExposureRow>;

/** GET operator/exposure/. */
export const ExposureAnswer = type({
  as_of: string(),
  total_outstanding: string(),
  total_reserved: string(),
  total_exposure: string(),
  buyers: array(ExposureRow),
  groups: array(ExposureRow),
  suppliers: array(ExposureRow),
  programmes: array(
    type({
      programme_id: integer(),
      corporate_id: integer(),
      corporate_name: string(),
      state: string(),
      limit: string(),
      reserved: string(),
      used: string(),
      utilisation_percentage: number(),
    }),
  ),
  ladder: array(
    type({ bucket: enums([...LADDER_BUCKETS]), label: string(), outstanding: string(), invoices: integer() }),
  ),
});
export type ExposureAnswer = Infer<typeof ExposureAnswer>;
