import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Paths the log never shows: credentials in headers and secrets in objects that might one day be logged (an error
 * carrying the request, a configuration). Nothing logs them today; this keeps a future log line from leaking them.
 */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers.authentication',
  'headers.authorization',
  'headers.authentication',
  'authorization',
  'authentication',
  'apiKey',
  'aesKey',
  'password',
  'secret',
  '*.apiKey',
  '*.aesKey',
  '*.password',
  '*.secret',
  'err.body',
];

/** The service's logger: JSON lines on stderr (or `destination`), secrets replaced by "[redacted]". */
export function createLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: '[redacted]' } }, destination);
}
