import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

/**
 * One debug line per request: method, path, status and duration. Never the query (it may hold a visitor's name)
 * nor the headers (they hold the API key).
 */
export function requestLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    if (!log.isLevelEnabled('debug')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.debug({ method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms }, 'request');
    });
    next();
  };
}
