import { z } from 'zod';
import { isValidCpf } from '../rules/cpf.ts';
import { emailMaxLength, emailPattern } from '../rules/email.ts';
import { isInt32 } from '../rules/ids.ts';
import { phonePattern, visitorTextLimits } from '../rules/visitor.ts';
import { ApiError, type ErrorCode } from './errors.ts';

/*
 * Field types shared by the resources' schemas. Form-encoded bodies carry every value as text, so each type
 * accepts its JSON form and its text form ("true", "42"), and the OpenAPI document shows both.
 */

/**
 * One schema per type and argument, made on first use: a schema never changes (its methods answer new ones), so
 * the fields of every resource that share a type can share its schema, built once instead of once per field at
 * start (a third of the time zod spent building schemas at start went into these).
 */
function shared<Args extends (number | undefined)[], S extends z.ZodType>(make: (...args: Args) => S) {
  const made = new Map<string, S>();
  return (...args: Args): S => {
    const key = args.join();
    let schema = made.get(key);
    if (!schema) {
      schema = make(...args);
      made.set(key, schema);
    }
    return schema;
  };
}

export const bool = shared(() => z.union([z.boolean(), z.stringbool()]));

/** A signed 32-bit integer, bounded in the schema (so the document says so) and checked again in its text form. */
export const int32 = shared(() =>
  z
    .union([
      z.int32(),
      z
        .string()
        .regex(/^-?\d{1,10}$/)
        .transform(Number),
    ])
    .refine(isInt32, 'must be a 32-bit integer'),
);

export const positiveInt = shared(() =>
  z
    .union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)])
    .refine((n) => n > 0 && n <= 2_147_483_647, 'must be a positive integer'),
);

export const text = shared((max = 1000) => z.string().max(max));

/** Dates arrive as ISO 8601 text or Unix seconds; stores resolve them in the company's zone. */
export const dateInput = shared(() => z.union([z.string().max(40), z.number()]));
export const nullableText = shared((max = 1000) => z.string().max(max).nullable());
export const email = shared(() =>
  z
    .string()
    .trim()
    .max(emailMaxLength)
    .pipe(z.email({ pattern: emailPattern })),
);
export const cpf = shared(() => z.string().refine(isValidCpf, 'must be a valid CPF'));
export const countryCode = shared(() => z.string().regex(/^\+\d{1,4}$/, 'must look like +55'));

/** A phone number as people write it: digits, spaces, parentheses, dots, dashes and a plus. */
export const phone = shared(() =>
  z.string().trim().max(visitorTextLimits.phone).regex(phonePattern, 'digits or a formatted phone'),
);

/** An http(s) URL, or '' for none (a callback or webhook switched off). */
export const httpUrl = shared(() =>
  z
    .string()
    .max(2000)
    .refine((s) => s === '' || /^https?:\/\/[^\s]+$/i.test(s), 'must be an http(s) URL or empty'),
);

/** Space-separated e-mails (as the interface's host input takes them) or a JSON array of them. */
export const emailList = shared((max = 50) =>
  z
    .union([z.array(z.string()), z.string().transform((s) => s.split(/[\s,]+/).filter(Boolean))])
    .pipe(z.array(email()).max(max)),
);

export const stringList = shared((max = 50) =>
  z
    .union([z.array(z.string().max(200)), z.string().transform((s) => s.split(/[\s,]+/).filter(Boolean))])
    .pipe(z.array(z.string().max(200)).max(max)),
);

/** Which error code a field's problem answers with: `missing` when absent, `invalid` otherwise. */
export interface FieldCodes {
  missing?: ErrorCode;
  invalid?: ErrorCode;
}

/** Codes that, being shared by many fields, say which one they are about. */
const namesTheField = new Set<ErrorCode>(['INVALID_PARAMETER', 'READ_ONLY_FIELD']);

function isPresent(input: unknown, path: readonly PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value !== undefined;
}

/**
 * Validates an input with its schema and turns the first problem into the interface's error code: the field's
 * own code where it has one, else INVALID_PARAMETER naming the field.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
  codes: Readonly<Record<string, FieldCodes>> = {},
): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  const own = codes[field] ?? codes[String(issue?.path[0] ?? '')];
  // Absent, or text that is empty once trimmed: both are "missing" to a person filling in a form.
  const isMissing =
    (issue !== undefined && !isPresent(input, issue.path)) ||
    (issue?.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1);
  const code = (isMissing ? own?.missing : undefined) ?? own?.invalid ?? 'INVALID_PARAMETER';
  throw new ApiError(code, namesTheField.has(code) && field ? { field } : {});
}
