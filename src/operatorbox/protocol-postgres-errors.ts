/**
 * The words of the Postgres client's failures. A server's ErrorResponse is reported by its severity and SQLSTATE
 * with the condition's name, never by its message text: PostgreSQL's messages quote values (a key that already
 * exists, the text that is not an integer, the user name), and the call's query is rendered from the custom resource.
 */
import { ScramError } from './protocol-postgres-auth.js';
import { PostgresWireError } from './protocol-postgres-wire.js';

/** A failure whose `reason` is safe to show: no URL, no password, no row data, no server message text. */
export class PostgresFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PostgresFailure';
  }
}

/** A failure the server reported (ErrorResponse): the session is still usable when `fatal` is false. */
export class PostgresServerError extends PostgresFailure {
  constructor(
    readonly sqlState: string,
    readonly severity: string,
  ) {
    super(`the server answered ${severity} ${sqlState} (${conditionName(sqlState)})`);
    this.name = 'PostgresServerError';
  }

  get fatal(): boolean {
    return this.severity === 'FATAL' || this.severity === 'PANIC';
  }
}

/** The errors an operator author most often meets, by SQLSTATE (PostgreSQL's errcodes appendix). */
const CONDITIONS: Readonly<Record<string, string>> = {
  '08P01': 'protocol_violation',
  '0A000': 'feature_not_supported',
  '22P02': 'invalid_text_representation',
  '22012': 'division_by_zero',
  '23505': 'unique_violation',
  '25006': 'read_only_sql_transaction',
  '28000': 'invalid_authorization_specification',
  '28P01': 'invalid_password',
  '3D000': 'invalid_catalog_name',
  '3F000': 'invalid_schema_name',
  '42501': 'insufficient_privilege',
  '42601': 'syntax_error',
  '42602': 'invalid_name',
  '42703': 'undefined_column',
  '42883': 'undefined_function',
  '42P01': 'undefined_table',
  '42P02': 'undefined_parameter',
  '53300': 'too_many_connections',
  '57014': 'query_canceled',
  '57P01': 'admin_shutdown',
  '57P03': 'cannot_connect_now',
};

/** The condition classes (the first two characters of a SQLSTATE). */
const CLASSES: Readonly<Record<string, string>> = {
  '08': 'connection_exception',
  '0A': 'feature_not_supported',
  '21': 'cardinality_violation',
  '22': 'data_exception',
  '23': 'integrity_constraint_violation',
  '25': 'invalid_transaction_state',
  '28': 'invalid_authorization_specification',
  '2B': 'dependent_privilege_descriptors_still_exist',
  '3D': 'invalid_catalog_name',
  '3F': 'invalid_schema_name',
  '40': 'transaction_rollback',
  '42': 'syntax_error_or_access_rule_violation',
  '53': 'insufficient_resources',
  '54': 'program_limit_exceeded',
  '55': 'object_not_in_prerequisite_state',
  '57': 'operator_intervention',
  '58': 'system_error',
  P0: 'plpgsql_error',
  XX: 'internal_error',
};

/** `42P01` → `undefined_table`; an unknown code → its class's name, else `unknown condition`. */
export function conditionName(sqlState: string): string {
  return CONDITIONS[sqlState] ?? CLASSES[sqlState.slice(0, 2)] ?? 'unknown condition';
}

/** The ErrorResponse's fields as a {@link PostgresServerError}. */
export function serverError(fields: ReadonlyMap<string, string>): PostgresServerError {
  const sqlState = fields.get('C') ?? '?????';
  const severity = fields.get('V') ?? fields.get('S') ?? 'ERROR';
  return new PostgresServerError(/^[0-9A-Z]{5}$/.test(sqlState) ? sqlState : '?????', /^[A-Z]+$/.test(severity) ? severity : 'ERROR');
}

/** Any error thrown inside the client as a safe reason: a socket's error code, never its message. */
export function failureReason(error: unknown): string {
  if (error instanceof PostgresFailure || error instanceof PostgresWireError) return error.reason;
  if (error instanceof ScramError) return `SCRAM-SHA-256 authentication failed: ${error.reason}`;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  if (/^[A-Z_0-9]+$/.test(code)) return `the connection failed (${code})`;
  return 'the connection failed';
}
