/**
 * Rules of a visitor's data shared by the API's schema and the kiosk's page, so both accept the same input: the
 * longest text each field takes, and what a phone number may contain.
 */
export const visitorTextLimits = {
  name: 200,
  phone: 40,
  rg: 30,
  document: 60,
  company: 200,
  position: 200,
  sector: 200,
  address: 500,
} as const;

/** Digits, or digits formatted with spaces, brackets, dots, dashes and a plus sign. */
export const phonePattern = /^[\d\s()+.-]*$/;
