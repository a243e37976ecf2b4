/**
 * The webhook benchmark's receivers are plain http on 127.0.0.1: the in-process api must accept
 * such URLs in setwebhooks. Set before any app module loads (import right after './env').
 */
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
