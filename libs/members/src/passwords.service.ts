import { createHash, randomBytes } from 'node:crypto';
import { AppConfig } from '@app/core';
import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/** Member passwords (argon2id, RFC 9106) and invitation tokens (random, stored as SHA-256). */
@Injectable()
export class Passwords {
  constructor(private readonly config: AppConfig) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, {
      type: argon2.argon2id,
      memoryCost: this.config.PASSWORD_HASH_MEMORY_KIB,
      timeCost: this.config.PASSWORD_HASH_TIME_COST,
    });
  }

  verify(hash: string, password: string): Promise<boolean> {
    return argon2.verify(hash, password);
  }

  /**
   * A new invitation: the token (base64url, 256 bits) goes to the delivery channel only; the
   * member row keeps its SHA-256 and the expiry (ms).
   */
  newInvitation(now: number): { token: string; tokenHash: string; expiresAt: number } {
    const token = randomBytes(32).toString('base64url');
    return {
      token,
      tokenHash: createHash('sha256').update(token).digest('hex'),
      expiresAt: now + this.config.INVITATION_TTL_HOURS * 3600_000,
    };
  }
}
