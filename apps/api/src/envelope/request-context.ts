import { AuthContext } from '@app/core';
import { Request } from 'express';

/** What the guards attach to a request. */
export interface ApiRequest extends Request {
  auth?: AuthContext;
  /** Action API `ver` (1 or 2). */
  ver?: 1 | 2;
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Metadata key holding a handler's action name. */
export const ACTION_NAME = 'fieldwork:action';
