/**
 * Standard security headers on every answer. The API answers JSON, CSV or text that no browser should
 * sniff, frame or run: a strict Content-Security-Policy by default, which the pages (the web UI,
 * /api/docs) replace with their own. HSTS only over HTTPS (behind a TLS proxy with TRUST_PROXY, from
 * X-Forwarded-Proto), where it can mean something.
 */
import type { Middleware } from 'koa';

export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=31536000');
    await next();
  };
}
